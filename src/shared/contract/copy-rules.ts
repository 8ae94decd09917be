import { z } from 'zod';
import { MessageResponse } from './common.ts';
import { Market, Text } from './fields.ts';

/** A master's copy rule; `master_id` is the master's account_id. account_name and broker_name are ours. */
export const CopyRule = z.object({
  master_id: z.string(),
  market_type: Market,
  allowed_pairs: z.array(z.string()),
  account_name: z.string(),
  broker_name: z.string(),
});
export type CopyRule = z.infer<typeof CopyRule>;
export const CopyRulesResponse = z.object({ copy_rules: z.array(CopyRule) });

export const AllowedPairsBody = z.strictObject({
  master_id: Text('master_id', 100),
  new_allowed_pairs: z.array(Text('new_allowed_pairs[]', 20)).max(100),
});
export type AllowedPairsBody = z.infer<typeof AllowedPairsBody>;

/** What POST /api/copy-rules/allowed-pairs answers: its message and the rule as stored. */
export const AllowedPairsResponse = MessageResponse.extend({ copy_rule: CopyRule });
