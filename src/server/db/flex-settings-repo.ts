import type { Queryable } from './database.ts';

/**
 * An account's Interactive Brokers Flex Web Service settings: its token (sealed: src/server/broker/
 * ibkr/secret-box.ts; never stored or read in clear here), its query id, the token's expiry as the
 * user chose it, and how the last fetch went.
 */
export interface FlexSettingsRow {
  account_id: number;
  token_sealed: string;
  query_id: string;
  /** 'YYYY-MM-DD', or null when not given. */
  token_expires: string | null;
  set_at: Date;
  last_fetch_at: Date | null;
  last_status: 'ok' | 'retrying' | 'failed' | null;
  last_error: string | null;
  failures: number;
  next_fetch_at: Date | null;
  expiry_alerted_at: Date | null;
}

const COLUMNS = `account_id, token_sealed, query_id, to_char(token_expires, 'YYYY-MM-DD') AS token_expires, set_at, last_fetch_at, last_status,
  last_error, failures, next_fetch_at, expiry_alerted_at`;

export async function flexSettingsOf(q: Queryable, accountId: number): Promise<FlexSettingsRow | undefined> {
  return (await q.query<FlexSettingsRow>(`SELECT ${COLUMNS} FROM flex_settings WHERE account_id = $1`, [accountId]))[0];
}

/** Sets an account's token and query (a new token starts afresh: no failure, the expiry alert re-armed), fetched first at `next`. */
export async function saveFlexSettings(
  q: Queryable,
  s: { accountId: number; tokenSealed: string; queryId: string; tokenExpires: string | null; at: Date; next: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO flex_settings (account_id, token_sealed, query_id, token_expires, set_at, next_fetch_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (account_id) DO UPDATE SET token_sealed = EXCLUDED.token_sealed, query_id = EXCLUDED.query_id,
       token_expires = EXCLUDED.token_expires, set_at = EXCLUDED.set_at, next_fetch_at = EXCLUDED.next_fetch_at,
       last_status = NULL, last_error = NULL, failures = 0, expiry_alerted_at = NULL`,
    [s.accountId, s.tokenSealed, s.queryId, s.tokenExpires, s.at, s.next],
  );
}

/** Removes an account's token; false when it had none. */
export async function deleteFlexSettings(q: Queryable, accountId: number): Promise<boolean> {
  return (await q.query('DELETE FROM flex_settings WHERE account_id = $1 RETURNING account_id', [accountId])).length > 0;
}

/** How a fetch went: its status, the error in words (never the token), the failures in a row, and when to fetch next (null: not until the settings change). */
export async function recordFlexFetch(
  q: Queryable,
  accountId: number,
  r: { at: Date; status: 'ok' | 'retrying' | 'failed'; error: string | null; failures: number; next: Date | null },
): Promise<void> {
  await q.query(
    'UPDATE flex_settings SET last_fetch_at = $2, last_status = $3, last_error = $4, failures = $5, next_fetch_at = $6 WHERE account_id = $1',
    [accountId, r.at, r.status, r.error, r.failures, r.next],
  );
}

/** The accounts whose fetch is due at `now`, oldest due first. */
export async function dueFlexFetches(q: Queryable, now: Date): Promise<number[]> {
  const rows = await q.query<{ account_id: number }>(
    'SELECT account_id FROM flex_settings WHERE next_fetch_at IS NOT NULL AND next_fetch_at <= $1 ORDER BY next_fetch_at',
    [now],
  );
  return rows.map((r) => r.account_id);
}

/**
 * Claims the expiry alert of the tokens that expire on or before `by` and were not alerted for yet
 * (one instance wins each); returns them with their account and expiry.
 */
export async function claimExpiryAlerts(q: Queryable, by: string, now: Date): Promise<{ account_id: number; token_expires: string }[]> {
  return q.query(
    `UPDATE flex_settings SET expiry_alerted_at = $2
      WHERE token_expires IS NOT NULL AND token_expires <= $1::date AND expiry_alerted_at IS NULL
      RETURNING account_id, to_char(token_expires, 'YYYY-MM-DD') AS token_expires`,
    [by, now],
  );
}
