import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { dayOfIso, dayRange, dealMoney, feeTotals, rangeIso, statementFigures, type DayRange } from '#shared/analytics/statement.ts';
import type { FeesQuery, SetFeeTermsBody, StatementData, StatementQuery } from '#shared/contract/fees.ts';
import type { FeeEntry } from '#shared/domain/fees.ts';
import { statementCsv, statementFileName } from '#shared/reports/statement-report.ts';
import type { SessionUser } from '#server/auth/auth-store.ts';
import type { AccountRef } from '#server/db/accounts-repo.ts';
import { audit } from '#server/db/audit-repo.ts';
import type { Database, Queryable } from '#server/db/database.ts';
import { statementDeals } from '#server/db/deals-repo.ts';
import { feesOf, feeStateOf, markHistory, termsHistory, termsVersionsOf } from '#server/db/fees-repo.ts';
import { setFeeTerms } from '#server/fees/fee-terms.ts';
import { navRowsOf } from '#server/db/nav-repo.ts';
import { badRequest, HttpError } from '#server/http/errors.ts';
import { drawStatementPdf, DrawerBusyError } from '#server/fees/pdf-in-worker.ts';
import { DAY_S } from '#server/ledger/calendar.ts';
import { markAt, termsOn } from '#server/ledger/fees.ts';
import type { BrokerAdapter } from '#server/broker/port.ts';
import type { Generation } from '#server/http/answer-cache.ts';
import { findAccount } from './account-lookup.ts';

/** The longest range a fee list or a statement covers. */
export const MAX_RANGE_DAYS = 3_700;


/** A statement's file: its bytes and how to serve them. */
export interface StatementFile {
  contentType: string;
  fileName: string;
  body: Buffer | string;
}

/**
 * Fees (docs/fees.md): a follower's fee terms (write users set them, audited, from today on), the
 * entries the ledger booked with their arithmetic, and the investor statement of a period, for any
 * user who may see the account.
 */
export class FeesService {
  constructor(
    private readonly db: Database,
    private readonly market: BrokerAdapter | null,
    private readonly changes: Generation & { bump(): void },
    private readonly now: () => number = Date.now,
  ) {}

  private today(): number {
    return Math.floor(this.now() / 1000 / DAY_S);
  }

  private account(ref: AccountRef) {
    return {
      account_id: ref.account_id,
      account_name: ref.account_name,
      broker_name: ref.broker_name,
      login: ref.account,
      currency: ref.currency,
      category: ref.teiko_category,
    };
  }

  /** The terms in force today, every version set, and the mark and accrual now. */
  async terms(user: SessionUser, accountRef: string) {
    const ref = await findAccount(this.db, user, accountRef);
    const versions = await termsVersionsOf(this.db, ref.id);
    const history = (await termsHistory(this.db, [ref.id])).get(ref.id);
    const today = this.today();
    const inForce = [...versions].reverse().find((v) => dayOfIso(v.effective_from) <= today) ?? null;
    const state = await feeStateOf(this.db, ref.id);
    return {
      data: {
        account: this.account(ref),
        current: { terms: termsOn(history, today, ref.teiko_category), effective_from: inForce?.effective_from ?? null, default: inForce === null },
        versions: versions.map((v) => ({ ...v, set_at: Number(v.set_at) })),
        mark: state.hwm,
        accrued: state.accrued,
      },
    };
  }

  /** Sets an account's terms from a day on (today or later: never retroactive), audited. */
  async setTerms(user: SessionUser, body: z.output<typeof SetFeeTermsBody>, log: FastifyBaseLogger) {
    const ref = await findAccount(this.db, user, body.account);
    const actor = { userId: user.id, audit: (tx: Queryable, action: string, detail: object) => audit(tx, user.id, action, detail) };
    const message = await setFeeTerms(this.db, actor, ref, body.effective_from, body.terms, this.today());
    this.changes.bump();
    log.info({ account: ref.account_id, effective_from: body.effective_from }, 'fee terms set');
    return { message };
  }

