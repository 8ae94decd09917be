import { mutationOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/contract/endpoints.ts';
import type { CloseBySymbolBody, Position, SetTpSlBody } from '#shared/contract/positions.ts';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import type { Side } from '#shared/domain/side.ts';
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

export const POSITION_NOT_FOUND = 'Error: Position not found. Please try again.';
export const CLOSE_NOT_FOUND = 'Error: Position to close not found.';

const direction = (type: Side): CloseBySymbolBody['direction'] => (type === 'Buy' ? 'long' : 'short');

/** What a write on a position names: its symbol and direction, in the portfolio it is seen from. */
const target = (position: Position, portfolio: Portfolio) => ({
  category: position.category,
  symbol: position.u_symbol,
  direction: direction(position.type),
  currency: position.currency,
  portfolio,
});

/**
 * The writes on a live position (`position` is the feed's current row, null once it has closed). A
 * screen adds what it shows on success or failure.
 */
export const positionMutations = {
  /**
   * New TP/SL levels. Offline too: the change is then kept on the device (the outbox) and sent with
   * its Idempotency-Key when the connection returns, instead of being paused by the query client.
   */
  setTpSl: (position: Position | null, portfolio: Portfolio) =>
    mutationOptions({
      mutationKey: ['positions', 'set-tp-sl'],
      networkMode: 'always',
      mutationFn: async (levels: { take_profit: number; stop_loss: number }) => {
        if (!position) throw new Error(POSITION_NOT_FOUND);
        const request: SetTpSlBody = { ...target(position, portfolio), ...levels };
        const [{ createTpSlEntry }, { sendOrKeep }] = await Promise.all([import('#client/offline/outbox.ts'), import('#client/offline/outbox-store.ts')]);
        return sendOrKeep(createTpSlEntry(request, position, Date.now()), (idempotencyKey) => setTpSl(request, { idempotencyKey }));
      },
    }),
  /** Closes the position's symbol and direction; never kept for later (offline a close cannot be confirmed). */
  close: (position: Position | null, portfolio: Portfolio) =>
    mutationOptions({
      mutationKey: ['positions', 'close'],
      mutationFn: () => {
        if (!position) throw new Error(CLOSE_NOT_FOUND);
        return closeBySymbol(target(position, portfolio));
      },
    }),
};
