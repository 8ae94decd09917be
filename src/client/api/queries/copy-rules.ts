import { queryOptions } from '@tanstack/react-query';
import { MessageResponse } from '#shared/contract/common.ts';
import { CopyRule, CopyRulesResponse, type AllowedPairsBody } from '#shared/contract/copy-rules.ts';
import { interval } from '#client/config/runtime-config.ts';
import { apiRequest } from '#client/api/http.ts';
import { idempotencyHeaders, UPDATE_FAILED, type WriteOptions } from './write.ts';

export const copyRuleKeys = {
  all: () => ['copy-rules'] as const,
  infos: () => ['copy-rules', 'infos'] as const,
};

export const copyRuleQueries = {
  /** The masters' copy rules (SPEC §7: polled every 2 s). */
  infos: () =>
    queryOptions({
      queryKey: copyRuleKeys.infos(),
      queryFn: async ({ signal }) => (await apiRequest('/api/copy-rules/infos', { schema: CopyRulesResponse, signal })).copy_rules,
      refetchInterval: interval('copy_rules_ms'),
    }),
};

const AllowedPairsResponse = MessageResponse.extend({ copy_rule: CopyRule });

/** Replaces a master's allowed pairs; answers the message and the rule as stored. */
export function setAllowedPairs(body: AllowedPairsBody, options: WriteOptions = {}) {
  return apiRequest('/api/copy-rules/allowed-pairs', {
    method: 'POST',
    body,
    schema: AllowedPairsResponse,
    fallbackMessage: UPDATE_FAILED,
    headers: idempotencyHeaders(options),
    signal: options.signal,
  });
}
