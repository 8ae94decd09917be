import { z } from 'zod';

/** GET /api/bridge/status (ours: the spec has no read call, the top bar's toggle needs the state). */
export const BridgeStatusResponse = z.object({
  data: z.object({ running: z.boolean(), changed_at: z.number().describe('epoch seconds') }),
});
export type BridgeStatusResponse = z.infer<typeof BridgeStatusResponse>;
