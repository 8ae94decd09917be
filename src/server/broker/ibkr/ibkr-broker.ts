import { instrumentSpec } from '#shared/domain/instruments.ts';
import { liveAccounts } from '#server/db/accounts-repo.ts';
import type { Database } from '#server/db/database.ts';
import { listPositions, statementInstruments } from '#server/db/positions-repo.ts';
import { MarketPaused, NotTradable } from '#server/broker/errors.ts';
import { Listeners, tradeEventsBetween } from '#server/broker/listeners.ts';
import type { BrokerAdapter, InstrumentInfo, LivePosition, MarketSnapshot, OpenOrder, TradeEvent } from '#server/broker/port.ts';
import { LocalBus, type Bus } from '#server/scale/bus.ts';
import { channels } from '#server/scale/channels.ts';

/** The source of the accounts this adapter feeds (accounts.source). */
export const IBKR_SOURCE = 'ibkr';

/**
 * Interactive Brokers accounts, fed by their Flex statements (imported, or fetched once a day:
 * flex-fetch.ts): the snapshot is what the latest statements booked — the account's cash and net
 * asset value, and the positions open at the statement's end, marked at IB's price of that day
 * (`as_of`). Statements are IB's word after the fact: this adapter places no order (each is refused
 * with NotTradable: orders are placed at IB itself). Positions that appear or go between two
 * statements are told to trade listeners as opened and closed, as a terminal's would be.
 */
export class IbkrBroker implements BrokerAdapter {
  private current: MarketSnapshot = { at: 0, seq: 0, instruments: new Map(), rates: new Map(), mids: new Map(), accounts: new Map(), positions: [] };
  private readonly listeners = new Listeners<MarketSnapshot>();
  private readonly tradeListeners = new Listeners<TradeEvent>();
  private seq = 0;
  /** Statements read since start (for /metrics, beside the simulated market's ticks). */
  private statementsRead = 0;
  private running = false;
  private paused = false;
  private loading: Promise<void> = Promise.resolve();
  private readonly bus: Bus;

  constructor(
    private readonly db: Database,
    private readonly options: { now: () => number; bus?: Bus; onError?: (err: unknown) => void },
  ) {
    this.bus = options.bus ?? new LocalBus();
    // Whichever instance booked a statement, the one that runs the market reads the books again.
    this.bus.subscribe(channels.statementsBooked, async () => {
      if (this.running) await this.reload();
    });
  }

  async start(): Promise<void> {
    // What is open now was open before this process ran: no trade events for it.
    await this.reload(true);
    this.running = true;
  }

  async stop(): Promise<void> {
    this.pause();
  }

  pause(): void {
    this.running = false;
    this.paused = true;
  }

  async resume(): Promise<void> {
    await this.reload(true);
    this.running = true;
    this.paused = false;
  }

  get ticks(): number {
    return this.statementsRead;
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

  /** Statements were booked into these accounts (through any instance): the market's leader reads them again. */
  booked(accountIds: readonly number[]): Promise<void> {
    return this.bus.publish(channels.statementsBooked, [...accountIds]);
  }

  /** Reads the accounts and positions again (one read at a time); trade listeners hear what opened and closed since. */
  reload(quiet = false): Promise<void> {
    const next = this.loading.then(() => this.load(quiet));
    this.loading = next.catch((err: unknown) => this.options.onError?.(err));
    return next;
  }

  private async load(quiet: boolean): Promise<void> {
    if (!quiet) this.statementsRead++;
    const accounts = new Map((await liveAccounts(this.db, IBKR_SOURCE)).map((a) => [a.id, a]));
    const positions = await listPositions(this.db, IBKR_SOURCE);
    const terms = await statementInstruments(this.db, IBKR_SOURCE);
    const instruments = new Map<string, InstrumentInfo>();
    for (const p of positions) {
      const spec = instrumentSpec(p.symbol);
      const t = terms.get(p.symbol);
      instruments.set(p.symbol, { symbol: p.symbol, category: p.category, quote: t?.quote ?? spec.quote, contract: t?.multiplier ?? spec.contract, pip: spec.pip, digits: spec.digits, exchange: null });
    }
    const before = this.current.positions;
    this.current = { at: this.options.now(), seq: ++this.seq, instruments, rates: new Map(), mids: new Map(), accounts, positions };
    this.listeners.notify(this.current);
    if (quiet) return;
    for (const e of tradeEventsBetween(before, positions, accounts)) await this.tradeListeners.emit(e, (err) => this.options.onError?.(err));
  }

  /** Its own positions among `ids`: an order on any of them is refused (IB takes orders itself). */
  private refuse(ids: readonly number[]): number {
    if (this.paused) throw new MarketPaused();
    const mine = new Set(this.current.positions.map((p: LivePosition) => p.id));
    if (ids.some((id) => mine.has(id))) throw new NotTradable();
    return 0;
  }

  open(_order: OpenOrder): Promise<void> {
    return Promise.reject(this.paused ? new MarketPaused() : new NotTradable());
  }

  modifyStops(positionIds: readonly number[]): Promise<number> {
    return Promise.resolve().then(() => this.refuse(positionIds));
  }

  close(positionIds: readonly number[]): Promise<number> {
    return Promise.resolve().then(() => this.refuse(positionIds));
  }
}
