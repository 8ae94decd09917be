import type { Database, Queryable } from '#server/db/database.ts';
import { HttpError } from '#server/http/errors.ts';
import type { BrokerAdapter, BrokerInfo, InTransaction, LiveAccount, LivePosition, MarketSnapshot } from './adapter.ts';
import { convert, INSTRUMENTS, instrument, roundPrice, type MarketType } from './instruments.ts';
import { DAY_S, dayOf } from './price-path.ts';
import { Random } from './random.ts';
import {
  cents,
  commissionFor,
  entryPrice,
  exitPrice,
  feeFor,
  nightlySwap,
  pnlInCurrency,
  rebateFor,
  type Side,
} from './trading.ts';
import { excursion } from '#shared/analytics/excursions.ts';
import { settleProfitSharing } from '#shared/analytics/rebates.ts';
import { PROFIT_SHARING_RATE } from './seed-data.ts';
import type { Category } from '#shared/domain/portfolios.ts';

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

const TRADING_SECONDS_PER_YEAR = 252 * DAY_S;
const STALE_ACCOUNT = 'AMC Follower 04';

/** An accounts row: the live account with its broker as an id and its last update as a timestamp. */
interface AccountRow extends Omit<LiveAccount, 'broker' | 'last_update'> {
  broker_id: number;
  last_update: Date;
}

interface PositionRow extends Omit<LivePosition, 'opened_at'> {
  opened_at: Date;
}

/** A promise chain that runs the market's mutations one at a time. */
class Serial {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn, fn);
    this.tail = next.catch(() => undefined);
    return next;
  }
}

/** The deterministic simulated market: the default BrokerAdapter. */
export class SimulatedMarket implements BrokerAdapter {
  private rng: Random;
  private readonly serial = new Serial();
  private readonly listeners = new Set<(s: MarketSnapshot) => void>();
  private mids = new Map<string, number>();
  private brokers = new Map<number, BrokerInfo>();
  private accounts = new Map<number, LiveAccount>();
  private positions = new Map<number, LivePosition>();
  private rules = new Map<number, Set<string>>();
  private marketOf = new Map<number, MarketType>();
  private copying = true;
  private timer: NodeJS.Timeout | undefined;
  private seq = 0;
  private lastTick: number;
  private marginAlerted = new Map<number, number>();
  private staleAlerted = false;
  private current: MarketSnapshot;
  private paused = false;
  /** Bumped whenever deals are written: readers cache per-account deal totals against it. */
  dealsVersion = 0;

