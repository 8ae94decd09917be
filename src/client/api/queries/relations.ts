import { mutationOptions, queryOptions } from '@tanstack/react-query';
import type { CreateRelationBody, UpdateRelationBody } from '#shared/contract/copy-relations.ts';
import { endpoints } from '#shared/contract/endpoints.ts';
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
      queryFn: async ({ signal }) => (await apiRequest(endpoints.relations, { query: { portfolio }, signal })).data,
      refetchInterval: REFRESH_MS,
      staleTime: REFRESH_MS / 2,
    }),
};

const writeOptions = (options: WriteOptions) => ({ fallbackMessage: UPDATE_FAILED, headers: idempotencyHeaders(options), signal: options.signal });

/** A follower starts copying a master; answers the message and the relation as stored. */
export function createRelation(body: CreateRelationBody, options: WriteOptions = {}) {
  return apiRequest(endpoints.createRelation, { body, ...writeOptions(options) });
}

export function updateRelation(id: number, body: UpdateRelationBody, options: WriteOptions = {}) {
  return apiRequest(endpoints.updateRelation, { params: { id }, body, ...writeOptions(options) });
}

export function endRelation(id: number, options: WriteOptions = {}) {
  return apiRequest(endpoints.endRelation, { params: { id }, ...writeOptions(options) });
}

/** A relation to store: new (create) or the terms of one in force (update). */
export type RelationChange = { id: number; body: UpdateRelationBody } | { id?: undefined; body: CreateRelationBody };

/** The relation writes as mutation options: a screen adds what it does on success or failure. */
export const relationMutations = {
  save: () =>
    mutationOptions({
      mutationKey: [...relationKeys.all(), 'save'],
      mutationFn: (change: RelationChange) => (change.id === undefined ? createRelation(change.body) : updateRelation(change.id, change.body)),
    }),
  end: () =>
    mutationOptions({
      mutationKey: [...relationKeys.all(), 'end'],
      mutationFn: (id: number) => endRelation(id),
    }),
};
