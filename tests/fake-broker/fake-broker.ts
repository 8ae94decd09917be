import { MarketPaused } from '#server/broker/errors.ts';
import { Listeners } from '#server/broker/listeners.ts';
import type { BrokerAdapter, BrokerInfo, LiveAccount, LivePosition, MarketSnapshot, OpenOrder, TradeEvent } from '#server/broker/port.ts';
import type { AdapterFactory } from '#server/broker/factory.ts';

const BROKER: BrokerInfo = { id: -1, broker_name: 'Fake', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 };

/** The fake's one account (an id no database row has). */
export const FAKE_ACCOUNT: LiveAccount = {
  id: -1,
  account_id: 'fake-1',
  account: '1',
  account_name: 'Fake 1',
  broker: BROKER,
  server: 'Fake-Server',
  server_name: 'Fake-Server',
  teiko_category: 'global forex',
  currency: 'EUR',
  is_master: true,
  master_id: null,
  leverage: 100,
  balance: 10_000,
  equity: 10_000,
  margin: 0,
  ping: 0,
  last_update: 0,
};

/**
 * A broker adapter in memory, for tests: one account, orders filled at 1.0 at once, no database.
 * It keeps the port's contract (tests/contract/broker-adapter.contract.ts) and nothing more.
 */
export class FakeBroker implements BrokerAdapter {
  private readonly updates = new Listeners<MarketSnapshot>();
  private readonly trades = new Listeners<TradeEvent>();
  private positions = new Map<number, LivePosition>();
  private nextId = -1;
  private paused = false;
  private seq = 0;
  ticks = 0;

  async start(): Promise<void> {
    this.publish();
  }

  async stop(): Promise<void> {
    this.paused = true;
  }

  pause(): void {
    this.paused = true;
  }

  async resume(): Promise<void> {
    this.paused = false;
    this.publish();
  }

  snapshot(): MarketSnapshot {
    return {
      at: Date.now(),
      seq: this.seq,
      instruments: new Map(),
      rates: new Map([['EUR', 1]]),
      mids: new Map(),
      accounts: new Map([[FAKE_ACCOUNT.id, FAKE_ACCOUNT]]),
      positions: [...this.positions.values()],
    };
  }

  onUpdate(listener: (snapshot: MarketSnapshot) => void): () => void {
    return this.updates.add(listener);
  }

  onTrade(listener: (event: TradeEvent) => Promise<void>): () => void {
    return this.trades.add(listener);
  }

  async open(order: OpenOrder): Promise<void> {
    if (this.paused) throw new MarketPaused();
    const position: LivePosition = {
      id: this.nextId--,
      account_id: order.accountId,
      master_position_id: order.masterPositionId,
      symbol: order.symbol,
      type: order.type,
      category: 'Forex',
      quantity: order.quantity,
      price_open: 1,
      price_current: 1,
      price_low: 1,
      price_high: 1,
      sl: order.sl ?? null,
      tp: order.tp ?? null,
      profit: 0,
      swap: 0,
      commission: 0,
      fee: 0,
      exec_duration_ms: 0,
      opened_at: order.openedAt ?? Math.floor(Date.now() / 1000),
    };
    this.positions.set(position.id, position);
    await this.trades.emit({ kind: 'opened', position, account: FAKE_ACCOUNT });
    this.publish();
  }

  async modifyStops(positionIds: readonly number[], takeProfit: number | null, stopLoss: number | null): Promise<number> {
    if (this.paused) throw new MarketPaused();
    const mine = positionIds.flatMap((id) => this.positions.get(id) ?? []);
    for (const p of mine) this.positions.set(p.id, { ...p, tp: takeProfit, sl: stopLoss });
    if (mine.length) this.publish();
    return mine.length;
  }

  async close(positionIds: readonly number[]): Promise<number> {
    if (this.paused) throw new MarketPaused();
    const closing = [...new Set(positionIds)].flatMap((id) => this.positions.get(id) ?? []);
    if (closing.length === 0) return 0;
    for (const p of closing) this.positions.delete(p.id);
    await this.trades.emit({ kind: 'closed', positions: closing });
    this.publish();
    return closing.length;
  }

  private publish(): void {
    this.seq++;
    this.ticks++;
    this.updates.notify(this.snapshot());
  }
}

/** The fake as the server's registry takes it: source 'fake'. */
export const fakeAdapter: AdapterFactory = {
  source: 'fake',
  capabilities: { feed: 'simulated', importsStatements: false, registration: null, orders: { answerTimeoutMs: 0 } },
  async create() {
    return { adapter: new FakeBroker() };
  },
};
