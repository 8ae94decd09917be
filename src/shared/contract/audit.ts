import { z } from 'zod';
import { EpochSeconds } from './fields.ts';

/** A whole number from the query string ('2' → 2) within 1..max; anything else is a 400. */
function QueryInt(field: string, max: number, message = `${field} must be a whole number from 1 to ${max}`) {
  return z
    .string()
    .regex(/^\d{1,9}$/, message)
    .transform(Number)
    .pipe(z.number().int().min(1, message).max(max, message));
}

/** GET /api/audit query: pages of the audit log, newest first. */
export const AuditQuery = z.strictObject({
  page: QueryInt('page', 1_000_000, 'page must be a whole number ≥ 1').default(1).describe('1-based page (default 1)'),
  page_size: QueryInt('page_size', 200).default(50).describe('rows per page, 1..200 (default 50)'),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditEntry = z.object({
  id: z.number().int(),
  datetime: EpochSeconds.describe('epoch seconds'),
  username: z.string().nullable().describe('null when the user was deleted since'),
  action: z.string().describe("what was done, e.g. 'bridge.start', 'position.close'"),
  details: z.record(z.string(), z.unknown()).describe('the action’s parameters'),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** The changes a write user may read: the rows about their portfolios' accounts and portfolios, and their own (docs/security.md). */
export const AuditResponse = z
  .object({
    data: z.array(AuditEntry),
    page: z.number().int(),
    page_size: z.number().int(),
    total: z.number().int().describe('rows of the log the caller may read'),
  })
  .describe('The audit log the caller may read, newest first: rows about accounts and portfolios of theirs, their own rows about none; every row for a user authorised for every portfolio.');
export type AuditResponse = z.infer<typeof AuditResponse>;
