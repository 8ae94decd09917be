import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { IngestAccount, IngestAccountState, IngestDeal, IngestPosition } from '#shared/contract/ingest.ts';
import { hashToken, newToken } from '#server/auth/tokens.ts';
import { grantAccount, insertAgent } from '#server/db/agents-repo.ts';
import { http, type TestServer } from './server.ts';

/** A command as an agent is handed it (docs/ingest-api.md 'Commands'). */
export interface AgentCommand {
  id: string;
  login: string;
  server: string;
  kind: 'open' | 'close' | 'modify';
  payload: {
    symbol?: string;
    type?: string;
    volume?: number;
    identifier?: number;
    master_position_id?: number;
    master_login?: string;
    master_server?: string;
  };
}

/**
 * One fake MetaTrader terminal with its own agent key, for one account, written from the Ingest API
 * documentation alone: it reports its state, its open positions (every one, full: true), its deals
 * and its quotes, and takes its commands by long poll.
 */
export class Terminal {
  private session = randomUUID();
  private seq = 0;
  readonly key = newToken();
  open: IngestPosition[] = [];
  state: IngestAccountState | undefined;
  quotes: { symbol: string; bid: number; ask: number }[] = [];
  /** How far this terminal's clock runs ahead of the real one (its batches' sent_at). */
  clockOffsetMs = 0;

  constructor(
    private readonly server: () => TestServer,
    readonly login: string,
    readonly tradeServer: string,
  ) {}

  /** Gives this terminal's agent its key, with trade rights on its account (as `npm run admin -- agent create` does). */
  async register(accountId: number): Promise<void> {
    const db = this.server().app.db;
    await grantAccount(db, await insertAgent(db, `agent-${this.login}`, hashToken(this.key)), accountId, 'trade');
  }

  /** One batch: the state, every open position, these deals and the quotes. */
  async report(deals: IngestDeal[] = [], extra: Partial<IngestAccount> = {}): Promise<void> {
    const res = await http<{ ack: number }>(this.server(), 'POST', '/api/ingest/v1/batches', {
      headers: { 'x-agent-key': this.key },
      body: {
        session: this.session,
        seq: ++this.seq,
        batch_id: randomUUID(),
        utc_offset_minutes: 0,
        sent_at: Date.now() + this.clockOffsetMs,
        accounts: [
          {
            login: this.login,
            server: this.tradeServer,
            ...(this.state ? { state: this.state } : {}),
            positions: { full: true, open: this.open, closed: [] },
            ...(deals.length ? { deals: { items: deals, deleted: [] } } : {}),
            ...(this.quotes.length ? { quotes: this.quotes } : {}),
            ...extra,
          },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  /** A restart of the agent: a new session, which starts again at seq 1. */
  restart(): void {
    this.session = randomUUID();
    this.seq = 0;
  }

  async poll(wait = 5): Promise<AgentCommand[]> {
    const res = await http<{ commands: AgentCommand[] }>(this.server(), 'GET', `/api/ingest/v1/commands?wait=${wait}`, { headers: { 'x-agent-key': this.key } });
    expect(res.status).toBe(200);
    return res.body.commands;
  }

  /**
   * Polls until `count` commands of `kind` have arrived (or `waitS` has passed): a long poll answers
   * as soon as one command is queued, and the engine may queue the next a moment later.
   */
  async collect(count: number, kind: AgentCommand['kind'] = 'open', waitS = 5): Promise<AgentCommand[]> {
    const got: AgentCommand[] = [];
    const deadline = Date.now() + waitS * 1000;
    while (got.filter((c) => c.kind === kind).length < count && Date.now() < deadline) got.push(...(await this.poll(1)));
    return got;
  }

  /** Answers a command; `identifier`: the position an open command opened. */
  async answer(id: string, state = 'done', identifier?: number, message?: string): Promise<void> {
    const body = { state, ...(identifier === undefined ? {} : { identifier }), ...(message === undefined ? {} : { message }) };
    const res = await http(this.server(), 'POST', `/api/ingest/v1/commands/${id}`, { headers: { 'x-agent-key': this.key }, body });
    expect(res.status).toBe(200);
  }
}

/** An open position as MT5 reports it; `copy_of` for a copy (the master position's identifier). */
export function position(identifier: number, symbol: string, type: 'buy' | 'sell', volume: number, price: number, time: number, copyOf?: number): IngestPosition {
  return {
    identifier, symbol, type, volume, price_open: price, price_current: price, sl: 0, tp: 0, profit: 0, swap: 0, time,
    ...(copyOf === undefined ? {} : { copy_of: copyOf }),
  };
}

let nextTicket = 1;
/** A deal as MT5 reports it: `in` opens the position `position_id`, `out` closes it. */
export function deal(position_id: number, entry: 'in' | 'out', type: 'buy' | 'sell', symbol: string, volume: number, price: number, time: number, profit = 0): IngestDeal {
  return { ticket: nextTicket++, position_id, type: type === 'buy' ? 0 : 1, entry, symbol, volume, price, time, commission: 0, fee: 0, swap: 0, profit };
}
