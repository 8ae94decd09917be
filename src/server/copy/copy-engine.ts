import type { Database } from '#server/db/database.ts';
import { readBridgeState } from '#server/db/bridge-repo.ts';
import { allRules } from '#server/db/copy-rules-repo.ts';
import { activeRelations, markEquityStopped, type Relation } from '#server/db/copy-relations-repo.ts';
import type { BrokerAdapter, InTransaction, LiveAccount, LivePosition, MarketSnapshot, TradeEvent } from '#server/broker/port.ts';
import { copySize, lotUnitOf } from '#shared/domain/copy-lot.ts';
import { slippageBreach } from '#shared/analytics/copy-quality.ts';
import { convert } from '#shared/domain/fx.ts';
import { insertAlerts } from '#server/db/alerts-repo.ts';
import type { NewAlert } from '#server/ledger/port.ts';
import { handledCopies, insertCopyEvents, type CopyEvent, type MissReason } from '#server/db/copy-repo.ts';
import { NoTerminal } from '#server/broker/errors.ts';

/** Why a copy order failed, from the adapter's refusal. */
export function missReasonOf(err: unknown): { reason: MissReason; message: string } {
  const message = err instanceof Error ? err.message : String(err);
  if (/margin/i.test(message)) return { reason: 'no_margin', message };
  if (err instanceof NoTerminal) return { reason: 'agent_offline', message };
  return { reason: 'rejected', message };
}

/**
 * A master trade opened while no process copied (a restart, the leader's takeover) is copied when
 * copying starts if it opened at most this long ago; an older one is recorded as missed.
 */
export const COPY_CATCH_UP_S = 10 * 60;
/** How far back copying looks for master trades left unhandled while no process copied. */
const CATCH_UP_LOOKBACK_S = 7 * 86_400;

/**
 * The rules and relations are read again this often, whatever told the engine: a change made with
 * the admin CLI (another process) reaches a running server within this time.
 */
const RELOAD_MS = 5_000;

const MISS_TEXT: Record<MissReason, string> = {
  pair_not_allowed: 'the pair is not allowed by the copy rule',
  bridge_off: 'the data bridge was stopped',
  agent_offline: "the follower's terminal is not connected",
  server_down: 'no server was copying when it opened, and it opened too long ago to copy now',
  rejected: 'the order was rejected',
  no_margin: 'not enough margin',
  equity_stop: "the follower's equity stop has fired",
  no_size: 'its size could not be computed (an equity in EUR is unknown or not positive)',
};

/** Copies whose master position is no longer open. */
export function orphanCopies(positions: readonly LivePosition[]): LivePosition[] {
  const open = new Set(positions.map((p) => p.id));
  return positions.filter((p) => p.master_position_id !== null && !open.has(p.master_position_id));
}

/** These positions and their copies (a copy follows its master position, whatever relation made it). */
export function withCopies(snapshot: MarketSnapshot, ids: readonly number[]): number[] {
  const open = new Set(snapshot.positions.map((p) => p.id));
  const targets = new Set(ids.filter((id) => open.has(id)));
  const masters = new Set(targets);
  for (const p of snapshot.positions) if (p.master_position_id !== null && masters.has(p.master_position_id)) targets.add(p.id);
  return [...targets];
}

/**
 * Copies masters to their followers over any broker adapter, by the copy relations
 * (docs/copying.md): a master's trade opened → the same trade on each follower, sized by its
 * relation, when the master's copy rule allows the symbol and the bridge runs; a master's trade
 * closed, or its stops changed, → the same on the copies. With the bridge off nothing is copied. A
 * master's close and its copies' closes are separate orders, as on real terminals; whenever the
 * bridge runs, copies whose master trade is known closed (closed while the bridge was off, or left
 * by a failure between the two orders) are closed at the next update. A copy stays tied to its
 * master trade to its end, even when its relation ended meanwhile.
 */
