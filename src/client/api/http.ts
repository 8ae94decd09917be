import { API_KEY_HEADER, ErrorResponse } from '#shared/contract/common.ts';
import { endpointPath, endpointQuery, type Endpoint, type EndpointInput, type EndpointOutput } from '#shared/contract/endpoints.ts';
import { HTTP_TIMEOUT_MS } from '#shared/domain/constants.ts';
import { noteServerReached, noteServerUnreachable } from '#client/live/reachability.ts';
import { sessionStore } from '#client/auth/session-store.ts';
import { isOfflineApiPath, OFFLINE_HEADER } from '#client/offline/offline-api.ts';
import { offlineStatus } from '#client/offline/offline-status.ts';
import { apiBaseUrl } from '#client/config/runtime-config.ts';

export const NETWORK_ERROR = 'Network error. Please check your connection.';

export class ApiError extends Error {
  constructor(
    /** 0 when no response came back. */
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** How one call is made, besides its typed input. */
export interface CallOptions {
  /** Message when the server gives none ('Update failed.', 'Login failed. Please try again.' …, docs/client.md). */
  fallbackMessage?: string;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** An endpoint's typed input (z.input of its schemas) and the call's options. */
export type ApiCall<E extends Endpoint> = EndpointInput<E> & CallOptions;

function withQuery(path: string, query: Readonly<Record<string, unknown>> | undefined): string {
  const qs = endpointQuery(query);
  return qs ? `${path}?${qs}` : path;
}

/**
 * The one HTTP client: an endpoint of the table (src/shared/contract/endpoints.ts) called with its
 * typed input; x-api-key, 30 s timeout, the server's message on failure, the answer parsed by the
 * endpoint's response schema.
 */
export async function apiRequest<E extends Endpoint>(endpoint: E, call: ApiCall<E>): Promise<EndpointOutput<E>> {
  const options: CallOptions & { query?: Readonly<Record<string, unknown>>; body?: unknown; params?: Readonly<Record<string, unknown>> } = call;
  const path = endpointPath(endpoint, options.params);
  const apiKey = sessionStore.get()?.api_key;
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (apiKey) headers[API_KEY_HEADER] = apiKey;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const timeout = AbortSignal.timeout(HTTP_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(apiBaseUrl() + withQuery(path, options.query), {
      method: endpoint.method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    });
  } catch (err) {
    if (options.signal?.aborted) throw err;
    noteServerUnreachable();
    throw new ApiError(0, NETWORK_ERROR);
  }
  // The device's offline copy (served by the service worker) is not the server answering.
  const offlineCopy = isOfflineApiPath(path) && Number(response.headers.get(OFFLINE_HEADER)) > 0;
  if (offlineCopy) noteServerUnreachable();
  else if (response.status < 500) noteServerReached();
  const payload: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    // Only the session that was refused ends (a late 401 for an older key leaves a new sign-in alone).
    if (response.status === 401 && apiKey && sessionStore.get()?.api_key === apiKey) sessionStore.clear();
    const parsed = ErrorResponse.safeParse(payload);
    throw new ApiError(
      response.status,
      parsed.success ? parsed.data.message : (options.fallbackMessage ?? `Request failed (${response.status}).`),
    );
  }
  if (isOfflineApiPath(path)) {
    // The service worker marks a response it served from the device's store (offline).
    const savedAt = Number(response.headers.get(OFFLINE_HEADER));
    offlineStatus.reportResponse(Number.isFinite(savedAt) && savedAt > 0 ? savedAt : null);
  }
  const parsed = endpoint.response.safeParse(payload);
  if (!parsed.success) throw new ApiError(response.status, options.fallbackMessage ?? 'Unexpected response from the server.');
  return parsed.data as EndpointOutput<E>;
}
