import type { z } from 'zod';
import { API_KEY_HEADER, ErrorResponse } from '#shared/contract/common.ts';
import { HTTP_TIMEOUT_MS } from '#shared/domain/constants.ts';
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

interface RequestOptions<S extends z.ZodType> {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  schema: S;
  /** Message when the server gives none (SPEC §8: 'Update failed.', 'Login failed. Please try again.' …). */
  fallbackMessage?: string;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

function buildUrl(path: string, query: RequestOptions<z.ZodType>['query']): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** The one HTTP client: x-api-key, 30 s timeout, SPEC §8 messages, response parsed by its contract schema. */
export async function apiRequest<S extends z.ZodType>(path: string, options: RequestOptions<S>): Promise<z.infer<S>> {
  const apiKey = sessionStore.get()?.api_key;
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (apiKey) headers[API_KEY_HEADER] = apiKey;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const timeout = AbortSignal.timeout(HTTP_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(apiBaseUrl() + buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    });
  } catch (err) {
    if (options.signal?.aborted) throw err;
    throw new ApiError(0, NETWORK_ERROR);
  }
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
  const parsed = options.schema.safeParse(payload);
  if (!parsed.success) throw new ApiError(response.status, options.fallbackMessage ?? 'Unexpected response from the server.');
  return parsed.data;
}
