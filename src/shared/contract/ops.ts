import { z } from 'zod';

/** GET /health: the process is alive (liveness; it never touches the database). */
export const HealthResponse = z.object({ status: z.literal('ok') }).describe('The process is alive.');
export type HealthResponse = z.infer<typeof HealthResponse>;

/**
 * GET /ready: 200 when the database answers, 503 otherwise. A process without the simulated market
 * is still ready: it serves the stored data (the market's state is reported, not required).
 */
export const ReadyResponse = z
  .object({
    ready: z.boolean(),
    database: z.object({
      ok: z.boolean(),
      kind: z.enum(['pglite', 'postgres']),
      message: z.string().optional().describe('Why the database check failed'),
    }),
    market: z.object({
      running: z.boolean().describe('This process runs the market and the copy engine (it leads)'),
      reason: z.string().optional().describe('Why it does not'),
    }),
    redis: z
      .object({ ok: z.boolean(), message: z.string().optional() })
      .optional()
      .describe('With REDIS_URL (several instances): whether this instance reaches Redis (both connections up, PING answered within 1 s). Required: without it the instance is not ready.'),
  })
  .describe('Readiness: the database answers SELECT 1 within 2 s and, with REDIS_URL, Redis answers PING within 1 s. 503 otherwise, with the reason.');
export type ReadyResponse = z.infer<typeof ReadyResponse>;
