import {
  BROKER_CLOCK_LEAD_S,
  CLOCK_SKEW_LIMIT_S,
  latestBrokerTime,
  type IngestAccount,
  type IngestAnswer,
  type IngestBatch,
  type IngestDeal,
  type IngestStatement,
} from '#shared/contract/ingest.ts';
import type { Database, Queryable } from '#server/db/database.ts';
import { accountBroker, readBooks, saveReportedState, touchAccounts } from '#server/db/accounts-repo.ts';
import { agentAccounts, batchAnswer, lockSession, saveBatch, saveSession, type AgentAccount } from '#server/db/agents-repo.ts';
import {
  brokerDealsByTickets,
  brokerDealsOfPositions,
  deleteBrokerDeals,
  lastDealTimes,
  upsertBrokerDeals,
  type StoredBrokerDeal,
} from '#server/db/broker-deals-repo.ts';
import { upsertReportedPositions, type ReportedPosition } from '#server/db/positions-repo.ts';
import { closeReportedPositions, copyOfPositions, saveCopyOf } from '#server/db/copy-links-repo.ts';
import { symbolMap } from '#server/db/symbol-map-repo.ts';
import { badRequest, forbidden, HttpError } from '#server/http/errors.ts';
import type { Ledger } from '#server/ledger/ledger.ts';
import { entryOf } from '#server/ledger/rules.ts';
import type { BookEvent, ClosedTrade } from '#shared/domain/book-events.ts';
import { dealsByTickets } from '#server/db/deals-repo.ts';
import { queryableOf, writeContextOf } from '#server/db/write-context.ts';
import type { Deal } from '#shared/domain/deal.ts';
import { cents, roundTo } from '#shared/analytics/stats.ts';
import { bookStatement, type StatementBooked } from '#server/import/statement-books.ts';
import { balanceOperations, categoryOf, roundTrips, symbolNamer, type BrokerDeal } from './mt5-books.ts';

export interface Agent {
  id: number;
  name: string;
}

const key = (login: string, server: string) => `${login}@${server}`;

/**
 * Refuses a broker time later than the server's clock allows (latestBrokerTime): a deal or a
 * position dated in the future is a fault of the terminal, and would spoil every read of the account.
 */
function refuseFutureTimes(batch: IngestBatch, nowMs: number): void {
  const latest = latestBrokerTime(nowMs);
  const check = (time: number, path: string) => {
    if (time <= latest) return;
    throw badRequest(
      `${path}: ${time} (${new Date(time * 1000).toISOString()} on the broker's clock) is later than the server's clock allows: ` +
        `times are the broker's clock in seconds since 1970, at most ${BROKER_CLOCK_LEAD_S / 3600} hours ahead of UTC.`,
    );
  };
  batch.accounts.forEach((a, i) => {
    a.deals?.items.forEach((d, j) => check(d.time, `accounts.${i}.deals.items.${j}.time`));
    a.positions?.open.forEach((p, j) => check(p.time, `accounts.${i}.positions.open.${j}.time`));
  });
}

/** A quote as the server keeps it: under the product's canonical symbol. */
export interface CanonicalQuote {
  symbol: string;
  bid: number;
  ask: number;
}

/**
 * The one way a broker's symbol name (EURUSD.m) becomes the product's (EURUSD), for positions,
 * deals and quotes alike: the broker's symbol map (`npm run admin -- symbol map`) where it names the
 * symbol, else the instrument classifier's canonical name (docs/instruments.md).
 */
async function canonical(q: Queryable, brokerId: number): Promise<(symbol: string) => string> {
  return symbolNamer(await symbolMap(q, brokerId));
}

const price = (x: number | null) => (x === null ? null : roundTo(x, 6));
/** What a deal row is judged by, as stored (prices to 6 places, money to the cent): a change in any rebooks it. */
const fingerprint = (d: Deal) =>
  JSON.stringify([
    d.kind, roundTo(d.quantity, 4), cents(d.amount), cents(d.net), d.at, d.openedAt, price(d.openPrice), price(d.closePrice), d.symbol, d.type,
    d.dealType ?? null,
  ]);

/**
 * Applies agents' batches (Ingest API v1) to the books, one transaction per batch: the session's
 * sequence, the account states, positions by identifier, deals by ticket (through the ledger: a deal
 * the broker edits or deletes is taken back and booked again), quotes. A batch replayed (same
 * batch_id) is answered as the first time and changes nothing.
 */
export class Ingest {
  constructor(
    private readonly db: Database,
    private readonly ledger: Ledger,
    private readonly now: () => number = Date.now,
  ) {}

