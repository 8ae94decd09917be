import { randomUUID } from 'node:crypto';
import { instrumentSpec } from '#shared/domain/instruments.ts';
import { eurRates } from '#shared/domain/fx.ts';
import type { Database } from '#server/db/database.ts';
import { liveAccounts } from '#server/db/accounts-repo.ts';
import { writeContextOf } from '#server/db/write-context.ts';
import {
  closingIdentifiers,
  commandsByIds,
  expirePending,
  FINAL_STATES,
  insertCommands,
  tradingAgentOf,
  type CommandKind,
  type CommandRow,
  type NewCommand,
} from '#server/db/commands-repo.ts';
import { identifiersOf, listPositions } from '#server/db/positions-repo.ts';
import { masterPositionRef, pruneClosedPositions, resolveCopies } from '#server/db/copy-links-repo.ts';
import { MarketPaused, NoTerminal, OrderRefused, OutcomeUnknown } from '#server/broker/errors.ts';
import type {
  BrokerAdapter,
  InstrumentInfo,
  InTransaction,
  LiveAccount,
  LivePosition,
  MarketSnapshot,
  OpenOrder,
  TradeEvent,
} from '#server/broker/port.ts';
import { figuresOf } from '#server/books/day-ends.ts';
import { dayOf } from '#shared/domain/days.ts';
import type { Ledger } from '#server/ledger/ledger.ts';
import { AGENT_SILENCE_ALERT_S } from '#server/ledger/rules.ts';
import { Listeners, tradeEventsBetween } from '#server/broker/listeners.ts';
import { LocalBus, type Bus } from '#server/scale/bus.ts';
import { channels } from '#server/scale/channels.ts';
import { tellFailedCopies } from './failed-copies.ts';

export interface AgentBrokerOptions {
  /** How often the accounts are watched (silence, margin level) and a day end looked for. */
  watchMs?: number;
  now: () => number;
  /** How long an order waits for the terminal's answer before the user is told the outcome is unknown. */
  answerTimeoutMs: number;
  /** A command not handed to its agent within this time is never sent (expired). */
  commandTtlMs: number;
  onError?: (err: unknown) => void;
  /** Reports, queued commands and answers reach the instance that needs them over it (one process: in memory). */
  bus?: Bus;
}


const REPORTED = channels.agentsReported;
const QUEUED = channels.commandsQueued;
const ANSWERED = channels.commandsAnswered;
/** Reported positions closed are remembered this long (longer while an open copy names one). */
const CLOSED_POSITIONS_KEPT_MS = 30 * 86_400_000;

type Quote = { symbol: string; bid: number; ask: number };

/** What the rest of the server knows of a symbol a terminal reports. */
export function instrumentOf(symbol: string): InstrumentInfo {
  const { category, quote, contract, pip, digits } = instrumentSpec(symbol);
  return { symbol, category, quote, contract, pip, digits, exchange: null };
}

/** What the ingest API's routes tell the agent adapter, and wait for from it. */
export interface AgentChannel {
  /** An agent reported (through this instance), with its quotes. */
  reported(quotes: readonly Quote[]): Promise<void>;
  /** A command was answered (through this instance). */
  answered(id: string): Promise<void>;
  /** Resolves when commands are queued for this agent, or after `ms`. */
  commandsQueued(agentId: number, ms: number): Promise<void>;
}

/**
 * The broker adapter of real accounts: its snapshot is what terminal agents last reported (through
 * the ingest API), and its orders are commands to those agents, answered by the terminals. A TP/SL
 * edit or a close resolves when the terminals confirm it; a refusal carries the terminal's message;
 * no answer in time tells the user the outcome is unknown (the command is not sent again).
 */
