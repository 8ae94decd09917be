import {
  BROKER_CLOCK_LEAD_S,
  CLOCK_SKEW_LIMIT_S,
  latestBrokerTime,
  type IngestAccount,
  type IngestAccountState,
  type IngestAnswer,
  type IngestBatch,
  type IngestDeal,
} from '#shared/contract/ingest.ts';
import type { Database, Queryable } from '#server/db/database.ts';
import { saveReportedState, terminalState, touchAccounts } from '#server/db/accounts-repo.ts';
import { agentAccounts, batchAnswer, lockSession, saveBatch, saveDropped, saveSession, type AgentAccount } from '#server/db/agents-repo.ts';
import { lastEventTimes, type StoredEvent } from '#server/db/broker-events-repo.ts';
import { markUnconfirmed, unconfirmedPositions, upsertReportedPositions, type ReportedPosition } from '#server/db/positions-repo.ts';
import { eventsOfPositions } from '#server/db/broker-events-repo.ts';
import { insertAlerts } from '#server/db/alerts-repo.ts';
import { closedByAbsence, closedByDeals, UNCONFIRMED_CLOSE_AFTER_S } from '#shared/domain/close-evidence.ts';
import { closeReportedPositions, saveCopyOf } from '#server/db/copy-links-repo.ts';
import { symbolMap } from '#server/db/symbol-map-repo.ts';
import { Conflict, Forbidden, InvalidRequest } from '#server/errors.ts';
import type { Ledger } from '#server/ledger/ledger.ts';
import { queryableOf } from '#server/db/write-context.ts';
import { mt5Event } from '#shared/domain/mt5-events.ts';
import { bookStatement } from '#server/import/statement-books.ts';
import { applyEvents, type EventsApplied } from '#server/books/event-books.ts';
import { categoryOf, symbolNamer } from './mt5-books.ts';

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
    throw new InvalidRequest(
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
    /** How long a position missing from a connected terminal's full snapshots waits before its absence closes it. */
    private readonly unconfirmedCloseAfterS: number = UNCONFIRMED_CLOSE_AFTER_S,
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
      if (!account) throw new Forbidden(`Forbidden: this agent key is not scoped to the account ${a.login} on ${a.server}.`);
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
        const times = await lastEventTimes(tx, targets.map((t) => t.account.id));
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
        throw new Conflict(`Sequence ${batch.seq} is not after ${last}, the last one applied in this session.`);
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
      if (batch.dropped?.length) await saveDropped(tx, agent.id, batch.dropped, at);
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
      throw new InvalidRequest(`The account ${account.account} on ${account.server} is in ${account.currency}, not ${report.state.currency}.`);
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
      await upsertReportedPositions(tx, rows, at);
      await saveCopyOf(tx, account.id, report.positions.open.flatMap((p) => (p.copy_of === undefined ? [] : [{ identifier: p.identifier, copy_of: p.copy_of }])));
      applied.positions = rows.length;
      const ids = rows.map((r) => r.identifier);
      if (report.positions.full) {
        // Left out of a full snapshot is no evidence of a close (a terminal just restarted sends one
        // before it has loaded its positions): unconfirmed, kept with their last figures.
        const { held, marked } = await markUnconfirmed(tx, account.id, ids, at);
        if (ids.length === 0 && marked > 0 && marked === held) {
          await insertAlerts(tx, [
            {
              type: 'ping',
              message:
                `${account.account_name}'s terminal reported no open position while the books hold ${held}: they are kept, unconfirmed, ` +
                `until their closing deals arrive or they stay missing ${Math.round(this.unconfirmedCloseAfterS / 60)} minutes while the terminal is connected.`,
              at: Math.floor(at.getTime() / 1000),
              accountId: account.id,
            },
          ]);
        }
      } else if (report.positions.closed.length) {
        // The terminal's own word that these closed (it saw their closing deals).
        applied.positions += await closeReportedPositions(tx, account.id, { closed: report.positions.closed }, at);
      }
    }
    applied.positions += await this.confirmCloses(tx, account.id, report.state ?? null, at);

    // A replayed statement's opening balance and equity, after its deals (docs/statements.md).
    if (report.statement) await bookStatement(tx, this.ledger, account.id, report.statement, this.now() / 1000);
    if (report.state) await saveReportedState(tx, account.id, report.state, at);
    return applied;
  }

  /**
   * Closes the account's unconfirmed positions that have the evidence of a close: their closing deals
   * since they were last reported open, or an absence of `unconfirmedCloseAfterS` from every full
   * snapshot while the terminal says it is connected and may trade (src/shared/domain/close-evidence.ts).
   * Returns how many closed.
   */
  private async confirmCloses(tx: Queryable, accountId: number, state: IngestAccountState | null, at: Date): Promise<number> {
    const missing = await unconfirmedPositions(tx, accountId);
    if (missing.length === 0) return 0;
    const events = (await eventsOfPositions(tx, accountId, missing.map((p) => p.identifier))).map((e) => e.event);
    const terminal = state ? { connected: state.connected, tradeAllowed: state.trade_allowed } : await terminalState(tx, accountId);
    const nowS = Math.floor(at.getTime() / 1000);
    const closed = missing.filter((p) => closedByDeals(p, events) || closedByAbsence(p, nowS, terminal, this.unconfirmedCloseAfterS));
    if (closed.length === 0) return 0;
    return closeReportedPositions(tx, accountId, { closed: closed.map((p) => p.identifier) }, at);
  }

  /**
   * Stores an account's deals by ticket (replacing what the broker changed, removing what it deleted),
   * as the neutral events the MetaTrader mapping makes of them, and books what that changes
   * (src/server/books/event-books.ts).
   */
  private async applyDeals(
    tx: Queryable,
    account: { id: number; currency: string },
    items: readonly IngestDeal[],
    deletedTickets: readonly number[],
    canonical: (symbol: string) => string,
    toUtc: (brokerTime: number) => number,
  ): Promise<EventsApplied> {
    const incoming: StoredEvent[] = items.map((d) => ({
      event: mt5Event(
        {
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
        },
        account.currency,
      ),
      brokerTime: d.time,
    }));
    return applyEvents(tx, this.ledger, account.id, incoming, deletedTickets, this.now() / 1000);
  }
}
