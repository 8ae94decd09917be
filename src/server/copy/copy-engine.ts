import type { Database } from '#server/db/database.ts';
import { readBridgeState } from '#server/db/bridge-repo.ts';
import { allRules } from '#server/db/copy-rules-repo.ts';
import type { BrokerAdapter, InTransaction, LiveAccount, LivePosition, MarketSnapshot, TradeEvent } from '#server/market/adapter.ts';
import { copyLot } from '#shared/domain/copy-lot.ts';

/** Copies whose master position is no longer open. */
export function orphanCopies(positions: readonly LivePosition[]): LivePosition[] {
  const open = new Set(positions.map((p) => p.id));
  return positions.filter((p) => p.master_position_id !== null && !open.has(p.master_position_id));
}

/** These positions and, for the masters' among them, their copies. */
export function withCopies(snapshot: MarketSnapshot, ids: readonly number[]): number[] {
  const byId = new Map(snapshot.positions.map((p) => [p.id, p]));
  const targets = new Set(ids.filter((id) => byId.has(id)));
  const masters = new Set([...targets].filter((id) => snapshot.accounts.get(byId.get(id)!.account_id)?.is_master));
  for (const p of snapshot.positions) if (p.master_position_id !== null && masters.has(p.master_position_id)) targets.add(p.id);
  return [...targets];
}

/**
 * Copies masters to their followers over any broker adapter: a master's trade opened → the same
 * trade on each follower at its ratio, when the master's copy rule allows the symbol and the bridge
 * runs; a master's trade closed, or its stops changed, → the same on the copies. With the bridge off
 * nothing is copied. A master's close and its copies' closes are separate orders, as on real
 * terminals; whenever the bridge runs, copies whose master trade is gone (closed while the bridge
 * was off, or left by a failure between the two orders) are closed at the next update.
 */
export class CopyEngine {
  private allowed = new Map<number, ReadonlySet<string>>();
  private copying = true;
  private unsubscribe: (() => void)[] = [];
  private reconciling = false;

  constructor(
    private readonly db: Database,
    private readonly broker: BrokerAdapter,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** Loads the rules and the bridge state (again after a pause) and follows the adapter's trades. */
  async start(): Promise<void> {
    await this.reloadRules();
    this.copying = (await readBridgeState(this.db)).running;
    if (this.unsubscribe.length) return;
    this.unsubscribe = [
      this.broker.onTrade((event) => this.onTrade(event)),
      this.broker.onUpdate((snapshot) => this.reconcile(snapshot)),
    ];
  }

  stop(): void {
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
  }

  get running(): boolean {
    return this.copying;
  }

  /** The copy rules changed in the database. */
  async reloadRules(): Promise<void> {
    const rules = await allRules(this.db);
    this.allowed = new Map(rules.map((r) => [r.master_id, new Set(r.allowed_pairs)]));
  }

  /** The bridge was switched; on, copies left without their master's trade are closed now. */
  setCopying(running: boolean): void {
    this.copying = running;
    if (running) this.reconcile(this.broker.snapshot());
  }

  /** Closes positions and, while copying, the copies of the masters' among them: one order. */
  close(positionIds: readonly number[], inTx?: InTransaction): Promise<number> {
    return this.broker.close(this.expand(positionIds), inTx);
  }

  /** Sets stops on positions and, while copying, on the copies of the masters' among them: one order. */
  modifyStops(positionIds: readonly number[], takeProfit: number | null, stopLoss: number | null, inTx?: InTransaction): Promise<number> {
    return this.broker.modifyStops(this.expand(positionIds), takeProfit, stopLoss, inTx);
  }

  private expand(ids: readonly number[]): number[] {
    return this.copying ? withCopies(this.broker.snapshot(), ids) : [...ids];
  }

  /** One close at a time; a failure (the market paused, the database away) is retried at the next update. */
  private reconcile(snapshot: MarketSnapshot): void {
    if (!this.copying || this.reconciling) return;
    const orphans = orphanCopies(snapshot.positions);
    if (orphans.length === 0) return;
    this.reconciling = true;
    this.broker
      .close(orphans.map((p) => p.id))
      .catch((err: unknown) => this.onError(err))
      .finally(() => {
        this.reconciling = false;
      });
  }

  private async onTrade(event: TradeEvent): Promise<void> {
    if (!this.copying) return;
    if (event.kind === 'opened') {
      if (event.account.is_master) await this.copyOpen(event.account, event.position);
      return;
    }
    const closed = new Set(event.positions.map((p) => p.id));
    const { positions, accounts } = this.broker.snapshot();
    const masters = new Set(event.positions.filter((p) => accounts.get(p.account_id)?.is_master).map((p) => p.id));
    const copies = positions.filter((p) => p.master_position_id !== null && masters.has(p.master_position_id) && !closed.has(p.id));
    if (copies.length) await this.broker.close(copies.map((p) => p.id));
  }

  private async copyOpen(master: LiveAccount, p: LivePosition): Promise<void> {
    if (!this.allowed.get(master.id)?.has(p.symbol)) return;
    for (const f of this.broker.snapshot().accounts.values()) {
      if (f.master_id !== master.id) continue;
      await this.broker.open({
        accountId: f.id,
        symbol: p.symbol,
        type: p.type,
        quantity: copyLot(p.quantity, f.copy_ratio, p.category),
        masterPositionId: p.id,
        openedAt: p.opened_at,
        sl: p.sl,
        tp: p.tp,
      });
    }
  }
}