export class AgentBroker implements BrokerAdapter, AgentChannel {
  private current: MarketSnapshot = { at: 0, seq: 0, instruments: new Map(), rates: new Map(), mids: new Map(), accounts: new Map(), positions: [] };
  private readonly listeners = new Listeners<MarketSnapshot>();
  private readonly tradeListeners = new Listeners<TradeEvent>();
  private readonly mids = new Map<string, number>();
  private readonly waiters = new Map<string, () => void>();
  /** Long polls waiting for commands, by agent. */
  private readonly polls = new Map<number, Set<() => void>>();
  private timer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> = Promise.resolve();
  private events: Promise<void> = Promise.resolve();
  private seq = 0;
  private reports = 0;
  /** Started and not paused: this process runs the market (it leads). */
  private running = false;
  /** Paused (the lock lost) and not yet resumed: writes are refused. */
  private paused = false;
  private readonly bus: Bus;

  private day: number;

  constructor(
    private readonly db: Database,
    private readonly ledger: Ledger,
    private readonly options: AgentBrokerOptions,
  ) {
    this.day = dayOf(options.now() / 1000);
    this.bus = options.bus ?? new LocalBus();
    // Whichever instance an agent posts to, the one that runs the market reads the books again.
    this.bus.subscribe(REPORTED, async (quotes) => {
      if (!this.running) return;
      this.quote(quotes);
      await this.refresh();
    });
    // Whichever instance an agent polls, its long poll wakes when a command is queued for it.
    this.bus.subscribe(QUEUED, (agentIds) => {
      for (const agentId of agentIds) for (const wake of [...(this.polls.get(agentId) ?? [])]) wake();
    });
    // Whichever instance took the answer, the order waiting for it stops waiting.
    this.bus.subscribe(ANSWERED, (id) => this.waiters.get(id)?.());
  }

  async start(): Promise<void> {
    // What is open now was open before this process ran: no trade events for it (nothing copied again).
    this.refreshing = this.load(true);
    await this.refreshing;
    this.running = true;
    this.watch();
  }

  private watch(): void {
    this.timer ??= setInterval(() => {
      this.housekeeping().catch((err: unknown) => this.options.onError?.(err));
    }, this.options.watchMs ?? 5_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.pause();
  }

  /**
   * Commands never handed out in time expire; the real accounts are watched like the simulated
   * ones ('no update' after 10 minutes, margin level); once a day, closed positions no open copy
   * names are forgotten. (Their day ends are the core's: src/server/books/day-ends.ts.)
   */
  private async housekeeping(): Promise<void> {
    for (const id of await expirePending(this.db, new Date())) this.waiters.get(id)?.();
    await tellFailedCopies(this.db, this.options.commandTtlMs);
    const nowS = this.options.now() / 1000;
    const figures = figuresOf(this.current.accounts.values());
    await this.ledger.watch(figures, nowS, AGENT_SILENCE_ALERT_S);
    const today = dayOf(nowS);
    if (today === this.day) return;
    await pruneClosedPositions(this.db, new Date(this.options.now() - CLOSED_POSITIONS_KEPT_MS));
    this.day = today;
  }

  /** Another instance runs the market now: no housekeeping, no refresh on reports here. */
  pause(): void {
    this.running = false;
    this.paused = true;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  async resume(): Promise<void> {
    // Whoever led meanwhile copied what opened meanwhile.
    const next = this.refreshing.then(() => this.load(true));
    this.refreshing = next.catch((err: unknown) => this.options.onError?.(err));
    await next;
    this.running = true;
    this.paused = false;
    this.watch();
  }

  /** Reports applied since start (for /metrics, beside the simulated market's ticks). */
  get ticks(): number {
    return this.reports;
  }

  snapshot(): MarketSnapshot {
    return this.current;
  }

  onUpdate(listener: (s: MarketSnapshot) => void): () => void {
    return this.listeners.add(listener);
  }

  onTrade(listener: (e: TradeEvent) => Promise<void>): () => void {
    return this.tradeListeners.add(listener);
  }

  /** Quotes an agent reported (bid/ask): their mids value the accounts in EUR. */
  quote(quotes: readonly Quote[]): void {
    for (const q of quotes) this.mids.set(q.symbol, (q.bid + q.ask) / 2);
  }

  /** Resolves when commands are queued for this agent in this process, or after `ms` (a long poll's wait). */
  commandsQueued(agentId: number, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const set = this.polls.get(agentId) ?? new Set<() => void>();
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      set.add(done);
      this.polls.set(agentId, set);
    });
  }

