import type { Database } from '#server/db/database.ts';
import { figuresOf } from '#server/books/day-ends.ts';
import { liveAccounts, saveLiveState } from '#server/db/accounts-repo.ts';
import { allRules } from '#server/db/copy-rules-repo.ts';
import type { Market } from '#shared/domain/market.ts';
import { readMarketState, writeMarketState } from '#server/db/market-state-repo.ts';
import { queryableOf, writeContextOf } from '#server/db/write-context.ts';
import { deletePositions, insertPosition, listPositions, saveMarks, setStops } from '#server/db/positions-repo.ts';
import { MarketPaused } from '#server/broker/errors.ts';
import { rolloversBetween } from '#server/ledger/calendar.ts';
import type { AccountFigures, Ledger } from '#server/ledger/ledger.ts';
import type { ClosedTrade } from '#shared/domain/book-events.ts';
import { cents } from '#shared/domain/money.ts';
import type {
  BrokerAdapter,
  InTransaction,
  LiveAccount,
  LivePosition,
  MarketSnapshot,
  OpenOrder,
  TradeEvent,
} from '#server/broker/port.ts';
import { convertAtMids, eurRates, INSTRUMENT_INFO, INSTRUMENTS, instrument, roundPrice } from './instruments.ts';
import { masterSize, Random } from './random.ts';
import { Listeners } from '#server/broker/listeners.ts';
import { Serial } from './serial.ts';
import { commissionFor, entryPrice, exitPrice, feeFor, nightlySwap, pnlInCurrency, rebateFor } from './trading.ts';
import type { Side } from '#shared/domain/side.ts';

export interface SimulatedMarketOptions {
  seed: number;
  now: () => number;
  tickMs: number;
  /** Masters open and close trades by themselves (off in tests that drive them by hand). */
  autoTrade: boolean;
  /** Flush prices and equity to the database every this many ticks. */
  flushEvery: number;
  /** Where a failed tick is reported (the market keeps running). */
  onError?: (err: unknown) => void;
}

const TRADING_SECONDS_PER_YEAR = 252 * 86_400;
const STALE_ACCOUNT = 'AMC Follower 04';
const LIVE_STATE = 'live';

interface LiveState {
  mids: Record<string, number>;
  at: number;
  rng: number;
}

/**
 * The deterministic simulated market, one BrokerAdapter among those to come: prices by a random
 * walk, masters that trade by themselves, brokers with their own spreads, costs and latency. It
 * reports closed trades, day ends and account figures to the ledger, which keeps the books; the
 * copy engine copies its masters through the adapter interface like any other broker's.
 */
export class SimulatedMarket implements BrokerAdapter {
  private rng: Random;
  private readonly serial = new Serial();
  private readonly listeners = new Listeners<MarketSnapshot>();
  private readonly tradeListeners = new Listeners<TradeEvent>();
  private mids = new Map<string, number>();
  private accounts = new Map<number, LiveAccount>();
  private positions = new Map<number, LivePosition>();
  /** What each master trades (its rule's market) and, on the first start, which symbols it favours. */
  private marketOf = new Map<number, Market>();
  private allowedOf = new Map<number, string[]>();
  /** Prices of a past fill (the first start's open trades): orders placed meanwhile fill there too. */
  private fillMids: ReadonlyMap<string, number> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private seq = 0;
  private lastTick: number;
  private current: MarketSnapshot;
  private paused = false;

