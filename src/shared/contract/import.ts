import { z } from 'zod';
import { Text } from './fields.ts';

/** Statement import (issue 18 item 4): a trade history report uploaded into one account. */
export const IMPORT_STATEMENT_PATH = '/api/accounts/import-statement';

/** The largest report accepted: the route's own body limit (the API's is 1 MB). */
export const STATEMENT_MAX_BYTES = 20 * 1024 * 1024;

/** What the file picker offers: MT5 Trade History Report (HTML, .xlsx) and MT4 Statement.htm. */
export const STATEMENT_FILE_TYPES = '.htm,.html,.xlsx';

/** The report's bytes travel as the raw request body with this content type. */
export const STATEMENT_CONTENT_TYPE = 'application/octet-stream';

/** Broker server time's offset from UTC, in minutes (UTC−12:00 to UTC+14:00). */
export const UTC_OFFSET_MIN = -720;
export const UTC_OFFSET_MAX = 840;

const OFFSET_MESSAGE = `utc_offset_minutes must be a whole number of minutes from ${UTC_OFFSET_MIN} to ${UTC_OFFSET_MAX}`;

/**
 * The request body: the report file's bytes, as they are (read by content, not by name). Declared for
 * the API description only; the route itself checks what arrived.
 */
export const ImportStatementBody = z.unknown().meta({
  type: 'string',
  format: 'binary',
  description: 'The report file: MT5 Trade History Report (.html in UTF-8 or UTF-16, or .xlsx) or MT4 Statement.htm.',
} as Record<string, unknown>);

export const ImportStatementQuery = z.strictObject({
  /** account_id or login of an account in the caller's portfolios. */
  account: Text('account', 100),
  /** How far the report's times (broker server time) are ahead of UTC; 0 by default. */
  utc_offset_minutes: z.coerce
    .number({ error: () => OFFSET_MESSAGE })
    .int(OFFSET_MESSAGE)
    .min(UTC_OFFSET_MIN, OFFSET_MESSAGE)
    .max(UTC_OFFSET_MAX, OFFSET_MESSAGE)
    .default(0),
});
export type ImportStatementQuery = z.input<typeof ImportStatementQuery>;

/**
 * What an import did, by deal ticket: `added` new deals, `updated` deals the report changed, `skipped`
 * deals already stored as the report has them. `warnings` are the rows the reader left out or read
 * with a guess, one sentence each.
 */
export const ImportStatementResponse = z.object({
  message: z.string(),
  added: z.number().int().nonnegative(),
  updated: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  warnings: z.array(z.string()),
});
export type ImportStatementResponse = z.infer<typeof ImportStatementResponse>;
