import type { Database } from '#server/db/database.ts';
import { readBridgeState } from '#server/db/bridge-repo.ts';
import { allRules } from '#server/db/copy-rules-repo.ts';
import type { BrokerAdapter, InTransaction, LiveAccount, LivePosition, TradeEvent } from '#server/market/adapter.ts';
import { copyLot } from '#shared/domain/copy-lot.ts';

/**
 * Copies masters to their followers over any broker adapter: a master's trade opened → the same
 * trade on each follower at its ratio, when the master's copy rule allows the symbol and the bridge
 * runs; a master's trade closed, or its stops changed, → the same on the copies. With the bridge
 * off nothing is copied; switched on again, copies whose master trade closed meanwhile are closed.
 */
export class CopyEngine {
  private allowed = new Map<number, ReadonlySet<string>>();
  private copying = true;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly db: Database,
    private readonly broker: BrokerAdapter,
  ) {}

  /** Loads the rules and the bridge state and starts following the adapter's trades. */
  async start(): Promise<void> {
    await this.reloadRules();
    this.copying = (await readBridgeState(this.db)).running;
    this.unsubscribe ??= this.broker.onTrade((event) => this.onTrade(event));
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  get running(): boolean {
    return this.copying;
  }

  /** The copy rules changed in the database. */
  async reloadRules(): Promise<void> {
    const rules = await allRules(this.db);
    this.allowed = new Map(rules.map((r) => [r.master_id, new Set(r.allowed_pairs)]));
  }

  /** The bridge was switched: on, copies left without their master's trade are closed. */
  async setCopying(running: boolean): Promise<void> {
    this.copying = running;
    if (!running) return;
    const { positions } = this.broker.snapshot();
    const open = new Set(positions.map((p) => p.id));
    const orphans = positions.filter((p) => p.master_position_id !== null && !open.has(p.master_position_id));
    if (orphans.length) await this.broker.close(orphans.map((p) => p.id));
  }

  /** Closes positions and, while copying, the copies of the masters' among them: one transaction. */
  close(positionIds: readonly number[], inTx?: InTransaction): Promise<number> {
    return this.broker.close(this.withCopies(positionIds), inTx);
  }

  /** Sets stops on positions and, while copying, on the copies of the masters' among them. */
  modifyStops(positionIds: readonly number[], takeProfit: number | null, stopLoss: number | null, inTx?: InTransaction): Promise<number> {
    return this.broker.modifyStops(this.withCopies(positionIds), takeProfit, stopLoss, inTx);
  }

  private withCopies(ids: readonly number[]): number[] {
    const { positions, accounts } = this.broker.snapshot();
    const byId = new Map(positions.map((p) => [p.id, p]));
    const targets = new Set(ids.filter((id) => byId.has(id)));
    if (this.copying) {
      const masters = new Set([...targets].filter((id) => accounts.get(byId.get(id)!.account_id)?.is_master));
      for (const p of positions) if (p.master_position_id !== null && masters.has(p.master_position_id)) targets.add(p.id);
    }
    return [...targets];
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