  /** A command was answered (through this instance's ingest route): its order stops waiting, wherever it waits. */
  answered(id: string): Promise<void> {
    return this.bus.publish(ANSWERED, id);
  }

  /** An agent reported (through this instance): the instance that runs the market reads the books again with these quotes. */
  reported(quotes: readonly Quote[]): Promise<void> {
    return this.bus.publish(REPORTED, [...quotes]);
  }

  /**
   * Agents reported: the snapshot is read again from the books, and trade listeners (the copy
   * engine) hear of the positions that opened and closed since the last one. One refresh at a time.
   */
  refresh(): Promise<void> {
    this.reports++;
    const next = this.refreshing.then(() => this.load());
    this.refreshing = next.catch((err: unknown) => this.options.onError?.(err));
    return next;
  }

  private async load(quiet = false): Promise<void> {
    const accounts = new Map<number, LiveAccount>((await liveAccounts(this.db, 'agent')).map((a) => [a.id, a]));
    // A copy reports its master's terminal identifier (copy_of): linked here to the master's row,
    // open or known closed; a copy whose master has not been seen yet is linked to nothing.
    const links = await resolveCopies(this.db);
    const positions = (await listPositions(this.db, 'agent')).map((p) => ({ ...p, master_position_id: links.get(p.id) ?? null }));
    const before = this.current.positions;
    this.current = {
      at: this.options.now(),
      seq: ++this.seq,
      instruments: new Map(positions.map((p) => [p.symbol, instrumentOf(p.symbol)])),
      rates: eurRates(this.mids),
      mids: new Map(this.mids),
      accounts,
      positions,
    };
    if (quiet) {
      this.listeners.notify(this.current);
      return;
    }
    const events = tradeEventsBetween(before, positions, accounts);
    this.listeners.notify(this.current);
    // Listeners (the copy engine) place orders that wait for other terminals: they run in order, but
    // never hold up the report that caused them.
    this.events = this.events.then(async () => {
      for (const e of events) await this.tradeListeners.emit(e, (err) => this.options.onError?.(err));
    });
  }

  async open(order: OpenOrder): Promise<void> {
    if (this.paused) throw new MarketPaused();
    const account = this.current.accounts.get(order.accountId);
    if (!account) throw new NoTerminal(`No terminal reports the account ${order.accountId}.`);
    // The master position as its own terminal names it (docs/copying.md): the follower's terminal
    // reports its copy with copy_of = master_position_id.
    const master = order.masterPositionId === null ? undefined : await masterPositionRef(this.db, order.masterPositionId);
    const payload = {
      symbol: order.symbol,
      type: order.type.toLowerCase(),
      volume: order.quantity,
      sl: order.sl ?? 0,
      tp: order.tp ?? 0,
      ...(master ? { master_position_id: master.identifier, master_login: master.login, master_server: master.server } : {}),
    };
    // A copy is sent, not waited for: the position shows when the follower's terminal reports it.
    await this.order([{ accountId: order.accountId, kind: 'open', payload }], undefined, false);
  }

  async modifyStops(positionIds: readonly number[], takeProfit: number | null, stopLoss: number | null, inTx?: InTransaction): Promise<number> {
    if (this.paused) throw new MarketPaused();
    return this.onPositions(positionIds, 'modify', (identifier) => ({ identifier, sl: stopLoss ?? 0, tp: takeProfit ?? 0 }), inTx);
  }

