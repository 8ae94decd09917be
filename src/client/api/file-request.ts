import { API_KEY_HEADER, ErrorResponse } from '#shared/contract/common.ts';
import { endpointPath, endpointQuery, type Endpoint } from '#shared/contract/endpoints.ts';
import { HTTP_TIMEOUT_MS } from '#shared/domain/constants.ts';
import { noteServerReached, noteServerUnreachable } from '#client/live/reachability.ts';
import { sessionStore } from '#client/auth/session-store.ts';
import { apiBaseUrl } from '#client/config/runtime-config.ts';
import { ApiError, NETWORK_ERROR, type ApiCall, type CallOptions } from './http.ts';

/** A file the server answered (a statement's PDF or CSV): its bytes and the name it gave it. */
export interface ApiFile {
  blob: Blob;
  /** From Content-Disposition; null when the answer names none. */
  fileName: string | null;
}

/**
 * The file name of a Content-Disposition header: `filename*=UTF-8''…` (RFC 6266/5987) first, else
 * `filename="…"` or a bare `filename=…`; any folder part is dropped. Null when there is none.
 */
export function contentDispositionFileName(header: string | null): string | null {
  if (!header) return null;
  let name: string | null = null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[2]) {
    try {
      name = decodeURIComponent(extended[2].trim());
    } catch {
      name = null;
    }
  }
  if (name === null) {
    const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(header);
    name = plain ? (plain[1]?.replace(/\\(.)/g, '$1') ?? plain[2] ?? null) : null;
  }
  const base = name?.split(/[/\\]/).pop()?.trim() ?? '';
  return base === '' || base === '.' || base === '..' ? null : base;
}

/**
 * An endpoint of the table called like apiRequest (the session key, 30 s timeout, the server's
 * message on failure, a 401 ending the session that was refused), for an answer that is a file
 * rather than JSON: the bytes as a Blob and the name from Content-Disposition. apiRequest reads
 * every answer as JSON and parses it with the endpoint's schema, which a PDF cannot pass.
 */
export async function apiFileRequest<E extends Endpoint>(endpoint: E, call: ApiCall<E>): Promise<ApiFile> {
  const options: CallOptions & { query?: Readonly<Record<string, unknown>>; params?: Readonly<Record<string, unknown>> } = call;
  const path = endpointPath(endpoint, options.params);
  const qs = endpointQuery(options.query);
  const apiKey = sessionStore.get()?.api_key;
  const headers: Record<string, string> = { accept: '*/*', ...options.headers };
  if (apiKey) headers[API_KEY_HEADER] = apiKey;
  const timeout = AbortSignal.timeout(HTTP_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(apiBaseUrl() + (qs ? `${path}?${qs}` : path), {
      method: endpoint.method,
      headers,
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    });
  } catch (err) {
    if (options.signal?.aborted) throw err;
    noteServerUnreachable();
    throw new ApiError(0, NETWORK_ERROR);
  }
  if (response.status < 500) noteServerReached();
  if (!response.ok) {
    if (response.status === 401 && apiKey && sessionStore.get()?.api_key === apiKey) sessionStore.clear();
    const payload: unknown = await response.json().catch(() => undefined);
    const parsed = ErrorResponse.safeParse(payload);
    throw new ApiError(
      response.status,
      parsed.success ? parsed.data.message : (options.fallbackMessage ?? `Request failed (${response.status}).`),
    );
  }
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch (err) {
    if (options.signal?.aborted) throw err;
    throw new ApiError(0, NETWORK_ERROR);
  }
  return { blob, fileName: contentDispositionFileName(response.headers.get('content-disposition')) };
}
