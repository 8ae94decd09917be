import { z } from 'zod';
import { EpochSeconds, Text } from './fields.ts';

/**
 * An Interactive Brokers account's Flex Web Service settings (docs/ibkr.md): the token and query id
 * a write user gives it, so that the server fetches its Activity statement once a day. The token is
 * never answered back: reads say only that one is set, and its expiry.
 */

/** The account, by its account_id or its login (U1234567). */
export const FlexParams = z.strictObject({ account: Text('account', 100) });

const TOKEN = 'token must be the Flex Web Service token Client Portal shows (10 to 64 letters and digits)';
const QUERY = 'query_id must be the Flex Query ID Client Portal shows (digits)';
const DAY = 'token_expires must be a day as YYYY-MM-DD';

export const SetFlexBody = z.strictObject({
  token: z.string({ error: TOKEN }).regex(/^[A-Za-z0-9]{10,64}$/, TOKEN),
  query_id: z.string({ error: QUERY }).regex(/^\d{1,20}$/, QUERY),
  /** The expiry chosen when the token was generated (IB does not tell it): the server alerts three days before. */
  token_expires: z.string({ error: DAY }).regex(/^\d{4}-\d{2}-\d{2}$/, DAY).refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), DAY).nullable().optional(),
});
export type SetFlexBody = z.input<typeof SetFlexBody>;

export const FlexStatus = z.object({
  account_id: z.string(),
  token_set: z.boolean(),
  query_id: z.string().nullable(),
  token_expires: z.string().nullable(),
  /** How the last fetch went: ok, retrying (a temporary error of IB's, tried again later), failed (the settings need a change). */
  last_status: z.enum(['ok', 'retrying', 'failed']).nullable(),
  last_error: z.string().nullable(),
  last_fetch_at: EpochSeconds.nullable(),
  next_fetch_at: EpochSeconds.nullable(),
});
export type FlexStatus = z.infer<typeof FlexStatus>;

export const FlexStatusResponse = z.object({ data: FlexStatus });
export type FlexStatusResponse = z.infer<typeof FlexStatusResponse>;

export const FLEX_PATH = '/api/accounts/:account/flex';
export const FLEX_FETCH_PATH = '/api/accounts/:account/flex/fetch';
