import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { dayRange, feeTotals, rangeIso } from '#shared/analytics/statement.ts';
import { DAY_S, dayOfIso, type DayRange } from '#shared/domain/days.ts';
import type { FeesQuery, SetFeeTermsBody, StatementQuery } from '#shared/contract/fees.ts';
import type { FeeEntry } from '#shared/domain/fees.ts';
import { statementFileName } from '#shared/reports/statement-report.ts';
import type { SessionUser } from '#server/auth/auth-store.ts';
import type { AccountRef } from '#server/db/accounts-repo.ts';
import { audit } from '#server/db/audit-repo.ts';
import type { Database, Queryable } from '#server/db/database.ts';
import { balanceSums, cashFlowsOf, statementDealCount, statementDealsPage } from '#server/db/deals-repo.ts';
import { feesOf, feeStateOf, markHistory, termsHistory, termsVersionsOf } from '#server/db/fees-repo.ts';
import { setFeeTerms } from '#server/fees/fee-terms.ts';
import { navRowsOf } from '#server/db/nav-repo.ts';
import { riskEventsOf } from '#server/db/guards-repo.ts';
import { badRequest, HttpError } from '#server/http/errors.ts';
import { drawStatementPdf } from '#server/fees/pdf-in-worker.ts';
import type { StatementInput } from '#server/fees/statement-build.ts';
import { makeStatement, StatementTooLargeError } from '#server/fees/statement-in-worker.ts';
import { StatementAbandonedError, statementQueue } from '#server/fees/statement-queue.ts';
import { termsOn } from '#server/ledger/fees.ts';
import type { BrokerAdapter } from '#server/broker/port.ts';
import type { Generation } from '#server/http/answer-cache.ts';
import { findAccount } from './account-lookup.ts';

/** The longest range a fee list covers, in days. */
export const MAX_RANGE_DAYS = 3_700;
/** The longest range a statement covers, in days (docs/statements.md, "Statements within a budget"). */
export const MAX_STATEMENT_DAYS = 3_700;
/** The most deals a statement's range may hold, by format: a PDF lists each on its pages (5,000: about 100 pages). */
export const MAX_STATEMENT_DEALS = { json: 50_000, csv: 50_000, pdf: 5_000 } as const;
/** Deals read in one query: on the embedded database, a page holds the event loop some 10–40 ms. */
const DEALS_PAGE = 500;

/** Lets the event loop turn (timers, sockets, other requests) before going on. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));


/** A statement's answer: its bytes and how to serve them (a file, or JSON text: no file name). */
export interface StatementFile {
  contentType: string;
  fileName: string | null;
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