export class CopyEngine {
  private allowed = new Map<number, ReadonlySet<string>>();
  /** Relations in force, by master and by follower. */
  private byMaster = new Map<number, Relation[]>();
  private byFollower = new Map<number, Relation>();
  /** Relations whose equity stop fired (by relation id), as far as this process knows. */
  private readonly stopped = new Set<number>();
  private copying = true;
  private unsubscribe: (() => void)[] = [];
  private reloading: NodeJS.Timeout | undefined;
  private reconciling = false;
  /** Copies whose entry was checked against the slippage threshold, and duplicates already told. */
  private readonly checked = new Set<number>();
  private readonly toldDuplicates = new Set<string>();

  constructor(
    private readonly db: Database,
    private readonly broker: BrokerAdapter,
    private readonly onError: (err: unknown) => void = () => {},
    /** Told after copy events or alerts were written (the cached answers' generation). */
    private readonly onRecorded: () => void = () => {},
  ) {}

  /** Loads the rules, the relations and the bridge state (again after a pause) and follows the adapter's trades. */
  async start(): Promise<void> {
    await this.reloadRules();
    // What is open now was looked at by whoever ran before (this process before a pause, or the
    // leader before it died): no alert again for it.
    for (const p of this.broker.snapshot().positions) {
      if (p.master_position_id === null) continue;
      this.checked.add(p.id);
      this.toldDuplicates.add(`${p.account_id}|${p.master_position_id}`);
    }
    this.copying = (await readBridgeState(this.db)).running;
    await this.catchUp();
    this.reloading ??= setInterval(() => {
      this.reloadRules().catch((err: unknown) => this.onError(err));
    }, RELOAD_MS);
    this.reloading.unref();
    if (this.unsubscribe.length) return;
    this.unsubscribe = [
      this.broker.onTrade((event) => this.onTrade(event)),
      this.broker.onUpdate((snapshot) => this.reconcile(snapshot)),
    ];
  }

  stop(): void {
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    clearInterval(this.reloading);
    this.reloading = undefined;
  }

  get running(): boolean {
    return this.copying;
  }

  /** The copy rules or relations (their terms, their equity stops) changed in the database. */
  async reloadRules(): Promise<void> {
    const [rules, relations] = await Promise.all([allRules(this.db), activeRelations(this.db)]);
    this.allowed = new Map(rules.map((r) => [r.master_id, new Set(r.allowed_pairs)]));
    this.byMaster = new Map();
    this.byFollower = new Map();
    this.stopped.clear();
    for (const r of relations) {
      this.byMaster.set(r.masterId, [...(this.byMaster.get(r.masterId) ?? []), r]);
      this.byFollower.set(r.followerId, r);
      if (r.equityStoppedAt !== null) this.stopped.add(r.id);
    }
  }

  /**
   * Writes what went wrong with copies, each event with its alert (told once: an event recorded
   * before, by this process or another, is not alerted again), and alerts of their own; never throws
   * (copying goes on).
   */
  private async record(told: readonly { event: CopyEvent; alert: NewAlert }[], alerts: readonly NewAlert[] = []): Promise<void> {
    if (told.length === 0 && alerts.length === 0) return;
    try {
      await this.db.transaction(async (tx) => {
        const added = await insertCopyEvents(tx, told.map((t) => t.event));
        await insertAlerts(tx, [...told.filter((_, i) => added[i]).map((t) => t.alert), ...alerts]);
      });
      this.onRecorded();
    } catch (err) {
      this.onError(err);
    }
  }

  private missed(master: LiveAccount, p: LivePosition, followers: readonly LiveAccount[], reason: MissReason, message: string | null, atS: number) {
    return this.record(
      followers.map((f) => ({
        event: { at: atS, kind: 'missed', reason, message, masterAccountId: master.id, followerAccountId: f.id, masterPositionId: p.id, symbol: p.symbol, type: p.type },
        alert: {
          type: 'copy',
          message: `Missed copy on ${f.account_name}: ${p.type} ${p.symbol} of ${master.account_name} was not copied (${MISS_TEXT[reason]}${message ? `: ${message}` : ''}).`,
          at: atS,
          accountId: f.id,
        },
      })),
    );
  }

