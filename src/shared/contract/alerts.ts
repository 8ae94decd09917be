import { z } from 'zod';
import { EpochSeconds } from './fields.ts';

export const Alert = z.object({
  id: z.number().int(),
  type: z.string(),
  message: z.string(),
  datetime: EpochSeconds,
  /** How many alerts this line stands for: alerts of one kind on one account within an hour of the newest are one line, the newest's (ours; 1 when alone). */
  count: z.number().int().min(1).optional(),
});
export type Alert = z.infer<typeof Alert>;
/** GET /api/alerts/infos: newest first, the last 100 alerts that concern the caller's portfolios. */
export const AlertsResponse = z.object({ alerts: z.array(Alert) });