  constructor(
    private readonly db: Database,
    private readonly options: SimulatedMarketOptions,
  ) {
    this.rng = new Random(options.seed ^ 0x5eed);
    this.lastTick = options.now();
    this.current = this.buildSnapshot();
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  async start(): Promise<void> {
    await this.serial.run(() => this.load());
    await this.catchUpDays();
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

  /**
   * Stops the clock and refuses writes (503) without touching the database: this process no longer
   * holds the market's lock (its connection was lost), so another may be running it.
   */
  pause(): void {
    this.paused = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The lock is back: reload everything from the database (the truth) and run again. */
  async resume(): Promise<void> {
    // start() reloads the books (once); writes stay refused until it has.
    await this.start();
    this.paused = false;
  }

  private assertRunning(): void {
    if (this.paused) {
      throw new HttpError(503, 'The market is paused while its database connection is restored. Please try again in a few seconds.');
    }
  }

  snapshot(): MarketSnapshot {
    return this.current;
  }

  /** Ticks run since start (for /metrics). */
  get ticks(): number {
    return this.seq;
  }

  onUpdate(listener: (s: MarketSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private publish(): void {
    this.current = this.buildSnapshot();
    for (const l of this.listeners) l(this.current);
  }

  private buildSnapshot(): MarketSnapshot {
    return {
      at: this.lastTick,
      seq: this.seq,
      mids: new Map(this.mids),
      accounts: new Map([...this.accounts].map(([k, v]) => [k, { ...v }])),
      positions: [...this.positions.values()].map((p) => ({ ...p })),
      copying: this.copying,
    };
  }

  private async load(): Promise<void> {
    const db = this.db;
    const brokers = await db.query<BrokerInfo>(
      'SELECT id, broker_name, img_path, spread_pips, latency_ms, commission_per_lot, rebate_per_lot FROM brokers',
    );
    this.brokers = new Map(brokers.map((b) => [b.id, b]));
    const accounts = await db.query<AccountRow>(
      `SELECT id, account_id, account, account_name, broker_id, server, server_name, teiko_category, currency,
              is_master, master_id, copy_ratio, leverage, balance, equity, margin, ping, last_update
       FROM accounts ORDER BY id`,
    );
    this.accounts = new Map(
      accounts.map(({ broker_id, last_update, ...a }) => [
        a.id,
        { ...a, broker: this.brokers.get(broker_id)!, last_update: Math.floor(last_update.getTime() / 1000) },
      ]),
    );
    const positions = await db.query<PositionRow>(
      `SELECT id, account_id, master_position_id, symbol, type, category, quantity, price_open, price_current,
              price_low, price_high, sl, tp, profit, swap, commission, fee, exec_duration_ms, opened_at FROM positions`,
    );
    this.positions = new Map(
      positions.map((p) => [p.id, { ...p, opened_at: Math.floor(p.opened_at.getTime() / 1000) }]),
    );
    await this.loadRules(db);
    const bridge = await db.query<{ running: boolean }>('SELECT running FROM bridge_state WHERE id = 1');
    this.copying = bridge[0]?.running ?? true;
    const state = await db.query<{ value: { mids: Record<string, number>; at: number; rng: number } }>(
      "SELECT value FROM market_state WHERE key = 'live'",
    );
    const live = state[0]?.value;
    this.mids = new Map(INSTRUMENTS.map((i) => [i.symbol, live?.mids[i.symbol] ?? i.price]));
    if (live) this.rng = new Random(live.rng);
    this.lastTick = this.options.now();
  }

  private async loadRules(db: Queryable): Promise<void> {
    const rules = await db.query<{ master_id: number; market_type: MarketType; allowed_pairs: string[] }>(
      'SELECT master_id, market_type, allowed_pairs FROM copy_rules',
    );
    this.rules = new Map(rules.map((r) => [r.master_id, new Set(r.allowed_pairs)]));
    this.marketOf = new Map(rules.map((r) => [r.master_id, r.market_type]));
  }

  async reloadRules(): Promise<void> {
    await this.serial.run(() => this.loadRules(this.db));
  }

  /** Days the server was down: end-of-day NAV at the stored balances (nothing traded meanwhile). */
  private async catchUpDays(): Promise<void> {
    const rows = await this.db.query<{ last: Date | null }>('SELECT max(day) AS last FROM nav_snapshots');
    const last = rows[0]?.last;
    if (!last) return;
    const today = dayOf(Math.floor(this.options.now() / 1000));
    for (let day = dayOf(last.getTime() / 1000) + 1; day < today; day++) await this.snapshotNav(day);
  }

  // ---- the tick --------------------------------------------------------------------------------

  /** One step of the market: prices, positions, stops, masters' decisions, copying, persistence. */
  tick(): Promise<void> {
    return this.serial.run(async () => {
      if (this.paused) return;
      const now = this.options.now();
      const dt = Math.max(0.05, Math.min(5, (now - this.lastTick) / 1000));
      const prevDay = dayOf(Math.floor(this.lastTick / 1000));
      const prevSeconds = this.lastTick / 1000;
      this.lastTick = now;
      this.seq++;

      for (const inst of INSTRUMENTS) {
        const mid = this.mids.get(inst.symbol) ?? inst.price;
        const sigma = inst.vol * Math.sqrt(dt / TRADING_SECONDS_PER_YEAR);
        this.mids.set(inst.symbol, roundPrice(mid * Math.exp(sigma * this.rng.normal()), inst.digits + 1));
      }
      const nowS = now / 1000;
      const rollover = dayOf(nowS) * DAY_S + 22 * 3600;
      const crossedRollover = prevSeconds < rollover && nowS >= rollover;

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
        if (crossedRollover) p.swap = cents(p.swap + nightlySwap(inst, p.type, p.quantity, p.price_open, acct.currency, this.mids));
        const hitSl = p.sl !== null && (p.type === 'Buy' ? mark <= p.sl : mark >= p.sl);
        const hitTp = p.tp !== null && (p.type === 'Buy' ? mark >= p.tp : mark <= p.tp);
        if (hitSl || hitTp) toClose.push(p.id);
      }
      if (toClose.length) await this.closeNow(toClose);

      if (this.options.autoTrade) await this.mastersAct(dt);
      this.updateAccounts(nowS);
      await this.alertsFor(nowS);

      if (dayOf(nowS) !== prevDay) {
        await this.snapshotNav(prevDay);
        if (new Date(nowS * 1000).getUTCDate() === 1) await this.settleMonth(prevDay);
      }
      if (this.seq % this.options.flushEvery === 0) await this.flush();
      this.publish();
    });
  }

  private updateAccounts(nowS: number): void {
    const open = new Map<number, { floating: number; margin: number }>();
    for (const p of this.positions.values()) {
      const acct = this.accounts.get(p.account_id)!;
      const inst = instrument(p.symbol);
      const o = open.get(p.account_id) ?? { floating: 0, margin: 0 };
      o.floating += p.profit + p.swap;
      o.margin += convert((p.quantity * inst.contract * p.price_open) / acct.leverage, inst.quote, acct.currency, this.mids);
      open.set(p.account_id, o);
    }
    for (const a of this.accounts.values()) {
      const o = open.get(a.id);
      a.equity = cents(a.balance + (o?.floating ?? 0));
      a.margin = cents(o?.margin ?? 0);
      a.ping = Math.max(8, Math.round(a.broker.latency_ms * (0.7 + 0.5 * this.rng.next())));
      // One account's feed stalls now and then, as real bridges do: its freshness dot turns red.
      const stalls = a.account_name === STALE_ACCOUNT && Math.floor(nowS / 300) % 3 === 2;
      if (!stalls) a.last_update = Math.floor(nowS);
    }
  }

  private async alertsFor(nowS: number): Promise<void> {
    const rows: [string, string, number | null][] = [];
    for (const a of this.accounts.values()) {
      if (a.margin <= 0) continue;
      const level = (a.equity / a.margin) * 100;
      const last = this.marginAlerted.get(a.id) ?? 0;
      if (level < 150 && nowS - last > 3600) {
        this.marginAlerted.set(a.id, nowS);
        rows.push(['margin', `Margin level on ${a.account_name} fell to ${Math.round(level)} % (alert below 150 %).`, a.id]);
      }
    }
    const stale = [...this.accounts.values()].find((a) => a.account_name === STALE_ACCOUNT);
    if (stale) {
      const silent = nowS - stale.last_update;
      if (silent > 180 && !this.staleAlerted) {
        this.staleAlerted = true;
        rows.push(['ping', `No update from ${stale.account_name} for ${Math.round(silent / 60)} minutes (${stale.broker.broker_name}).`, stale.id]);
      } else if (silent < 60) this.staleAlerted = false;
    }
    for (const [type, message, accountId] of rows) {
      await this.db.query('INSERT INTO alerts (type, message, datetime, account_id) VALUES ($1, $2, $3, $4)', [
        type,
        message,
        new Date(nowS * 1000),
        accountId,
      ]);
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
        const inst = this.rng.pick(INSTRUMENTS.filter((i) => i.market === market));
        const type: Side = this.rng.chance(0.5) ? 'Buy' : 'Sell';
        const qty = market === 'Forex' ? Number(this.rng.range(0.5, 3).toFixed(2)) : this.rng.int(50, 400);
        await this.openNow(m, inst.symbol, type, qty, null, this.options.now() / 1000);
      }
    }
  }

  // ---- opening, copying, closing ---------------------------------------------------------------

  /** A master opens a trade (tests drive masters through this). Copies follow when copying is on. */
  openMasterTrade(masterId: number, symbol: string, type: Side, quantity: number): Promise<LivePosition> {
    return this.serial.run(async () => {
      const m = this.accounts.get(masterId);
      if (!m?.is_master) throw new Error(`account ${masterId} is not a master`);
      const p = await this.openNow(m, symbol, type, quantity, null, this.options.now() / 1000);
      this.updateAccounts(this.options.now() / 1000);
      this.publish();
      return p;
    });
  }

  private async openNow(
    acct: LiveAccount,
    symbol: string,
    type: Side,
    quantity: number,
    masterPositionId: number | null,
    openedAt: number,
    midOverride?: number,
  ): Promise<LivePosition> {
    const inst = instrument(symbol);
    const mid = midOverride ?? this.mids.get(symbol)!;
    const open = entryPrice(inst, mid, acct.broker, type, this.rng.normal() * 0.15);
    const mark = exitPrice(inst, this.mids.get(symbol)!, acct.broker, type);
    const position: Omit<LivePosition, 'id'> = {
      account_id: acct.id,
      master_position_id: masterPositionId,
      symbol,
      type,
      category: inst.market,
      quantity,
      price_open: open,
      price_current: mark,
      price_low: Math.min(open, mark),
      price_high: Math.max(open, mark),
      sl: null,
      tp: null,
      profit: cents(pnlInCurrency(inst, type, open, mark, quantity, acct.currency, this.mids)),
      swap: 0,
      commission: cents(commissionFor(inst, acct.broker, quantity, acct.currency, this.mids)),
      fee: cents(feeFor(inst, quantity, open, acct.currency, this.mids)),
      exec_duration_ms: Math.round(acct.broker.latency_ms * this.rng.range(0.7, 1.6) + (masterPositionId ? 15 : 0)),
      opened_at: Math.floor(openedAt),
    };
    const rows = await this.db.query<{ id: number }>(
      `INSERT INTO positions (account_id, master_position_id, symbol, type, category, quantity, price_open, price_current,
         price_low, price_high, sl, tp, profit, swap, commission, fee, exec_duration_ms, opened_at)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18) RETURNING id`,
      [
        position.account_id, position.master_position_id, symbol, type, position.category, quantity, open, mark,
        position.price_low, position.price_high, null, null, position.profit, 0, position.commission, position.fee,
        position.exec_duration_ms, new Date(position.opened_at * 1000),
      ],
    );
    const created: LivePosition = { ...position, id: rows[0]!.id };
    this.positions.set(created.id, created);
    if (acct.is_master && this.copying) await this.copyToFollowers(acct, created, midOverride);
    return created;
  }

  private async copyToFollowers(master: LiveAccount, p: LivePosition, midOverride?: number): Promise<void> {
    const allowed = this.rules.get(master.id);
    if (!allowed?.has(p.symbol)) return;
    for (const f of this.accounts.values()) {
      if (f.master_id !== master.id) continue;
      const qty =
        p.category === 'Forex'
          ? Math.max(0.01, Number((p.quantity * f.copy_ratio).toFixed(2)))
          : Math.max(1, Math.round(p.quantity * f.copy_ratio));
      const copy = await this.openNow(f, p.symbol, p.type, qty, p.id, p.opened_at, midOverride);
      if (p.sl !== null || p.tp !== null) {
        copy.sl = p.sl;
        copy.tp = p.tp;
        await this.db.query('UPDATE positions SET sl = $2, tp = $3 WHERE id = $1', [copy.id, p.sl, p.tp]);
      }
    }
  }

  private async closeNow(ids: readonly number[], inTx?: InTransaction): Promise<number> {
    const targets = new Set<number>();
    for (const id of ids) {
      const p = this.positions.get(id);
      if (!p) continue;
      targets.add(id);
      // A master's exit is copied while copying is on.
      if (this.copying && this.accounts.get(p.account_id)?.is_master) {
        for (const c of this.positions.values()) if (c.master_position_id === id) targets.add(c.id);
      }
    }
    if (targets.size === 0) return 0;
    const now = this.options.now();
    await this.db.transaction(async (tx) => {
      for (const id of targets) {
        const p = this.positions.get(id)!;
        const acct = this.accounts.get(p.account_id)!;
        const inst = instrument(p.symbol);
        const close = exitPrice(inst, this.mids.get(p.symbol)!, acct.broker, p.type);
        const profit = cents(pnlInCurrency(inst, p.type, p.price_open, close, p.quantity, acct.currency, this.mids));
        const ex = excursion(p.type, p.price_open, Math.min(p.price_low, close), Math.max(p.price_high, close));
        const rebate = cents(rebateFor(inst, acct.broker, p.quantity, acct.currency, this.mids));
        await tx.query('DELETE FROM positions WHERE id = $1', [id]);
        await tx.query(
          `INSERT INTO deals (account_id, kind, symbol, type, category, quantity, open_price, close_price, opened_at,
             datetime, profit, swap, commission, fee, rebate, mae, mfe, exec_duration_ms)
           VALUES ($1, 'trade', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
          [
            acct.id, p.symbol, p.type, p.category, p.quantity, p.price_open, close, new Date(p.opened_at * 1000),
            new Date(now), profit, p.swap, p.commission, p.fee, rebate, ex.mae, ex.mfe, p.exec_duration_ms,
          ],
        );
        const net = cents(profit + p.swap + p.commission + p.fee);
        acct.balance = cents(acct.balance + net);
        await tx.query('UPDATE accounts SET balance = balance + $2 WHERE id = $1', [acct.id, net]);
        await tx.query(
          `INSERT INTO rebates (account_id, month, lots, total_rebate, balance) VALUES ($1, date_trunc('month', $2::timestamptz)::date, $3, $4, $5)
           ON CONFLICT (account_id, month) DO UPDATE SET lots = rebates.lots + EXCLUDED.lots,
             total_rebate = rebates.total_rebate + EXCLUDED.total_rebate, balance = EXCLUDED.balance`,
          [acct.id, new Date(now), p.quantity, rebate, acct.balance],
        );
      }
      await inTx?.(tx);
    });
    for (const id of targets) this.positions.delete(id);
    this.dealsVersion++;
    return targets.size;
  }

  async close(positionIds: readonly number[], inTx?: InTransaction): Promise<number> {
    this.assertRunning();
    return this.serial.run(async () => {
      const n = await this.closeNow(positionIds, inTx);
      this.updateAccounts(this.options.now() / 1000);
      this.publish();
      return n;
    });
  }

  async modifyStops(
    positionIds: readonly number[],
    takeProfit: number | null,
    stopLoss: number | null,
    inTx?: InTransaction,
  ): Promise<number> {
    this.assertRunning();
    return this.serial.run(async () => {
      const ids = new Set(positionIds.filter((id) => this.positions.has(id)));
      if (this.copying) {
        for (const id of [...ids]) {
          if (!this.accounts.get(this.positions.get(id)!.account_id)?.is_master) continue;
          for (const c of this.positions.values()) if (c.master_position_id === id) ids.add(c.id);
        }
      }
      if (ids.size) {
        await this.db.transaction(async (tx) => {
          await tx.query('UPDATE positions SET tp = $2, sl = $3 WHERE id = ANY($1::bigint[])', [[...ids], takeProfit, stopLoss]);
          await inTx?.(tx);
        });
      }
      for (const id of ids) {
        const p = this.positions.get(id)!;
        p.tp = takeProfit;
        p.sl = stopLoss;
      }
      this.publish();
      return ids.size;
    });
  }

  /** Bridge on: copying resumes and copies whose master position closed meanwhile are closed. */
  async setCopying(running: boolean): Promise<void> {
    await this.serial.run(async () => {
      this.copying = running;
      if (running) {
        const orphans = [...this.positions.values()].filter(
          (p) => p.master_position_id !== null && !this.positions.has(p.master_position_id),
        );
        await this.closeNow(orphans.map((p) => p.id));
      }
      this.publish();
    });
  }

  // ---- persistence -----------------------------------------------------------------------------

  private async flush(): Promise<void> {
    const ps = [...this.positions.values()];
    if (ps.length) {
      await this.db.query(
        `UPDATE positions p SET price_current = u.cur, price_low = u.low, price_high = u.high, profit = u.profit, swap = u.swap
         FROM unnest($1::bigint[], $2::numeric[], $3::numeric[], $4::numeric[], $5::numeric[], $6::numeric[])
           AS u(id, cur, low, high, profit, swap) WHERE p.id = u.id`,
        [
          ps.map((p) => p.id),
          ps.map((p) => p.price_current),
          ps.map((p) => p.price_low),
          ps.map((p) => p.price_high),
          ps.map((p) => p.profit),
          ps.map((p) => p.swap),
        ],
      );
    }
    const as = [...this.accounts.values()];
    await this.db.query(
      `UPDATE accounts a SET equity = u.equity, margin = u.margin, ping = u.ping, last_update = to_timestamp(u.seen)
       FROM unnest($1::int[], $2::numeric[], $3::numeric[], $4::int[], $5::float8[]) AS u(id, equity, margin, ping, seen)
       WHERE a.id = u.id`,
      [as.map((a) => a.id), as.map((a) => a.equity), as.map((a) => a.margin), as.map((a) => a.ping), as.map((a) => a.last_update)],
    );
    await this.db.query(
      `INSERT INTO market_state (key, value) VALUES ('live', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [JSON.stringify({ mids: Object.fromEntries(this.mids), at: this.lastTick, rng: this.rng.seedState })],
    );
  }

  private async snapshotNav(day: number): Promise<void> {
    const as = [...this.accounts.values()];
    await this.db.query(
      `INSERT INTO nav_snapshots (account_id, day, balance, equity, taken_at)
       SELECT u.id, $1::date, u.balance, u.equity, $2 FROM unnest($3::int[], $4::numeric[], $5::numeric[]) AS u(id, balance, equity)
       ON CONFLICT (account_id, day) DO NOTHING`,
      [new Date(day * DAY_S * 1000), new Date((day + 1) * DAY_S * 1000), as.map((a) => a.id), as.map((a) => a.balance), as.map((a) => a.equity)],
    );
  }

  /** Month end: profit sharing on the high-water mark (DOMAIN.md H1). */
  private async settleMonth(lastDay: number): Promise<void> {
    const month = new Date(Date.UTC(new Date(lastDay * DAY_S * 1000).getUTCFullYear(), new Date(lastDay * DAY_S * 1000).getUTCMonth(), 1));
    for (const a of this.accounts.values()) {
      const hwmRows = await this.db.query<{ hwm: number }>('SELECT hwm FROM accounts WHERE id = $1', [a.id]);
      const rate = PROFIT_SHARING_RATE[a.teiko_category as Category] ?? 0.2;
      const settled = settleProfitSharing(rate, a.equity, hwmRows[0]?.hwm ?? a.balance);
      await this.db.query('UPDATE accounts SET hwm = $2 WHERE id = $1', [a.id, settled.hwm]);
      await this.db.query(
        `INSERT INTO rebates (account_id, month, profit_sharing_amount, balance) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account_id, month) DO UPDATE SET profit_sharing_amount = EXCLUDED.profit_sharing_amount, balance = EXCLUDED.balance`,
        [a.id, month, settled.fee, a.balance],
      );
    }
  }

  /** First start: each master holds a few trades opened in the last hours, copied to its followers. */
  private async seedOpenPositions(): Promise<void> {
    const nowS = this.options.now() / 1000;
    for (const m of this.accounts.values()) {
      if (!m.is_master) continue;
      const market = this.marketOf.get(m.id) ?? 'Forex';
      const universe = INSTRUMENTS.filter((i) => i.market === market);
      const allowed = [...(this.rules.get(m.id) ?? [])];
      const count = this.rng.int(3, 5);
      for (let k = 0; k < count; k++) {
        // Mostly allowed pairs, so followers hold copies; now and then one the rules keep to the master.
        const symbol = k < count - 1 && allowed.length ? this.rng.pick(allowed) : this.rng.pick(universe).symbol;
        const inst = instrument(symbol);
        const type: Side = this.rng.chance(0.5) ? 'Buy' : 'Sell';
        const qty = market === 'Forex' ? Number(this.rng.range(0.5, 3).toFixed(2)) : this.rng.int(50, 400);
        const drift = 1 + this.rng.normal() * inst.vol * 0.01;
        await this.openNow(m, symbol, type, qty, null, nowS - this.rng.int(600, 6 * 3600), (this.mids.get(symbol) ?? inst.price) * drift);
      }
    }
    this.updateAccounts(nowS);
    await this.flush();
  }
}
