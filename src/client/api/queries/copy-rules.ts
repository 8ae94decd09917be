import { mutationOptions, queryOptions } from '@tanstack/react-query';
import type { AllowedPairsBody, CopyRule } from '#shared/contract/copy-rules.ts';
import { endpoints } from '#shared/contract/endpoints.ts';
import { interval } from '#client/config/runtime-config.ts';
import { apiRequest } from '#client/api/http.ts';
import { idempotencyHeaders, UPDATE_FAILED, type WriteOptions } from './write.ts';

export const copyRuleKeys = {
  all: () => ['copy-rules'] as const,
  infos: () => ['copy-rules', 'infos'] as const,
};

export const copyRuleQueries = {
  /** The masters' copy rules (docs/product.md#calls: polled every 2 s). */
  infos: () =>
    queryOptions({
      queryKey: copyRuleKeys.infos(),
      queryFn: async ({ signal }) => (await apiRequest(endpoints.copyRules, { signal })).copy_rules,
      refetchInterval: interval('copy_rules_ms'),
    }),
};

/** Replaces a master's allowed pairs; answers the message and the rule as stored. */
export function setAllowedPairs(body: AllowedPairsBody, options: WriteOptions = {}) {
  return apiRequest(endpoints.allowedPairs, {
    body,
    fallbackMessage: UPDATE_FAILED,
    headers: idempotencyHeaders(options),
    signal: options.signal,
  });
}

/** The allowed-pairs write as mutation options: a screen adds what it does on success or failure. */
export const copyRuleMutations = {
  allowedPairs: () =>
    mutationOptions({
      mutationKey: [...copyRuleKeys.all(), 'allowed-pairs'],
      mutationFn: (body: AllowedPairsBody) => setAllowedPairs(body),
    }),
  /**
   * The same write, kept on the device when there is no connection and offered again once back
   * online (docs/client.md, "Edits made offline"); `seen` is the rule as the user saw it. Answers
   * `{ kept: true }`, or the server's answer.
   */
  allowedPairsOrKeep: (seen: Pick<CopyRule, 'master_id' | 'account_name' | 'allowed_pairs'>) =>
    mutationOptions({
      mutationKey: [...copyRuleKeys.all(), 'allowed-pairs'],
      // Offline too: the write is then kept on the device instead of paused by the query client.
      networkMode: 'always',
      // The outbox's code is loaded with the first such write, not with the app's shell (the router
      // reads this file's queries).
      mutationFn: async (body: AllowedPairsBody) => {
        const [{ createAllowedPairsEntry }, { sendOrKeep }] = await Promise.all([import('#client/offline/outbox.ts'), import('#client/offline/outbox-store.ts')]);
        return sendOrKeep(createAllowedPairsEntry(body, seen, Date.now()), (idempotencyKey) => setAllowedPairs(body, { idempotencyKey }));
      },
    }),
};