  private range(q: { period?: string | undefined; from?: string | undefined; to?: string | undefined }): DayRange {
    const r = dayRange(q, this.today());
    if (!r) throw badRequest('to must not come before from');
    if (r.toDay - r.fromDay > MAX_RANGE_DAYS) throw badRequest(`A range covers at most ${MAX_RANGE_DAYS} days`);
    return r;
  }

  private async entries(ref: AccountRef, r: DayRange): Promise<FeeEntry[]> {
    return feesOf(this.db, ref.id, r.fromDay * DAY_S, (r.toDay + 1) * DAY_S);
  }

  /** Every fee entry of the range (at within its days), with its arithmetic, and the totals per kind. */
  async fees(user: SessionUser, q: z.output<typeof FeesQuery>) {
    const ref = await findAccount(this.db, user, q.account);
    const r = this.range(q);
    const entries = await this.entries(ref, r);
    return {
      data: {
        account: this.account(ref),
        ...rangeIso(r),
        entries: entries.map((e) => ({
          kind: e.kind,
          entry: e.entry,
          period: e.period,
          at: e.at,
          basis: e.basis,
          mark_before: e.markBefore,
          mark_after: e.markAfter,
          rate: e.rate,
          amount: e.amount,
          currency: e.currency,
          note: e.note,
        })),
        totals: feeTotals(entries),
      },
    };
  }

  /** The statement's figures (the JSON answer; the PDF and the CSV show the same). */
  async statementData(user: SessionUser, q: { account: string; period?: string | undefined; from?: string | undefined; to?: string | undefined }): Promise<StatementData> {
    const ref = await findAccount(this.db, user, q.account);
    const r = this.range(q);
    const today = this.today();
    const [deals, nav, entries, history] = await Promise.all([
      statementDeals(this.db, ref.id),
      navRowsOf(this.db, ref.id, r.fromDay - 1, r.toDay),
      this.entries(ref, r),
      termsHistory(this.db, [ref.id]),
    ]);
    const endS = (Math.min(r.toDay, today) + 1) * DAY_S;
    const marks = await markHistory(this.db, ref.id, endS);
    const moves = deals.map((d) => ({ at: Number(d.at), money: dealMoney(d), cashFlow: d.kind === 'deposit' || d.kind === 'withdrawal' }));
    const live = this.market?.snapshot().accounts.get(ref.id);
    const state = await feeStateOf(this.db, ref.id);
    const balanceNow = moves.reduce((s, m) => s + Math.round(m.money * 100), 0) / 100;
    const figures = statementFigures({
      range: r,
      today,
      deals: deals.map((d) => ({ ...d, at: Number(d.at), openedAt: d.openedAt === null ? null : Number(d.openedAt) })),
      nav,
      live: { balance: live?.balance ?? balanceNow, equity: live?.equity ?? balanceNow },
      showRebates: user.permissions.includes('read_rebate'),
    });
    const versions = history.get(ref.id);
    return {
      account: this.account(ref),
      ...rangeIso(r),
      ...figures,
      mark_start: markAt(r.fromDay * DAY_S, marks.map((m) => ({ at: Number(m.at), markAfter: m.markAfter })), moves, versions, ref.teiko_category),
      mark_end: r.toDay >= today ? state.hwm : markAt(endS, marks.map((m) => ({ at: Number(m.at), markAfter: m.markAfter })), moves, versions, ref.teiko_category),
      fees: feeTotals(entries),
    };
  }

  /** The statement as JSON, PDF or CSV. */
  async statement(user: SessionUser, q: z.output<typeof StatementQuery>): Promise<{ data: StatementData } | StatementFile> {
    const data = await this.statementData(user, q);
    if (q.format === 'json') return { data };
    if (q.format === 'csv') return { contentType: 'text/csv; charset=utf-8', fileName: statementFileName(data, 'csv'), body: statementCsv(data) };
    try {
      const body = await drawStatementPdf(data, Math.floor(this.now() / 1000));
      return { contentType: 'application/pdf', fileName: statementFileName(data, 'pdf'), body };
    } catch (err) {
      if (err instanceof DrawerBusyError) throw new HttpError(429, err.message);
      throw err;
    }
  }
}
