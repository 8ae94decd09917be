import { isoOfDay } from '#shared/domain/days.ts';
import type { FeeEntry, FeeTerms } from '#shared/domain/fees.ts';
import type { ChargedPerformance, TermsVersion } from '#server/ledger/port.ts';
import { insertMany } from './bulk.ts';
import type { Queryable } from './database.ts';

/* Fee terms and fee entries (docs/fees.md): the only SQL that reads or writes them. */


/** Every version of these accounts' terms, oldest first. */
export async function termsHistory(q: Queryable, accountIds: readonly number[]): Promise<Map<number, TermsVersion[]>> {
  const rows = await q.query<{ account_id: number; from_day: number; terms: FeeTerms }>(
    `SELECT account_id, (effective_from - DATE '1970-01-01')::int AS from_day, terms FROM fee_terms
      WHERE account_id = ANY($1::int[]) ORDER BY account_id, effective_from`,
    [[...accountIds]],
  );
  const out = new Map<number, TermsVersion[]>();
  for (const r of rows) {
    const list = out.get(r.account_id) ?? [];
    list.push({ fromDay: r.from_day, terms: r.terms });
    out.set(r.account_id, list);
  }
  return out;
}

/** An account's terms from a day on; terms already set for that same day are replaced. */
export async function saveTerms(q: Queryable, accountId: number, fromDay: number, terms: FeeTerms, userId: number | null): Promise<void> {
  await q.query(
    `INSERT INTO fee_terms (account_id, effective_from, terms, set_by) VALUES ($1, $2::date, $3, $4)
     ON CONFLICT (account_id, effective_from) DO UPDATE SET terms = EXCLUDED.terms, set_by = EXCLUDED.set_by, set_at = now()`,
    [accountId, isoOfDay(fromDay), JSON.stringify(terms), userId],
  );
}

/** Books fee entries; one already booked (same account, kind, type and ref) is left as it is. */
export async function insertFees(q: Queryable, entries: readonly FeeEntry[]): Promise<void> {
  await insertMany(
    q,
    'fee_entries',
    ['account_id', 'kind', 'entry', 'period', 'ref', 'at', 'basis', 'mark_before', 'mark_after', 'rate', 'amount', 'currency', 'note'],
    entries.map((e) => [
      e.accountId, e.kind, e.entry, e.period, e.ref, new Date(e.at * 1000), e.basis, e.markBefore, e.markAfter, e.rate, e.amount, e.currency, e.note,
    ]),
    'ON CONFLICT (account_id, kind, entry, ref) DO NOTHING',
  );
}

/** An account's last performance charge, with the basis changes already adjusted into it; null before any. */
export async function lastPerformanceCharge(q: Queryable, accountId: number): Promise<ChargedPerformance | null> {
  const [row] = await q.query<{ period: string; at: number; basis: number; mark_before: number; rate: number; adjusted: number }>(
    `SELECT c.period, extract(epoch FROM c.at)::bigint AS at, c.basis, c.mark_before, c.rate,
            COALESCE((SELECT sum(a.basis) FROM fee_entries a
                       WHERE a.account_id = c.account_id AND a.kind = 'performance' AND a.entry = 'adjustment'
                         AND a.ref LIKE c.period || '/%'), 0) AS adjusted
       FROM fee_entries c
      WHERE c.account_id = $1 AND c.kind = 'performance' AND c.entry = 'charge'
      ORDER BY c.at DESC, c.id DESC LIMIT 1`,
    [accountId],
  );
  if (!row) return null;
  return { period: row.period, at: Number(row.at), basis: row.basis, markBefore: row.mark_before ?? 0, rate: row.rate, adjusted: row.adjusted };
}

/** An account's fee entries with `at` in [fromS, toS), oldest first. */
export async function feesOf(q: Queryable, accountId: number, fromS: number, toS: number): Promise<FeeEntry[]> {
  const rows = await q.query<{
    account_id: number; kind: FeeEntry['kind']; entry: FeeEntry['entry']; period: string; ref: string; at: number;
    basis: number; mark_before: number | null; mark_after: number | null; rate: number; amount: number; currency: string; note: string;
  }>(
    `SELECT account_id, kind, entry, period, ref, extract(epoch FROM at)::bigint AS at, basis, mark_before, mark_after, rate, amount, currency, note
       FROM fee_entries WHERE account_id = $1 AND at >= to_timestamp($2) AND at < to_timestamp($3)
      ORDER BY at, id`,
    [accountId, fromS, toS],
  );
  return rows.map((r) => ({
    accountId: r.account_id,
    kind: r.kind,
    entry: r.entry,
    period: r.period,
    ref: r.ref,
    at: Number(r.at),
    basis: r.basis,
    markBefore: r.mark_before,
    markAfter: r.mark_after,
    rate: r.rate,
    amount: r.amount,
    currency: r.currency,
    note: r.note,
  }));
}

/** Every version of an account's terms, oldest first, with who set it and when. */
export async function termsVersionsOf(
  q: Queryable,
  accountId: number,
): Promise<{ effective_from: string; terms: FeeTerms; set_by: string | null; set_at: number }[]> {
  return q.query(
    `SELECT to_char(t.effective_from, 'YYYY-MM-DD') AS effective_from, t.terms, u.username AS set_by,
            extract(epoch FROM t.set_at)::bigint AS set_at
       FROM fee_terms t LEFT JOIN users u ON u.id = t.set_by
      WHERE t.account_id = $1 ORDER BY t.effective_from`,
    [accountId],
  );
}

/** An account's high-water mark and management fee accrued now. */
export async function feeStateOf(q: Queryable, accountId: number): Promise<{ hwm: number; accrued: number }> {
  const [row] = await q.query<{ hwm: number; accrued: number }>('SELECT hwm, fee_accrued AS accrued FROM accounts WHERE id = $1', [accountId]);
  return row ?? { hwm: 0, accrued: 0 };
}

/** An account's performance entries (charges and adjustments) before an instant, oldest first: where its mark stood after each. */
export async function markHistory(q: Queryable, accountId: number, beforeS: number): Promise<{ at: number; markAfter: number }[]> {
  return q.query(
    `SELECT extract(epoch FROM at)::bigint AS at, mark_after AS "markAfter" FROM fee_entries
      WHERE account_id = $1 AND kind = 'performance' AND entry IN ('charge', 'adjustment') AND mark_after IS NOT NULL
        AND at < to_timestamp($2)
      ORDER BY at, id`,
    [accountId, beforeS],
  );
}