  /** A batch's quotes under canonical symbols (the accounts' brokers' symbol maps): what values the accounts in EUR. */
  async quotes(agent: Agent, batch: IngestBatch): Promise<CanonicalQuote[]> {
    const mine = new Map((await agentAccounts(this.db, agent.id)).map((a) => [key(a.account, a.server), a]));
    const out: CanonicalQuote[] = [];
    for (const report of batch.accounts) {
      const account = mine.get(key(report.login, report.server));
      if (!account || !report.quotes?.length) continue;
      const name = await canonical(this.db, account.broker_id);
      for (const q of report.quotes) out.push({ symbol: name(q.symbol), bid: q.bid, ask: q.ask });
    }
    return out;
  }

  async apply(agent: Agent, batch: IngestBatch): Promise<IngestAnswer> {
    const replayed = await batchAnswer<IngestAnswer>(this.db, agent.id, batch.batch_id);
    if (replayed) return replayed;
    const nowMs = this.now();
    refuseFutureTimes(batch, nowMs);
    const mine = new Map((await agentAccounts(this.db, agent.id)).map((a) => [key(a.account, a.server), a]));
    const targets = batch.accounts.map((a) => {
      const account = mine.get(key(a.login, a.server));
      // An account the key is not scoped to is answered like an unknown one.
      if (!account) throw forbidden(`Forbidden: this agent key is not scoped to the account ${a.login} on ${a.server}.`);
      return { report: a, account };
    });
    const skew = Math.round((nowMs - batch.sent_at) / 100) / 10;
    return this.ledger.write(async (ctx) => {
      const tx = queryableOf(ctx);
      // Batches of one agent are applied one at a time, in order.
      const session = await lockSession(tx, agent.id);
      const again = await batchAnswer<IngestAnswer>(tx, agent.id, batch.batch_id);
      if (again) return again;
      const newSession = session?.session !== batch.session;
      const last = newSession ? 0 : session.last_seq;
      const answer = async (applied: IngestAnswer['applied'], ack: number, resync: boolean): Promise<IngestAnswer> => {
        const times = await lastDealTimes(tx, targets.map((t) => t.account.id));
        return {
          ack,
          resync,
          history_from: Object.fromEntries(targets.map((t) => [key(t.account.account, t.account.server), times.get(t.account.id) ?? null])),
          clock_skew_s: skew,
          clock_skew_flagged: Math.abs(skew) > CLOCK_SKEW_LIMIT_S,
          applied,
        };
      };
      if (batch.seq <= last) {
        throw new HttpError(409, `Sequence ${batch.seq} is not after ${last}, the last one applied in this session.`);
      }
      if (batch.seq !== last + 1) {
        // A gap: something was lost. Nothing is applied; the agent starts a new session with a full snapshot.
        return answer({ positions: 0, deals: 0, deleted: 0 }, last, true);
      }
      const applied = { positions: 0, deals: 0, deleted: 0 };
      const at = new Date(nowMs);
      for (const { report, account } of targets) {
        const step = await this.applyAccount(tx, account, report, batch.utc_offset_minutes, at);
        applied.positions += step.positions;
        applied.deals += step.deals;
        applied.deleted += step.deleted;
      }
      await touchAccounts(tx, targets.map((t) => t.account.id), at);
      await saveSession(tx, agent.id, {
        session: batch.session,
        last_seq: batch.seq,
        utc_offset_minutes: batch.utc_offset_minutes,
        clock_skew_s: skew,
        seen_at: at,
      });
      const result = await answer(applied, batch.seq, false);
      await saveBatch(tx, agent.id, batch.batch_id, result);
      return result;
    });
  }