  /**
   * A user's close (it comes with its audit row) waits for the terminals' answers; the copy
   * engine's closes of copies (no audit row, nobody waits) are sent, not waited for, so a slow
   * terminal never holds up the copying of the next trade.
   */
  async close(positionIds: readonly number[], inTx?: InTransaction): Promise<number> {
    if (this.paused) throw new MarketPaused();
    return this.onPositions(positionIds, 'close', (identifier, p) => ({ identifier, volume: p.quantity }), inTx, inTx !== undefined);
  }

  private async onPositions(
    positionIds: readonly number[],
    kind: CommandKind,
    payload: (identifier: number, p: LivePosition) => Record<string, unknown>,
    inTx?: InTransaction,
    wait = true,
  ): Promise<number> {
    let mine = this.current.positions.filter((p) => positionIds.includes(p.id));
    if (mine.length === 0) return 0;
    const identifiers = await identifiersOf(this.db, mine.map((p) => p.id));
    if (kind === 'close') {
      // A position whose close is already on its way is not closed twice.
      const closing = await closingIdentifiers(this.db, [...new Set(mine.map((p) => p.account_id))], new Date());
      mine = mine.filter((p) => !closing.has(`${p.account_id}|${identifiers.get(p.id)}`));
      if (mine.length === 0) return 0;
    }
    return this.order(
      mine.map((p) => ({ accountId: p.account_id, kind, payload: payload(identifiers.get(p.id)!, p) })),
      inTx,
      wait,
    );
  }

  /**
   * Sends commands to the agents that trade their accounts (with the caller's audit row, one
   * transaction) and waits for the terminals' answers. Returns how many were done; a refusal throws
   * with the terminal's message; no answer in time throws OutcomeUnknown.
   */
  private async order(
    orders: { accountId: number; kind: CommandKind; payload: Record<string, unknown> }[],
    inTx?: InTransaction,
    wait = true,
  ): Promise<number> {
    // Commands live on the wall clock, whatever clock the market keeps.
    const now = Date.now();
    const commands: NewCommand[] = [];
    for (const o of orders) {
      const agentId = await tradingAgentOf(this.db, o.accountId);
      const account = this.current.accounts.get(o.accountId);
      if (agentId === undefined) throw new NoTerminal(`No terminal agent may trade the account ${account?.account ?? o.accountId}.`);
      commands.push({
        id: randomUUID(),
        agentId,
        accountId: o.accountId,
        kind: o.kind,
        payload: { ...o.payload, expires_at: now + this.options.commandTtlMs },
        createdAt: new Date(now),
        expiresAt: new Date(now + this.options.commandTtlMs),
      });
    }
    const queued = await this.db.transaction(async (tx) => {
      const ids = await insertCommands(tx, commands);
      await inTx?.(writeContextOf(tx));
      return ids;
    });
    await this.bus.publish(QUEUED, [...new Set(commands.map((c) => c.agentId))]);
    if (!wait) return queued.size;
    if (queued.size === 0) return 0;
    const answers = await this.answers([...queued]);
    const refused = answers.find((a) => a.state === 'rejected');
    if (refused) throw new OrderRefused(refused.message ?? 'Update failed.');
    if (answers.some((a) => !FINAL_STATES.includes(a.state) || a.state === 'expired')) {
      throw new OutcomeUnknown();
    }
    return answers.filter((a) => a.state === 'done').length;
  }

  /** The commands' states once all are answered, or as they are when the answer time is up. */
  private async answers(ids: string[]): Promise<CommandRow[]> {
    const deadline = Date.now() + this.options.answerTimeoutMs;
    for (;;) {
      const rows = await commandsByIds(this.db, ids);
      if (rows.every((r) => FINAL_STATES.includes(r.state)) || Date.now() >= deadline) return rows;
      // Woken by an answer in this process, else every 250 ms (an answer taken by another instance).
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          for (const id of ids) this.waiters.delete(id);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(250, Math.max(0, deadline - Date.now())));
        for (const id of ids) this.waiters.set(id, wake);
      });
    }
  }
}