  private range(q: { period?: string | undefined; from?: string | undefined; to?: string | undefined }, maxDays = MAX_RANGE_DAYS, what = 'A range'): DayRange {
    const r = dayRange(q, this.today());
    if (!r) throw badRequest('to must not come before from');
    if (r.toDay - r.fromDay + 1 > maxDays) {
      throw badRequest(`${what} covers at most ${maxDays.toLocaleString('en-US')} days (about ten years): choose a shorter range.`);
    }
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

  /**
   * The statement as JSON (its text, encoded as the response schema says), PDF or CSV
   * (docs/statements.md, "Statements within a budget"). The statement queue's turn is taken before
   * any work: past its bounds, StatementsBusyError (429). Then only the range's deals are read, a page
   * at a time, and what the opening figures need is summed by the database; the figures and the file
   * are made in worker threads. `signal`: the request went away (a statement still waiting is dropped).
   */
  async statement(user: SessionUser, q: z.output<typeof StatementQuery>, signal?: AbortSignal): Promise<StatementFile> {
    const r = this.range(q, MAX_STATEMENT_DAYS, 'A statement');
    const done = await statementQueue.take(user.id, signal);
    try {
      const input = await this.statementInput(user, q.account, r, q.format);
      if (signal?.aborted) throw new StatementAbandonedError();
      const made = await makeStatement(input, q.format);
      if (made.format === 'json') return { contentType: 'application/json; charset=utf-8', fileName: null, body: made.text };
      if (made.format === 'csv') return { contentType: 'text/csv; charset=utf-8', fileName: made.fileName, body: made.text };
      if (signal?.aborted) throw new StatementAbandonedError();
      const body = await drawStatementPdf(made.data, Math.floor(this.now() / 1000));
      return { contentType: 'application/pdf', fileName: statementFileName(made.data, 'pdf'), body };
    } catch (err) {
      if (err instanceof StatementTooLargeError) throw new HttpError(503, err.message);
      throw err;
    } finally {
      done();
    }
  }

  /** What a statement of `r` is made from: the range's deals (at most MAX_STATEMENT_DEALS of the format), sums, marks. */
  private async statementInput(user: SessionUser, account: string, r: DayRange, format: keyof typeof MAX_STATEMENT_DEALS): Promise<StatementInput> {
    const ref = await findAccount(this.db, user, account);
    const today = this.today();
    const startS = r.fromDay * DAY_S;
    const endS = (Math.min(r.toDay, today) + 1) * DAY_S;
    const count = endS > startS ? await statementDealCount(this.db, ref.id, startS, endS) : 0;
    const cap = MAX_STATEMENT_DEALS[format];
    const tooMany = (n: number) =>
      badRequest(
        `This statement would list ${n.toLocaleString('en-US')} deals; a ${format.toUpperCase()} statement lists at most ` +
          `${cap.toLocaleString('en-US')}: choose a shorter range${format === 'pdf' ? ', or ask for CSV' : ''}.`,
      );
    if (count > cap) throw tooMany(count);
    // One read after the other: a statement holds one of the pool's connections at a time. Between
    // two pages the event loop turns: the embedded database answers within the same turn (its
    // promises settle as microtasks), so back-to-back pages would hold every other request.
    const dealPages: string[] = [];
    for (let after: number | null = null, read = 0; count > 0; ) {
      await nextTurn();
      const page = await statementDealsPage(this.db, ref.id, startS, endS, after, DEALS_PAGE);
      if (page.count > 0) dealPages.push(page.json);
      read += page.count;
      // Deals booked into the range meanwhile count too.
      if (read > cap) throw tooMany(read);
      if (page.count < DEALS_PAGE || page.lastId === null) break;
      after = page.lastId;
    }
    await nextTurn();
    const nav = await navRowsOf(this.db, ref.id, r.fromDay - 1, r.toDay);
    const entries = await this.entries(ref, r);
    const versions = (await termsHistory(this.db, [ref.id])).get(ref.id);
    const risks = await riskEventsOf(this.db, ref.id, startS, (r.toDay + 1) * DAY_S);
    const marks = (await markHistory(this.db, ref.id, endS)).map((m) => ({ at: Number(m.at), markAfter: m.markAfter }));
    // The cash flows that move the marks: from the last mark before the range (from the first deal without one).
    const since = marks.filter((m) => m.at < startS).at(-1)?.at ?? null;
    const proportional = versions?.some((v) => v.terms.performance?.withdrawals === 'proportional') ?? false;
    await nextTurn();
    const cashFlows = (await cashFlowsOf(this.db, ref.id, since, endS, proportional)).map((f) => ({ at: Number(f.at), money: f.money, before: f.before }));
    const sums = await balanceSums(this.db, ref.id, startS);
    const state = await feeStateOf(this.db, ref.id);
    const live = this.market?.snapshot().accounts.get(ref.id);
    return {
      account: this.account(ref),
      range: r,
      today,
      dealPages,
      openingCents: Math.round(sums.before * 100),
      totalCents: Math.round(sums.total * 100),
      nav,
      entries,
      marks,
      cashFlows,
      versions,
      category: ref.teiko_category,
      live: live ? { balance: live.balance, equity: live.equity } : null,
      hwm: state.hwm,
      showRebates: user.permissions.includes('read_rebate'),
      risks,
    };
  }
}