  constructor(
    private readonly db: Database,
    private readonly ledger: Ledger,
    private readonly options: SimulatedMarketOptions,
  ) {
    this.rng = new Random(options.seed ^ 0x5eed);
    this.lastTick = options.now();
    this.current = this.buildSnapshot();
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  async start(): Promise<void> {
    await this.serial.run(async () => {
      await this.load();
      this.publish();
    });
    if (this.positions.size === 0) await this.serial.run(() => this.seedOpenPositions());
    this.publish();
    if (this.options.tickMs > 0) {
      this.timer = setInterval(() => {
        this.tick().catch((err: unknown) => this.options.onError?.(err));
      }, this.options.tickMs);
      this.timer.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (!this.paused) await this.serial.run(() => this.flush());
  }

  pause(): void {
    this.paused = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  async resume(): Promise<void> {
    // start() reloads the books (once); writes stay refused until it has.
    await this.start();
    this.paused = false;
  }

  private assertRunning(): void {
    if (this.paused) throw new MarketPaused();
  }

  /** The state at the end of the last step: never a step half done. */
  snapshot(): MarketSnapshot {
    return this.current;
  }

  get ticks(): number {
    return this.seq;
  }

  onUpdate(listener: (s: MarketSnapshot) => void): () => void {
    return this.listeners.add(listener);
  }

  onTrade(listener: (e: TradeEvent) => Promise<void>): () => void {
    return this.tradeListeners.add(listener);
  }

  /** The end of a step: its state becomes the snapshot, and listeners hear of it outside the step. */
  private publish(): void {
    const snapshot = this.buildSnapshot();
    this.current = snapshot;
    this.serial.outside(() => this.listeners.notify(snapshot));
  }

  private buildSnapshot(): MarketSnapshot {
    return {
      at: this.lastTick,
      seq: this.seq,
      instruments: INSTRUMENT_INFO,
      rates: this.mids.size ? eurRates(this.mids) : new Map(),
      mids: new Map(this.mids),
      accounts: new Map([...this.accounts].map(([k, v]) => [k, { ...v }])),
      positions: [...this.positions.values()].map((p) => ({ ...p })),
    };
  }

  /** What the ledger sees of each account. */
  private figures(): AccountFigures[] {
    return figuresOf(this.accounts.values());
  }

  private async load(): Promise<void> {
    this.accounts = new Map((await liveAccounts(this.db, 'simulated')).map((a) => [a.id, a]));
    this.positions = new Map((await listPositions(this.db, 'simulated')).map((p) => [p.id, p]));
    const rules = await allRules(this.db);
    this.marketOf = new Map(rules.map((r) => [r.master_id, r.market_type]));
    this.allowedOf = new Map(rules.map((r) => [r.master_id, r.allowed_pairs]));
    const live = await readMarketState<LiveState>(this.db, LIVE_STATE);
    this.mids = new Map(INSTRUMENTS.map((i) => [i.symbol, live?.mids[i.symbol] ?? i.price]));
    if (live) this.rng = new Random(live.rng);
    this.lastTick = this.options.now();
  }

  // ---- the tick --------------------------------------------------------------------------------

  /** One step of the market: prices, positions, stops, masters' decisions, persistence. */
  tick(): Promise<void> {
    return this.serial.run(async () => {
      if (this.paused) return;
      const now = this.options.now();
      const dt = Math.max(0.05, Math.min(5, (now - this.lastTick) / 1000));
      const prevSeconds = this.lastTick / 1000;
      this.lastTick = now;
      this.seq++;
  
      for (const inst of INSTRUMENTS) {
        const mid = this.mids.get(inst.symbol) ?? inst.price;
        const sigma = inst.vol * Math.sqrt(dt / TRADING_SECONDS_PER_YEAR);
        this.mids.set(inst.symbol, roundPrice(mid * Math.exp(sigma * this.rng.normal()), inst.digits + 1));
      }
      const nowS = now / 1000;
      const nights = rolloversBetween(prevSeconds, nowS);

      const toClose: number[] = [];
      for (const p of this.positions.values()) {
        const acct = this.accounts.get(p.account_id);
        if (!acct) continue;
        const inst = instrument(p.symbol);
        const mark = exitPrice(inst, this.mids.get(p.symbol)!, acct.broker, p.type);
        p.price_current = mark;
        p.price_low = Math.min(p.price_low, mark);
        p.price_high = Math.max(p.price_high, mark);
        p.profit = cents(pnlInCurrency(inst, p.type, p.price_open, mark, p.quantity, acct.currency, this.mids));
        if (nights > 0) p.swap = cents(p.swap + nights * nightlySwap(inst, p.type, p.quantity, p.price_open, acct.currency, this.mids));
        const hitSl = p.sl !== null && (p.type === 'Buy' ? mark <= p.sl : mark >= p.sl);
        const hitTp = p.tp !== null && (p.type === 'Buy' ? mark >= p.tp : mark <= p.tp);
        if (hitSl || hitTp) toClose.push(p.id);
      }
      if (toClose.length) await this.closeNow(toClose);

      if (this.options.autoTrade) await this.mastersAct(dt);
      this.revalue();
      this.report(nowS);
      await this.ledger.watch(this.figures(), nowS);

      if (this.seq % this.options.flushEvery === 0) await this.flush();
      this.publish();
    });
  }

  /** Equity and margin of every account at the current marks. */
  private revalue(): void {
    const open = new Map<number, { floating: number; margin: number }>();
    for (const p of this.positions.values()) {
      const acct = this.accounts.get(p.account_id)!;
      const inst = instrument(p.symbol);
      const o = open.get(p.account_id) ?? { floating: 0, margin: 0 };
      o.floating += p.profit + p.swap;
      o.margin += convertAtMids((p.quantity * inst.contract * p.price_open) / acct.leverage, inst.quote, acct.currency, this.mids);
      open.set(p.account_id, o);
    }
    for (const a of this.accounts.values()) {
      const o = open.get(a.id);
      a.equity = cents(a.balance + (o?.floating ?? 0));
      a.margin = cents(o?.margin ?? 0);
    }
  }

  /**
   * After an order placed from outside (a route, a test driving a master), the terminals report at
   * once; an order placed inside a step (a copy) is reported with that step.
   */
  private afterOrder(nested: boolean): void {
    this.revalue();
    if (nested) return;
    this.report(this.options.now() / 1000);
    this.publish();
  }

  /** Each tick the terminals report: their ping, and the time of the report. */
  private report(nowS: number): void {
    for (const a of this.accounts.values()) {
      a.ping = Math.max(8, Math.round(a.broker.latency_ms * (0.7 + 0.5 * this.rng.next())));
      // One account's feed stalls now and then, as real bridges do: its freshness dot turns red.
      const stalls = a.account_name === STALE_ACCOUNT && Math.floor(nowS / 300) % 3 === 2;
      if (!stalls) a.last_update = Math.floor(nowS);
    }
  }

  private async mastersAct(dt: number): Promise<void> {
    for (const m of this.accounts.values()) {
      if (!m.is_master) continue;
      const mine = [...this.positions.values()].filter((p) => p.account_id === m.id);
      for (const p of mine) {
        if (this.rng.chance(dt / 900)) await this.closeNow([p.id]);
      }
      const openCount = mine.length;
      if (openCount < 2 || (openCount < 6 && this.rng.chance(dt / 150))) {
        const market = this.marketOf.get(m.id) ?? 'Forex';
        const inst = this.rng.pick(INSTRUMENTS.filter((i) => i.category === market));
        const type: Side = this.rng.chance(0.5) ? 'Buy' : 'Sell';
        const qty = masterSize(this.rng, market);
        await this.openNow({ accountId: m.id, symbol: inst.symbol, type, quantity: qty, masterPositionId: null });
      }
    }
  }

  // ---- opening, closing, stops -----------------------------------------------------------------

  /** A master opens a trade in its terminal (tests drive masters through this). */
  openMasterTrade(masterId: number, symbol: string, type: Side, quantity: number): Promise<LivePosition> {
    const nested = this.serial.running;
    return this.serial.run(async () => {
      const m = this.accounts.get(masterId);
      if (!m?.is_master) throw new Error(`account ${masterId} is not a master`);
      const p = await this.openNow({ accountId: m.id, symbol, type, quantity, masterPositionId: null });
      this.afterOrder(nested);
      return p;
    });
  }

  open(order: OpenOrder): Promise<void> {
    this.assertRunning();
    const nested = this.serial.running;
    return this.serial.run(async () => {
      await this.openNow(order);
      this.afterOrder(nested);
    });
  }

  private async openNow(order: OpenOrder): Promise<LivePosition> {
    const acct = this.accounts.get(order.accountId);
    if (!acct) throw new Error(`no account ${order.accountId}`);
    const { symbol, type, quantity } = order;
    const inst = instrument(symbol);
    const mid = this.fillMids?.get(symbol) ?? this.mids.get(symbol)!;
    const open = entryPrice(inst, mid, acct.broker, type, this.rng.normal() * 0.15);
    const mark = exitPrice(inst, this.mids.get(symbol)!, acct.broker, type);
    const position: Omit<LivePosition, 'id'> = {
      account_id: acct.id,
      master_position_id: order.masterPositionId,
      symbol,
      type,
      category: inst.category,
      quantity,
      price_open: open,
      price_current: mark,
      price_low: Math.min(open, mark),
      price_high: Math.max(open, mark),
      sl: order.sl ?? null,
      tp: order.tp ?? null,
      profit: cents(pnlInCurrency(inst, type, open, mark, quantity, acct.currency, this.mids)),
      swap: 0,
      commission: cents(commissionFor(inst, acct.broker, quantity, acct.currency, this.mids)),
      fee: cents(feeFor(inst, quantity, open, acct.currency, this.mids)),
      exec_duration_ms: Math.round(acct.broker.latency_ms * this.rng.range(0.7, 1.6) + (order.masterPositionId ? 15 : 0)),
      opened_at: Math.floor(order.openedAt ?? this.options.now() / 1000),
    };
    const created: LivePosition = { ...position, id: await insertPosition(this.db, position) };
    this.positions.set(created.id, created);
    await this.tradeListeners.emit({ kind: 'opened', position: { ...created }, account: acct });
    return created;
  }

  private async closeNow(ids: readonly number[], inTx?: InTransaction): Promise<number> {
    const closing = [...new Set(ids)].map((id) => this.positions.get(id)).filter((p): p is LivePosition => p !== undefined);
    if (closing.length === 0) return 0;
    const nowS = this.options.now() / 1000;
    const trades: ClosedTrade[] = closing.map((p) => {
      const acct = this.accounts.get(p.account_id)!;
      const inst = instrument(p.symbol);
      const close = exitPrice(inst, this.mids.get(p.symbol)!, acct.broker, p.type);
      return {
        accountId: acct.id,
        symbol: p.symbol,
        type: p.type,
        category: p.category,
        quantity: p.quantity,
        openPrice: p.price_open,
        closePrice: close,
        openedAt: p.opened_at,
        closedAt: nowS,
        profit: cents(pnlInCurrency(inst, p.type, p.price_open, close, p.quantity, acct.currency, this.mids)),
        swap: p.swap,
        commission: p.commission,
        fee: p.fee,
        rebate: cents(rebateFor(inst, acct.broker, p.quantity, acct.currency, this.mids)),
        low: Math.min(p.price_low, close),
        high: Math.max(p.price_high, close),
        execMs: p.exec_duration_ms,
        positionId: p.id,
        copyOf: p.master_position_id,
      };
    });
    const balances = await this.ledger.write(async (ctx) => {
      await deletePositions(queryableOf(ctx), closing.map((p) => p.id));
      const after = await this.ledger.record(ctx, trades);
      await inTx?.(ctx);
      return after;
    });
    for (const [id, balance] of balances) {
      const acct = this.accounts.get(id);
      if (acct) acct.balance = balance;
    }
    for (const p of closing) this.positions.delete(p.id);
    await this.tradeListeners.emit({ kind: 'closed', positions: closing });
    return closing.length;
  }

  close(positionIds: readonly number[], inTx?: InTransaction): Promise<number> {
    this.assertRunning();
    const nested = this.serial.running;
    return this.serial.run(async () => {
      const n = await this.closeNow(positionIds, inTx);
      this.afterOrder(nested);
      return n;
    });
  }

  modifyStops(positionIds: readonly number[], takeProfit: number | null, stopLoss: number | null, inTx?: InTransaction): Promise<number> {
    this.assertRunning();
    const nested = this.serial.running;
    return this.serial.run(async () => {
      const ids = positionIds.filter((id) => this.positions.has(id));
      if (ids.length) {
        await this.db.transaction(async (tx) => {
          await setStops(tx, ids, takeProfit, stopLoss);
          await inTx?.(writeContextOf(tx));
        });
      }
      for (const id of ids) {
        const p = this.positions.get(id)!;
        p.tp = takeProfit;
        p.sl = stopLoss;
      }
      if (!nested) this.publish();
      return ids.length;
    });
  }

  // ---- persistence -----------------------------------------------------------------------------

  private async flush(): Promise<void> {
    await saveMarks(this.db, [...this.positions.values()]);
    await saveLiveState(this.db, [...this.accounts.values()]);
    const state: LiveState = { mids: Object.fromEntries(this.mids), at: this.lastTick, rng: this.rng.seedState };
    await writeMarketState(this.db, LIVE_STATE, state);
  }

  /** First start: each master holds a few trades opened in the last hours (copied by the copy engine). */
  private async seedOpenPositions(): Promise<void> {
    const nowS = this.options.now() / 1000;
    for (const m of this.accounts.values()) {
      if (!m.is_master) continue;
      const market = this.marketOf.get(m.id) ?? 'Forex';
      const universe = INSTRUMENTS.filter((i) => i.category === market);
      const allowed = this.allowedOf.get(m.id) ?? [];
      const count = this.rng.int(3, 5);
      for (let k = 0; k < count; k++) {
        // Mostly allowed pairs, so followers hold copies; now and then one the rules keep to the master.
        const symbol = k < count - 1 && allowed.length ? this.rng.pick(allowed) : this.rng.pick(universe).symbol;
        const inst = instrument(symbol);
        const type: Side = this.rng.chance(0.5) ? 'Buy' : 'Sell';
        const qty = masterSize(this.rng, market);
        const drift = 1 + this.rng.normal() * inst.vol * 0.01;
        this.fillMids = new Map([[symbol, (this.mids.get(symbol) ?? inst.price) * drift]]);
        try {
          await this.openNow({ accountId: m.id, symbol, type, quantity: qty, masterPositionId: null, openedAt: nowS - this.rng.int(600, 6 * 3600) });
        } finally {
          this.fillMids = null;
        }
      }
    }
    this.revalue();
    this.report(nowS);
    await this.flush();
  }
}