  private async applyAccount(
    tx: Queryable,
    account: AgentAccount,
    report: IngestAccount,
    utcOffsetMinutes: number,
    at: Date,
  ): Promise<IngestAnswer['applied']> {
    const name = await canonical(tx, account.broker_id);
    const toUtc = (brokerTime: number) => brokerTime - utcOffsetMinutes * 60;
    const applied = { positions: 0, deals: 0, deleted: 0 };

    if (report.state && report.state.currency !== account.currency) {
      throw badRequest(`The account ${account.account} on ${account.server} is in ${account.currency}, not ${report.state.currency}.`);
    }

    if (report.deals) {
      const step = await this.applyDeals(tx, account, report.deals.items, report.deals.deleted, name, toUtc);
      applied.deleted = step.deleted;
      applied.deals = step.booked;
    }

    if (report.positions) {
      const rows: ReportedPosition[] = report.positions.open.map((p) => {
        const symbol = name(p.symbol);
        return {
          account_id: account.id,
          identifier: p.identifier,
          // A copy names its master by the master's terminal identifier (copy_of, stored below); the
          // agent broker links it to the master's row through the follower's relations.
          master_position_id: null,
          symbol,
          type: p.type === 'buy' ? 'Buy' : 'Sell',
          category: categoryOf(symbol),
          quantity: p.volume,
          price_open: p.price_open,
          price_current: p.price_current,
          price_low: Math.min(p.price_open, p.price_current),
          price_high: Math.max(p.price_open, p.price_current),
          sl: p.sl === 0 ? null : p.sl,
          tp: p.tp === 0 ? null : p.tp,
          profit: p.profit,
          swap: p.swap,
          commission: p.commission ?? 0,
          fee: 0,
          opened_at: toUtc(p.time),
        };
      });
      await upsertReportedPositions(tx, rows);
      await saveCopyOf(tx, account.id, report.positions.open.flatMap((p) => (p.copy_of === undefined ? [] : [{ identifier: p.identifier, copy_of: p.copy_of }])));
      applied.positions = rows.length;
      const ids = rows.map((r) => r.identifier);
      if (report.positions.full) applied.positions += await closeReportedPositions(tx, account.id, { keep: ids }, at);
      else if (report.positions.closed.length) {
        applied.positions += await closeReportedPositions(tx, account.id, { closed: report.positions.closed }, at);
      }
    }

    // A replayed statement's opening balance and equity, after its deals (docs/statements.md).
    if (report.statement) await bookStatement(tx, this.ledger, account.id, report.statement, this.now() / 1000);
    if (report.state) await saveReportedState(tx, account.id, report.state, at);
    return applied;
  }

  /**
   * Stores an account's deals by ticket (replacing what the broker changed, removing what it deleted)
   * and books what that changes. Counts the deals added, updated, unchanged and deleted, and the
   * ledger rows booked.
   */
  private async applyDeals(
    tx: Queryable,
    account: { id: number },
    items: readonly IngestDeal[],
    deletedTickets: readonly number[],
    canonical: (symbol: string) => string,
    toUtc: (brokerTime: number) => number,
  ): Promise<{ added: number; updated: number; unchanged: number; deleted: number; booked: number }> {
    const incoming: StoredBrokerDeal[] = items.map((d) => ({
      ticket: d.ticket,
      position_id: d.position_id,
      type: d.type,
      entry: d.entry,
      symbol: d.symbol ? canonical(d.symbol) : '',
      volume: d.volume,
      price: d.price,
      commission: d.commission,
      fee: d.fee,
      swap: d.swap,
      profit: d.profit,
      time: toUtc(d.time),
      broker_time: d.time,
    }));
    const tickets = [...incoming.map((d) => d.ticket), ...deletedTickets];
    const before = await brokerDealsByTickets(tx, account.id, tickets);
    const stored = new Map(before.map((d) => [d.ticket, d]));
    const same = (a: StoredBrokerDeal, b: StoredBrokerDeal) =>
      a.position_id === b.position_id && a.type === b.type && a.entry === b.entry && a.symbol === b.symbol && a.time === b.time &&
      a.volume === b.volume && a.price === b.price && a.commission === b.commission && a.fee === b.fee && a.swap === b.swap && a.profit === b.profit;
    const added = incoming.filter((d) => !stored.has(d.ticket)).length;
    const unchanged = incoming.filter((d) => stored.has(d.ticket) && same(stored.get(d.ticket)!, d)).length;
    const positions = new Set([...before, ...incoming].filter((d) => d.type <= 1).map((d) => d.position_id));
    const previous = await brokerDealsOfPositions(tx, account.id, [...positions]);
    const deleted = new Set(deletedTickets);
    await deleteBrokerDeals(tx, account.id, [...deleted]);
    await upsertBrokerDeals(tx, account.id, incoming);
    const current = await brokerDealsOfPositions(tx, account.id, [...positions]);
    const booked = await this.rebook(tx, account.id, {
      before: [...roundTrips(account.id, previous), ...balanceOperations(account.id, before)],
      after: [...(await linkedTrips(tx, account.id, current)), ...balanceOperations(account.id, incoming)],
    });
    return { added, updated: incoming.length - added - unchanged, unchanged, deleted: before.filter((d) => deleted.has(d.ticket)).length, booked };
  }

