import { mutationOptions, type QueryClient } from '@tanstack/react-query';
import { API_KEY_HEADER, ErrorResponse } from '#shared/contract/common.ts';
import {
  IMPORT_STATEMENT_PATH,
  ImportStatementResponse,
  STATEMENT_CONTENT_TYPE,
  STATEMENT_MAX_BYTES,
} from '#shared/contract/import.ts';
import { ApiError, NETWORK_ERROR } from '#client/api/http.ts';
import { sessionStore } from '#client/auth/session-store.ts';
import { apiBaseUrl } from '#client/config/runtime-config.ts';
import { accountKeys } from './accounts.ts';
import { dealKeys } from './deals.ts';

/** When the upload fails without a message from the server. */
export const IMPORT_FAILED = 'Import failed.';
export const FILE_TOO_LARGE = `The file is larger than ${STATEMENT_MAX_BYTES / 1024 / 1024} MB, too large for a statement file.`;

/** A report of many megabytes on a phone's uplink takes longer than a JSON call's 30 s. */
const UPLOAD_TIMEOUT_MS = 120_000;

export interface ImportStatementInput {
  /** account_id (or login) of the account to import into. */
  account: string;
  file: Blob;
  /** How far the report's times (broker server time) are ahead of UTC. */
  utcOffsetMinutes: number;
  signal?: AbortSignal;
}

/**
 * Uploads a statement file as the raw request body (apiRequest sends JSON only), with the session key
 * and the same error handling: the server's message, 401 ends the session that was refused, and the
 * answer parsed by its contract.
 */
export async function importStatement({ account, file, utcOffsetMinutes, signal }: ImportStatementInput): Promise<ImportStatementResponse> {
  if (file.size > STATEMENT_MAX_BYTES) throw new ApiError(413, FILE_TOO_LARGE);
  const apiKey = sessionStore.get()?.api_key;
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': STATEMENT_CONTENT_TYPE };
  if (apiKey) headers[API_KEY_HEADER] = apiKey;
  const query = new URLSearchParams({ account, utc_offset_minutes: String(utcOffsetMinutes) });
  const timeout = AbortSignal.timeout(UPLOAD_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(`${apiBaseUrl()}${IMPORT_STATEMENT_PATH}?${query.toString()}`, {
      method: 'POST',
      headers,
      body: file,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new ApiError(0, NETWORK_ERROR);
  }
  const payload: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    if (response.status === 401 && apiKey && sessionStore.get()?.api_key === apiKey) sessionStore.clear();
    const error = ErrorResponse.safeParse(payload);
    throw new ApiError(response.status, error.success ? error.data.message : IMPORT_FAILED);
  }
  const parsed = ImportStatementResponse.safeParse(payload);
  if (!parsed.success) throw new ApiError(response.status, 'Unexpected response from the server.');
  return parsed.data;
}

export const statementImportMutations = {
  /**
   * Books a statement file into an account. The account's deals, stats, chart and figures are read
   * again afterwards, in the background: the import's summary does not wait for them.
   */
  upload: (queryClient: QueryClient) =>
    mutationOptions({
      mutationKey: ['statement-import'],
      mutationFn: importStatement,
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: dealKeys.all() });
        void queryClient.invalidateQueries({ queryKey: accountKeys.all() });
      },
    }),
};
