import { Listeners } from './listeners.ts';
import type { BrokerAdapter, InTransaction, LivePosition, MarketSnapshot, OpenOrder, TradeEvent } from '#server/broker/port.ts';

/**
 * Several broker adapters as one (the simulated market beside the terminal agents): one snapshot
 * of all their accounts and positions, and each order sent to the adapter that holds its account.
 */
export class CompositeBroker implements BrokerAdapter {
  private current: MarketSnapshot;
  private readonly listeners = new Listeners<MarketSnapshot>();

  constructor(readonly parts: readonly BrokerAdapter[]) {
    this.current = this.merge();
    for (const part of parts) {
      part.onUpdate(() => {
        this.current = this.merge();
        this.listeners.notify(this.current);
      });
    }
  }

  private merge(): MarketSnapshot {
    const snaps = this.parts.map((p) => p.snapshot());
    const union = <K, V>(maps: ReadonlyMap<K, V>[]) => {
      const out = new Map<K, V>();
      // The first adapter's entry wins (the simulated market's rates over a terminal's partial quotes).
      for (const m of [...maps].reverse()) for (const [k, v] of m) out.set(k, v);
      return out;
    };
    return {
      at: Math.max(0, ...snaps.map((s) => s.at)),
      seq: snaps.reduce((n, s) => n + s.seq, 0),
      instruments: union(snaps.map((s) => s.instruments)),
      rates: union(snaps.map((s) => s.rates)),
      mids: union(snaps.map((s) => s.mids)),
      accounts: union(snaps.map((s) => s.accounts)),
      positions: snaps.flatMap((s) => s.positions),
    };
  }

  async start(): Promise<void> {
    for (const p of this.parts) await p.start();
    this.current = this.merge();
  }

  async stop(): Promise<void> {
    for (const p of this.parts) await p.stop();
  }

  pause(): void {
    for (const p of this.parts) p.pause();
  }

  async resume(): Promise<void> {
    for (const p of this.parts) await p.resume();
  }

  get ticks(): number {
    return this.parts.reduce((n, p) => n + p.ticks, 0);
  }

  snapshot(): MarketSnapshot {
    return this.current;
  }

  onUpdate(listener: (s: MarketSnapshot) => void): () => void {
    return this.listeners.add(listener);
  }

  onTrade(listener: (e: TradeEvent) => Promise<void>): () => void {
    const offs = this.parts.map((p) => p.onTrade(listener));
    return () => offs.forEach((off) => off());
  }

  private ownerOfAccount(accountId: number): BrokerAdapter | undefined {
    return this.parts.find((p) => p.snapshot().accounts.has(accountId));
  }

  open(order: OpenOrder): Promise<void> {
    const owner = this.ownerOfAccount(order.accountId);
    if (!owner) return Promise.reject(new Error(`no broker holds the account ${order.accountId}`));
    return owner.open(order);
  }

  /** Orders on positions, split by the adapter that holds them; the audit row goes with the first. */
  private async split(ids: readonly number[], act: (part: BrokerAdapter, ids: number[], inTx?: InTransaction) => Promise<number>, inTx?: InTransaction): Promise<number> {
    const byPart = new Map<BrokerAdapter, number[]>();
    for (const part of this.parts) {
      const held = new Set(part.snapshot().positions.map((p: LivePosition) => p.id));
      const mine = ids.filter((id) => held.has(id));
      if (mine.length) byPart.set(part, mine);
    }
    let n = 0;
    let audit = inTx;
    for (const [part, mine] of byPart) {
      n += await act(part, mine, audit);
      audit = undefined;
    }
    return n;
  }

  modifyStops(positionIds: readonly number[], takeProfit: number | null, stopLoss: number | null, inTx?: InTransaction): Promise<number> {
    return this.split(positionIds, (part, ids, tx) => part.modifyStops(ids, takeProfit, stopLoss, tx), inTx);
  }

  close(positionIds: readonly number[], inTx?: InTransaction): Promise<number> {
    return this.split(positionIds, (part, ids, tx) => part.close(ids, tx), inTx);
  }
}
