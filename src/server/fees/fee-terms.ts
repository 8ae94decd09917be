import { DAY_S, dayOfIso, isoOfDay } from '#shared/domain/days.ts';
import type { FeeTerms } from '#shared/domain/fees.ts';
import { formatDayFr } from '#shared/format/dates.ts';
import type { Database, Queryable } from '#server/db/database.ts';
import { saveTerms } from '#server/db/fees-repo.ts';
import { InvalidRequest } from '#server/errors.ts';

/**
 * Setting a follower's fee terms, the one way the API and the admin CLI both take (docs/fees.md):
 * from a day on, today (UTC) or later, never retroactive; terms already set for that day are
 * replaced; audited in the same transaction.
 */


/** Who sets terms: a signed-in user (audited under their id) or the operator at the CLI. */
export interface FeeActor {
  userId: number | null;
  audit: (tx: Queryable, action: string, detail: object) => Promise<void>;
}

export async function setFeeTerms(
  db: Database,
  actor: FeeActor,
  account: { id: number; account_id: string; account_name: string },
  effectiveFrom: string,
  terms: FeeTerms,
  today: number,
): Promise<string> {
  if (dayOfIso(effectiveFrom) < today) {
    throw new InvalidRequest(`effective_from must be today (${isoOfDay(today)}) or later: fee terms are never retroactive.`);
  }
  await db.transaction(async (tx) => {
    await saveTerms(tx, account.id, dayOfIso(effectiveFrom), terms, actor.userId);
    await actor.audit(tx, 'fees.terms', { account_id: account.account_id, effective_from: effectiveFrom, terms });
  });
  return `Fee terms of ${account.account_name} set from ${formatDayFr(dayOfIso(effectiveFrom) * DAY_S, 'UTC')}.`;
}

/** The terms as a line: 'monthly; performance 25 % on equity, withdrawals by amount; management 2 % a year; no volume fee'. */
export function termsText(t: FeeTerms): string {
  const pct = (x: number) => `${Math.round(x * 1e6) / 1e4} %`;
  const perf = t.performance
    ? `performance ${pct(t.performance.rate)} on ${t.performance.basis}, withdrawals ${t.performance.withdrawals === 'amount' ? 'by amount' : 'in proportion'}`
    : 'no performance fee';
  const mgmt = t.management ? `management ${pct(t.management.annual_rate)} a year` : 'no management fee';
  const vol = t.volume ? `volume ${t.volume.usd_per_million} USD per million` : 'no volume fee';
  return `${t.period}; ${perf}; ${mgmt}; ${vol}`;
}
