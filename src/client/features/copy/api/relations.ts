import { queryOptions } from '@tanstack/react-query';
import { RelationResponse, RelationsResponse, type CreateRelationBody, type UpdateRelationBody } from '#shared/contract/copy-relations.ts';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import { apiRequest } from '#client/api/http.ts';
import { idempotencyHeaders, UPDATE_FAILED, type WriteOptions } from '#client/api/queries/write.ts';

/** Relations change only when someone changes them: read again every 30 s, and after each change here. */
const REFRESH_MS = 30_000;

export const relationKeys = {
  all: () => ['copy-relations'] as const,
  list: (portfolio: Portfolio) => ['copy-relations', 'list', { portfolio }] as const,
};

export const relationQueries = {
  /** The copy relations in force whose master and follower are both in the portfolio. */
  list: (portfolio: Portfolio) =>
    queryOptions({
      queryKey: relationKeys.list(portfolio),
      queryFn: async ({ signal }) => (await apiRequest('/api/copy/relations', { query: { portfolio }, schema: RelationsResponse, signal })).data,
      refetchInterval: REFRESH_MS,
      staleTime: REFRESH_MS / 2,
    }),
};

const write = (path: string, method: 'POST' | 'PUT' | 'DELETE', body: unknown, options: WriteOptions) =>
  apiRequest(path, { method, body, schema: RelationResponse, fallbackMessage: UPDATE_FAILED, headers: idempotencyHeaders(options), signal: options.signal });

/** A follower starts copying a master; answers the message and the relation as stored. */
export function createRelation(body: CreateRelationBody, options: WriteOptions = {}) {
  return write('/api/copy/relations', 'POST', body, options);
}

export function updateRelation(id: number, body: UpdateRelationBody, options: WriteOptions = {}) {
  return write(`/api/copy/relations/${id}`, 'PUT', body, options);
}

export function endRelation(id: number, options: WriteOptions = {}) {
  return write(`/api/copy/relations/${id}`, 'DELETE', undefined, options);
}