  /**
   * A statement file's deals into an account (the investor's MT5 or MT4 report), one transaction;
   * times in the report are the broker's clock, `utcOffsetMinutes` ahead of UTC. With the statement's
   * own figures, its opening balance and the account's equity are booked in the same transaction
   * (docs/statements.md). Importing an overlapping report again changes nothing.
   */
  async importDeals(
    accountId: number,
    deals: readonly IngestDeal[],
    utcOffsetMinutes: number,
    statement?: IngestStatement,
  ): Promise<{ added: number; updated: number; unchanged: number; booked: StatementBooked | null }> {
    const seen = new Set<number>();
    const latest = latestBrokerTime(this.now());
    for (const deal of deals) {
      // Two rows under one ticket would be stored over each other in one statement: refused, never a 500.
      if (seen.has(deal.ticket)) throw badRequest(`The report lists deal ${deal.ticket} twice.`);
      seen.add(deal.ticket);
      // As from a terminal: a deal dated in the future is a fault of the file, and would spoil every read of the account.
      if (deal.time > latest) {
        throw badRequest(
          `The report dates deal ${deal.ticket} ${new Date(deal.time * 1000).toISOString().slice(0, 19).replace('T', ' ')} on the broker's clock, ` +
            `later than the server's clock allows: it cannot be imported.`,
        );
      }
    }
    return this.ledger.write(async (ctx) => {
      const tx = queryableOf(ctx);
      const account = await accountBroker(tx, accountId);
      if (!account) throw badRequest(`No account ${accountId}.`);
      // The simulated market keeps its accounts' books: real deals would make them disagree.
      if (account.source !== 'agent') {
        throw badRequest(`The account ${account.account} is fed by the simulated market: statements import into real accounts only.`);
      }
      // Its books are locked before its deals are read (the lock an agent's batch takes to book them):
      // a batch of the account's terminal is booked wholly before the import or after it.
      await readBooks(tx, [account.id]);
      const step = await this.applyDeals(tx, account, deals, [], await canonical(tx, account.broker_id), (t) => t - utcOffsetMinutes * 60);
      const booked = statement ? await bookStatement(tx, this.ledger, account.id, statement, this.now() / 1000) : null;
      return { added: step.added, updated: step.updated, unchanged: step.unchanged, booked };
    });
  }

  /**
   * Books what changed between the round trips and balance operations (cash flows, rebates credited,
   * results of the account) that the deals made before and make now: a row that is new is recorded, one that changed is taken back and recorded
   * again, one that is gone is taken back. Returns the rows booked.
   */
  private async rebook(tx: Queryable, accountId: number, change: { before: BookEvent[]; after: BookEvent[] }): Promise<number> {
    const after = new Map(change.after.map((e) => [e.ticket!, e]));
    const tickets = [...new Set([...change.before.map((e) => e.ticket!), ...after.keys()])];
    const stored = new Map((await dealsByTickets(tx, accountId, tickets)).map((d) => [d.ticket!, d]));
    const takeBack: number[] = [];
    const record: BookEvent[] = [];
    for (const ticket of tickets) {
      const next = after.get(ticket);
      const row = stored.get(ticket);
      if (next && row && fingerprint(entryOf(next)) === fingerprint(row)) continue;
      if (row) takeBack.push(ticket);
      if (next) record.push(next);
    }
    const ctx = writeContextOf(tx);
    if (takeBack.length) await this.ledger.unrecord(ctx, accountId, takeBack);
    if (record.length) await this.ledger.record(ctx, record);
    // The earliest day the change touched: the derived NAV from there is made again.
    const changedFrom = [...takeBack.map((t) => stored.get(t)!.at), ...record.map((e) => entryOf(e).at)].reduce((a, b) => Math.min(a, b), Infinity);
    if (Number.isFinite(changedFrom)) await this.ledger.deriveNav(ctx, accountId, changedFrom, this.now() / 1000);
    return record.length;
  }
}

/**
 * The round trips of an account's deals, each with its position (the terminal's identifier) and the
 * master position it copies (the `copy_of` its position was reported with): the copy report links a
 * copy to its master's trade by them.
 */
async function linkedTrips(tx: Queryable, accountId: number, deals: readonly BrokerDeal[]): Promise<ClosedTrade[]> {
  const positionOf = new Map(deals.map((d) => [d.ticket, d.position_id]));
  const trips = roundTrips(accountId, deals);
  const copyOf = await copyOfPositions(tx, accountId, [...new Set(deals.map((d) => d.position_id))]);
  return trips.map((t) => {
    const positionId = t.ticket === undefined ? undefined : positionOf.get(t.ticket);
    return positionId === undefined ? t : { ...t, positionId, copyOf: copyOf.get(positionId) ?? null };
  });
}
