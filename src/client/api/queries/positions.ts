import { endpoints } from '#shared/contract/endpoints.ts';
import type { CloseBySymbolBody, SetTpSlBody } from '#shared/contract/positions.ts';
import { apiRequest } from '#client/api/http.ts';
import { CLOSE_FAILED, idempotencyHeaders, UPDATE_FAILED, type WriteOptions } from './write.ts';

// Positions are read from the live feed (#client/live/use-live-positions.ts); only the writes live here.

/** Sets take profit and stop loss on every position of a symbol and direction; answers the server's message. */
export function setTpSl(body: SetTpSlBody, options: WriteOptions = {}) {
  return apiRequest(endpoints.setTpSl, {
    body,
    fallbackMessage: UPDATE_FAILED,
    headers: idempotencyHeaders(options),
    signal: options.signal,
  });
}

/** Closes every position of a symbol and direction; answers the server's message. */
export function closeBySymbol(body: CloseBySymbolBody, options: WriteOptions = {}) {
  return apiRequest(endpoints.closeBySymbol, {
    body,
    fallbackMessage: CLOSE_FAILED,
    headers: idempotencyHeaders(options),
    signal: options.signal,
  });
}