  /** The master's followers now, each with its relation. */
  private followersOf(master: LiveAccount): { account: LiveAccount; relation: Relation }[] {
    const accounts = this.broker.snapshot().accounts;
    return (this.byMaster.get(master.id) ?? []).flatMap((relation) => {
      const account = accounts.get(relation.followerId);
      return account ? [{ account, relation }] : [];
    });
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
    this.inspect(snapshot);
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

  /**
   * New copies filled past the slippage threshold, and a follower holding two copies of one master
   * position (a duplicated copy): each is recorded once, with an alert. A copy is judged once its
   * master position is known (a terminal may report its copy before the master's report arrives).
   */
  private inspect(snapshot: MarketSnapshot): void {
    const byId = new Map(snapshot.positions.map((p) => [p.id, p]));
    const duplicates: { event: CopyEvent; alert: NewAlert }[] = [];
    const alerts: NewAlert[] = [];
    const atS = Math.floor(snapshot.at / 1000);
    const seen = new Map<string, LivePosition[]>();
    for (const p of snapshot.positions) {
      if (p.master_position_id === null) continue;
      const key = `${p.account_id}|${p.master_position_id}`;
      seen.set(key, [...(seen.get(key) ?? []), p]);
      if (this.checked.has(p.id)) continue;
      const master = byId.get(p.master_position_id);
      const follower = snapshot.accounts.get(p.account_id);
      if (!master || !follower) continue;
      this.checked.add(p.id);
      const breach = slippageBreach(p.type, master.price_open, p.price_open, p.symbol, p.category);
      if (breach) {
        alerts.push({
          type: 'slippage',
          message: `Slippage on ${follower.account_name}: ${p.type} ${p.symbol} copied ${breach.worse.toFixed(1)} ${breach.unit} worse than its master (threshold ${breach.threshold} ${breach.unit}).`,
          at: atS,
          accountId: follower.id,
        });
      }
    }
    for (const [key, copies] of seen) {
      if (copies.length < 2 || this.toldDuplicates.has(key)) continue;
      this.toldDuplicates.add(key);
      const first = copies[0]!;
      const follower = snapshot.accounts.get(first.account_id);
      const masterPosition = byId.get(first.master_position_id!);
      const master = masterPosition ? snapshot.accounts.get(masterPosition.account_id) : undefined;
      if (!follower || !master) continue;
      duplicates.push({
        event: {
          at: atS, kind: 'duplicate', reason: 'duplicate', message: `${copies.length} copies of one master trade`, masterAccountId: master.id,
          followerAccountId: follower.id, masterPositionId: first.master_position_id!, symbol: first.symbol, type: first.type,
        },
        alert: {
          type: 'copy',
          message: `Duplicated copy on ${follower.account_name}: ${copies.length} copies of ${first.type} ${first.symbol} of ${master.account_name}.`,
          at: atS,
          accountId: follower.id,
        },
      });
    }
    // A follower's equity at its stop fires the stop now, not only at its next master trade.
    for (const relation of this.byFollower.values()) {
      const f = snapshot.accounts.get(relation.followerId);
      if (f && relation.equityStop !== null && !this.stopped.has(relation.id) && f.equity <= relation.equityStop) void this.fireStop(f, relation, atS);
    }
    // Forget positions no longer open, and duplicates gone.
    for (const id of this.checked) if (!byId.has(id)) this.checked.delete(id);
    for (const key of this.toldDuplicates) if (!seen.has(key)) this.toldDuplicates.delete(key);
    void this.record(duplicates, alerts);
  }

  /**
   * Master trades opened while no process copied them (this one restarting, or the leader that died
   * before copying them): for each follower of its relation then that has no copy, no copy order and
   * no recorded miss of it, the trade is copied now if it opened at most COPY_CATCH_UP_S ago (a
   * terminal reported it meanwhile), else recorded as missed. Trades opened before the relation
   * started are not the follower's to copy.
   */
  private async catchUp(): Promise<void> {
    const snapshot = this.broker.snapshot();
    const nowS = Math.floor(snapshot.at / 1000);
    const candidates = snapshot.positions.filter((p) => p.master_position_id === null && this.byMaster.has(p.account_id) && p.opened_at >= nowS - CATCH_UP_LOOKBACK_S);
    if (candidates.length === 0) return;
    const handled = await handledCopies(this.db, candidates.map((p) => p.id));
    for (const p of candidates) {
      const master = snapshot.accounts.get(p.account_id);
      if (!master) continue;
      const followers = this.followersOf(master).filter(
        ({ account, relation }) =>
          p.opened_at >= relation.startedAt &&
          !handled.has(`${account.id}|${p.id}`) &&
          !snapshot.positions.some((c) => c.account_id === account.id && c.master_position_id === p.id),
      );
      if (followers.length === 0) continue;
      if (!this.copying) await this.missed(master, p, followers.map((f) => f.account), 'bridge_off', null, nowS);
      else if (p.opened_at < nowS - COPY_CATCH_UP_S) await this.missed(master, p, followers.map((f) => f.account), 'server_down', null, nowS);
      else await this.copyOpen(master, p, followers);
    }
  }

  private async onTrade(event: TradeEvent): Promise<void> {
    if (event.kind === 'opened') {
      const followers = this.followersOf(event.account);
      if (followers.length === 0) return;
      if (!this.copying) {
        const atS = Math.floor(this.broker.snapshot().at / 1000);
        await this.missed(event.account, event.position, followers.map((f) => f.account), 'bridge_off', null, atS);
        return;
      }
      await this.copyOpen(event.account, event.position, followers);
      return;
    }
    if (!this.copying) return;
    const closed = new Set(event.positions.map((p) => p.id));
    const copies = this.broker.snapshot().positions.filter((p) => p.master_position_id !== null && closed.has(p.master_position_id) && !closed.has(p.id));
    if (copies.length) await this.broker.close(copies.map((p) => p.id));
  }

  private async copyOpen(master: LiveAccount, p: LivePosition, followers: { account: LiveAccount; relation: Relation }[]): Promise<void> {
    const snapshot = this.broker.snapshot();
    const atS = Math.floor(snapshot.at / 1000);
    if (!this.allowed.get(master.id)?.has(p.symbol)) {
      await this.missed(master, p, followers.map((f) => f.account), 'pair_not_allowed', null, atS);
      return;
    }
    const eur = (a: LiveAccount) => convert(a.equity, a.currency, 'EUR', snapshot.rates);
    for (const { account: f, relation } of followers) {
      // Its terminal holds a copy of this trade already (it reported one before the master's report came).
      if (snapshot.positions.some((c) => c.account_id === f.id && c.master_position_id === p.id)) continue;
      if (relation.equityStop !== null && (this.stopped.has(relation.id) || f.equity <= relation.equityStop)) {
        if (!this.stopped.has(relation.id)) await this.fireStop(f, relation, atS);
        await this.missed(master, p, [f], 'equity_stop', null, atS);
        continue;
      }
      const quantity = copySize(p.quantity, relation.terms, lotUnitOf(p.symbol), relation.terms.sizing.mode === 'equity' ? { follower: eur(f), master: eur(master) } : undefined);
      if (quantity === null) {
        await this.missed(master, p, [f], 'no_size', null, atS);
        continue;
      }
      try {
        await this.broker.open({
          accountId: f.id,
          symbol: p.symbol,
          type: p.type,
          quantity,
          masterPositionId: p.id,
          openedAt: p.opened_at,
          sl: p.sl,
          tp: p.tp,
        });
      } catch (err) {
        const { reason, message } = missReasonOf(err);
        await this.missed(master, p, [f], reason, message, atS);
      }
    }
  }

  /** A follower's equity fell to its stop: copying to it stops, with an alert, until the stop is set again. */
  private async fireStop(f: LiveAccount, relation: Relation, atS: number): Promise<void> {
    this.stopped.add(relation.id);
    try {
      if (!(await markEquityStopped(this.db, relation.id, new Date(atS * 1000)))) return;
    } catch (err) {
      this.onError(err);
      return;
    }
    const stop = relation.equityStop ?? 0;
    await this.record([], [
      {
        type: 'equity_stop',
        message: `Equity stop on ${f.account_name}: equity ${f.equity.toFixed(2)} ${f.currency} reached the stop of ${stop.toFixed(2)} ${f.currency}; copying to it is stopped.`,
        at: atS,
        accountId: f.id,
      },
    ]);
  }
}
