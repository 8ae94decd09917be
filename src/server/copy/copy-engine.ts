import type { Database } from '#server/db/database.ts';
import { readBridgeState } from '#server/db/bridge-repo.ts';
import { allRules } from '#server/db/copy-rules-repo.ts';
import { activeRelations, type Relation } from '#server/db/copy-relations-repo.ts';
import { GuardKeeper } from './guard-keeper.ts';
import type { BrokerAdapter, InTransaction, LiveAccount, LivePosition, MarketSnapshot, TradeEvent } from '#server/broker/port.ts';
import { copySize, lotUnitOf } from '#shared/domain/copy-lot.ts';
import { slippageBreach } from '#shared/analytics/copy-quality.ts';
import { convert } from '#shared/domain/fx.ts';
import { insertAlerts, namingMaster } from '#server/db/alerts-repo.ts';
import type { NewAlert } from '#server/ledger/port.ts';
import { handledCopies, insertCopyEvents, recordCopyOrder, type CopyEvent, type MissReason } from '#server/db/copy-repo.ts';
import { MISS_TEXT, missCallsForAlert, missReasonOf } from './miss-alerts.ts';


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
  /** The guards over the relations (graded stops; an equity stop is a relation's equity-floor guard). */
  private readonly guards: GuardKeeper;
  private copying = true;
  private unsubscribe: (() => void)[] = [];
  private reloading: NodeJS.Timeout | undefined;
  private reconciling = false;
  /** Work under way (a trade copied, a close, a record): a shutdown waits for it before the pool closes. */
  private readonly work = new Set<Promise<unknown>>();
  /** Copies whose entry was checked against the slippage threshold, and duplicates already told. */
  private readonly checked = new Set<number>();
  private readonly toldDuplicates = new Set<string>();

  constructor(
    private readonly db: Database,
    private readonly broker: BrokerAdapter,
    private readonly onError: (err: unknown) => void = () => {},
    /** Told after copy events or alerts were written (the cached answers' generation). */
    private readonly onRecorded: () => void = () => {},
  ) {
    this.guards = new GuardKeeper(db, onError);
  }

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
    // The database is the truth: a change another instance saved but could not tell (Redis lost, a
    // partition) is applied here within RELOAD_MS all the same.
    this.reloading ??= setInterval(() => {
      void this.track(Promise.all([this.reloadRules(), this.syncBridge()])).catch((err: unknown) => this.onError(err));
    }, RELOAD_MS);
    this.reloading.unref();
    if (this.unsubscribe.length) return;
    this.unsubscribe = [
      this.broker.onTrade((event) => this.track(this.onTrade(event))),
      this.broker.onUpdate((snapshot) => this.reconcile(snapshot)),
    ];
  }

  /** Follows no more trades and starts no more work (what is under way finishes: drain). */
  stop(): void {
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    clearInterval(this.reloading);
    this.reloading = undefined;
  }

  /** Resolves once the work under way has finished (after stop: before the database closes). */
  async drain(): Promise<void> {
    while (this.work.size) await Promise.allSettled([...this.work]);
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.work.add(promise);
    const done = () => this.work.delete(promise);
    promise.then(done, done);
    return promise;
  }

  get running(): boolean {
    return this.copying;
  }

  /** What this process's engine applies: 'copying' or 'paused' (the bridge off) while it runs here (it leads); null otherwise. */
  get applied(): 'copying' | 'paused' | null {
    if (this.reloading === undefined) return null;
    return this.copying ? 'copying' : 'paused';
  }

  /** The copy rules or relations (their terms, their equity stops) changed in the database. */
  async reloadRules(): Promise<void> {
    const [rules, relations] = await Promise.all([allRules(this.db), activeRelations(this.db), this.guards.reload()]);
    this.allowed = new Map(rules.map((r) => [r.master_id, new Set(r.allowed_pairs)]));
    this.byMaster = new Map();
    this.byFollower = new Map();
    for (const r of relations) {
      this.byMaster.set(r.masterId, [...(this.byMaster.get(r.masterId) ?? []), r]);
      this.byFollower.set(r.followerId, r);
    }
  }

  /**
   * Writes what went wrong with copies, each event with its alert (told once: an event recorded
   * before, by this process or another, is not alerted again), and alerts of their own; never throws
   * (copying goes on).
   */
  private async record(told: readonly { event: CopyEvent; alert: NewAlert | null }[], alerts: readonly NewAlert[] = []): Promise<void> {
    if (told.length === 0 && alerts.length === 0) return;
    try {
      await this.db.transaction(async (tx) => {
        const added = await insertCopyEvents(tx, told.map((t) => t.event));
        const fresh = told.filter((_, i) => added[i]).flatMap((t) => (t.alert ? [t.alert] : []));
        await insertAlerts(tx, [...fresh, ...alerts]);
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
        // A copy the setup chose not to make is a record on the Copy screen, not an alert (miss-alerts.ts).
        alert: missCallsForAlert(reason)
          ? {
              type: 'copy' as const,
              ...namingMaster(master, (m) => `Missed copy on ${f.account_name}: ${p.type} ${p.symbol} of ${m} was not copied (${MISS_TEXT[reason]}${message ? `: ${message}` : ''}).`),
              at: atS,
              accountId: f.id,
            }
          : null,
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
    const started = running && !this.copying;
    this.copying = running;
    if (started) this.reconcile(this.broker.snapshot());
  }

  /** Reads the bridge's state from the database and applies it; the state now applied. */
  async syncBridge(): Promise<boolean> {
    this.setCopying((await readBridgeState(this.db)).running);
    return this.copying;
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
    this.track(this.broker.close(orphans.map((p) => p.id)))
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
          ...namingMaster(master, (m) => `Duplicated copy on ${follower.account_name}: ${copies.length} copies of ${first.type} ${first.symbol} of ${m}.`),
          at: atS,
          accountId: follower.id,
        },
      });
    }
    // The guards are measured on every snapshot (a level is reached now, not only at the next master trade).
    void this.track(this.measureGuards(snapshot));
    // Forget positions no longer open, and duplicates gone.
    for (const id of this.checked) if (!byId.has(id)) this.checked.delete(id);
    for (const key of this.toldDuplicates) if (!seen.has(key)) this.toldDuplicates.delete(key);
    void this.track(this.record(duplicates, alerts));
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
    // The followers' guards as they stand now: a level reached since the last snapshot counts for this trade.
    await this.measureGuards(snapshot, true);
    for (const { account: f, relation } of followers) {
      // Its terminal holds a copy of this trade already (it reported one before the master's report came).
      if (snapshot.positions.some((c) => c.account_id === f.id && c.master_position_id === p.id)) continue;
      // A guard in close-only or closed copies no new trade (the master's closes and stop edits still are).
      const blocked = this.guards.blocking(relation);
      if (blocked) {
        const legacy = blocked.guard.scope === 'relation' && blocked.guard.basis === 'equity_floor';
        await this.missed(master, p, [f], legacy ? 'equity_stop' : blocked.state === 'closed' ? 'guard_closed' : 'guard_close_only', null, atS);
        continue;
      }
      const quantity = copySize(p.quantity, relation.terms, lotUnitOf(p.symbol), relation.terms.sizing.mode === 'equity' ? { follower: eur(f), master: eur(master) } : undefined);
      if (quantity === null) {
        await this.missed(master, p, [f], 'no_size', null, atS);
        continue;
      }
      // Recorded before it is sent: a process that dies in between never sends it twice (a restart
      // sees it handled); an order that fails is recorded as missed below.
      const order = { followerAccountId: f.id, masterAccountId: master.id, masterPositionId: p.id, symbol: p.symbol, type: p.type, quantity, at: atS };
      if (!(await recordCopyOrder(this.db, order))) continue;
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

  /**
   * Measures the guards on this snapshot (src/server/copy/guard-keeper.ts) and carries out a close-all
   * level reached: every copy of the relations it governs is closed (the copies of a master guard's
   * followers, of a follower guard's account, of one relation), each close a risk event. Never throws.
   */
  private async measureGuards(snapshot: MarketSnapshot, force = false): Promise<void> {
    const actions = await this.guards.measure(snapshot, [...this.byFollower.values()], force);
    for (const { guard, relationIds } of actions.closeAll) {
      const relations = [...this.byFollower.values()].filter((r) => relationIds.includes(r.id));
      const byId = new Map(snapshot.positions.map((p) => [p.id, p]));
      const copies = snapshot.positions.filter((p) => {
        if (p.master_position_id === null) return false;
        const master = byId.get(p.master_position_id);
        return relations.some((r) => r.followerId === p.account_id && (master === undefined || master.account_id === r.masterId));
      });
      if (copies.length === 0) continue;
      try {
        const closed = await this.broker.close(copies.map((p) => p.id));
        await this.guards.recordCloses(guard, copies, closed, snapshot);
        this.onRecorded();
      } catch (err) {
        this.onError(err);
      }
    }
  }
}
