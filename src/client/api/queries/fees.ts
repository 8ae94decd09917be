import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { endpoints } from '#shared/contract/endpoints.ts';
import type { SetFeeTermsBody } from '#shared/contract/fees.ts';
import { apiRequest } from '#client/api/http.ts';
import { apiFileRequest, type ApiFile } from '#client/api/file-request.ts';
import { idempotencyHeaders, UPDATE_FAILED, type WriteOptions } from './write.ts';

/** Terms change only when a write user sets them (then this client reads them again at once). */
const TERMS_STALE_MS = 60_000;
/** Fee entries are booked at the end of a day or a period, and a volume fee at each copied leg. */
const ENTRIES_REFETCH_MS = 60_000;

export const STATEMENT_FAILED = 'The statement could not be downloaded. Please try again.';

/** A range of days the fees and statement calls take: a month ('2026-03') or quarter ('2026-Q1'), or days from–to (UTC, both included). */
export type FeeRange = { period: string; from?: undefined; to?: undefined } | { period?: undefined; from: string; to?: string | undefined };

export type StatementFormat = 'pdf' | 'csv';

export const feeKeys = {
  all: () => ['fees'] as const,
  terms: (account: string) => ['fees', 'terms', account] as const,
  entries: (account: string, range: FeeRange) =>
    ['fees', 'entries', { account, period: range.period ?? null, from: range.from ?? null, to: range.to ?? null }] as const,
};

export const feeQueries = {
  /** The terms in force, every version set, the high-water mark and the management fee accrued (GET /api/fees/terms). */
  terms: (account: string) =>
    queryOptions({
      queryKey: feeKeys.terms(account),
      queryFn: async ({ signal }) => (await apiRequest(endpoints.feeTerms, { query: { account }, signal })).data,
      staleTime: TERMS_STALE_MS,
    }),
  /** The fee entries booked in a range, with their arithmetic, and the totals per kind (GET /api/fees). */
  entries: (account: string, range: FeeRange) =>
    queryOptions({
      queryKey: feeKeys.entries(account, range),
      queryFn: async ({ signal }) => (await apiRequest(endpoints.fees, { query: { account, ...range }, signal })).data,
      refetchInterval: ENTRIES_REFETCH_MS,
      staleTime: ENTRIES_REFETCH_MS / 2,
    }),
};

export type SetFeeTermsInput = z.input<typeof SetFeeTermsBody>;

/** Sets an account's fee terms from a day on (write users); answers the server's message. */
export function setFeeTerms(body: SetFeeTermsInput, options: WriteOptions = {}) {
  return apiRequest(endpoints.setFeeTerms, {
    body,
    fallbackMessage: UPDATE_FAILED,
    headers: idempotencyHeaders(options),
    signal: options.signal,
  });
}

export const feeMutations = {
  /** New fee terms of an account; the terms, the fees and the statements are read again once stored. */
  setTerms: (queryClient: QueryClient) =>
    mutationOptions({
      mutationKey: [...feeKeys.all(), 'set-terms'],
      mutationFn: (body: SetFeeTermsInput) => setFeeTerms(body),
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: feeKeys.all() }),
    }),
};

/** An investor statement as a file (GET /api/statements?format=pdf|csv), with the name the server gave it. */
export function fetchStatement(account: string, range: FeeRange, format: StatementFormat, signal?: AbortSignal): Promise<ApiFile> {
  return apiFileRequest(endpoints.statement, {
    query: { account, ...range, format },
    headers: { accept: format === 'pdf' ? 'application/pdf' : 'text/csv' },
    fallbackMessage: STATEMENT_FAILED,
    signal,
  });
}
