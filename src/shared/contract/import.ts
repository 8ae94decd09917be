import { z } from 'zod';
import { Money, Text } from './fields.ts';

/** Statement import (issue 18 item 4): a trade history report uploaded into one account. */
export const IMPORT_STATEMENT_PATH = '/api/accounts/import-statement';

/** The largest report accepted: the route's own body limit (the API's is 1 MB). */
export const STATEMENT_MAX_BYTES = 20 * 1024 * 1024;

/** What the file picker offers: MT5 Trade History Report (HTML, .xlsx), MT4 Statement.htm, Interactive Brokers Flex statements (.xml). */
export const STATEMENT_FILE_TYPES = '.htm,.html,.xlsx,.xml';

/** The report's bytes travel as the raw request body with this content type. */
export const STATEMENT_CONTENT_TYPE = 'application/octet-stream';

/** Broker server time's offset from UTC, in minutes (UTC−12:00 to UTC+14:00). */
export const UTC_OFFSET_MIN = -720;
export const UTC_OFFSET_MAX = 840;

const OFFSET_MESSAGE = `utc_offset_minutes must be a whole number of minutes from ${UTC_OFFSET_MIN} to ${UTC_OFFSET_MAX}`;

/** `utc_offset_minutes`, a query parameter: broker server time − UTC, in whole minutes. */
export const UtcOffsetParam = z.coerce
  .number({ error: () => OFFSET_MESSAGE })
  .int(OFFSET_MESSAGE)
  .min(UTC_OFFSET_MIN, OFFSET_MESSAGE)
  .max(UTC_OFFSET_MAX, OFFSET_MESSAGE);

/**
 * The request body: the report file's bytes, as they are (read by content, not by name). Declared for
 * the API description only; the route itself checks what arrived.
 */
export const ImportStatementBody = z.unknown().meta({
  type: 'string',
  format: 'binary',
  description:
    'The statement file: MT5 Trade History Report (.html in UTF-8 or UTF-16, or .xlsx), MT4 Statement.htm, or an Interactive Brokers Flex statement (Activity Flex Query, .xml).',
} as Record<string, unknown>);

export const ImportStatementQuery = z.strictObject({
  /** account_id or login of an account in the caller's portfolios. */
  account: Text('account', 100),
  /** How far the report's times (broker server time) are ahead of UTC; 0 by default. */
  utc_offset_minutes: UtcOffsetParam.default(0),
});
export type ImportStatementQuery = z.input<typeof ImportStatementQuery>;

/**
 * What an import did, by deal ticket: `added` new deals, `updated` deals the report changed, `skipped`
 * deals already stored as the report has them. `warnings` are the rows the reader left out or read
 * with a guess, one sentence each.
 */
/** Cash and results of one currency of a statement booked, in that currency. */
export const StatementCurrency = z.object({
  currency: z.string(),
  /** The cash at the start and the end of the statement's period (the statement's own figures where it states them); null where not known. */
  cash_start: Money.nullable(),
  cash_end: Money.nullable(),
  /** The realized result of the round trips closed in the file (after their commissions). */
  realized: Money,
  /** The commissions charged in this currency (negative). */
  commissions: Money,
});

/** One statement of the file: the account it was booked into, or why it was not. */
export const StatementBooked = z.object({
  /** The account's account_id where it was booked, else the file's id of it. */
  account: z.string(),
  booked: z.boolean(),
  /** Why it was not booked (an account not registered in your portfolios, another currency). */
  reason: z.string().nullable(),
  /** The account's currency as the file tells it, and how it was told (the header, AccountInformation@currency, …). */
  base_currency: z.string().nullable(),
  base_rule: z.string().nullable(),
  /** Fills booked. */
  trades: z.number().int().nonnegative(),
  cash: z.array(StatementCurrency),
});
export type StatementBooked = z.infer<typeof StatementBooked>;

export const ImportStatementResponse = z.object({
  message: z.string(),
  /** The format read: 'mt5-html', 'mt5-xlsx', 'mt4-html' or 'ibkr-flex'. */
  format: z.string(),
  added: z.number().int().nonnegative(),
  updated: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  /** Per statement of the file (one for a MetaTrader report). */
  statements: z.array(StatementBooked),
  warnings: z.array(z.string()),
});
export type ImportStatementResponse = z.infer<typeof ImportStatementResponse>;
