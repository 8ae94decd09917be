import { markAfterFlow, markOf, measure, stepGuard, type GuardEvent, type GuardRule, type GuardState } from '#shared/domain/guards.ts';
import type { LiveAccount, LivePosition, MarketSnapshot } from '#server/broker/port.ts';
import { insertAlerts } from '#server/db/alerts-repo.ts';
import { auditSystem } from '#server/db/audit-repo.ts';
import type { Relation } from '#server/db/copy-relations-repo.ts';
import type { Database } from '#server/db/database.ts';
import { allGuards, guardInputs, insertRiskEvents, saveMeasurement, type GuardRow, type RiskEvent } from '#server/db/guards-repo.ts';
import type { NewAlert } from '#server/ledger/port.ts';
import { formatMoney } from '#shared/format/money.ts';
import { formatPrice, formatQuantity } from '#shared/format/numbers.ts';

/** Guards are measured at most this often (each snapshot is about a second apart). */
const MEASURE_MS = 1_000;
/** A measure that moved nothing is stored at most this often (the last value the API shows). */
const STORE_VALUE_MS = 10_000;

/** What the copy engine must do after a measurement: close every copy of these relations (a close-all level reached). */
export interface GuardActions {
  closeAll: { guard: GuardRow; relationIds: number[] }[];
}

const ruleOf = (g: GuardRow): GuardRule => ({ basis: g.basis, unit: g.unit, period: g.period, levels: { warn: g.warn, closeOnly: g.closeOnly, closeAll: g.closeAll } });

const SEVERITY: Record<GuardState, number> = { armed: 0, warned: 0, close_only: 1, closed: 2 };

const LEVEL_WORDS: Record<Exclude<GuardEvent, 'warn_rearmed'>, string> = {
  warn: 'reached its warning level',
  close_only: 'reached its close-only level: no new copies; the master\'s closes and stop edits are still copied',
  close_all: 'reached its close-all level: every copy in it is being closed and copying is disabled',
};

const BASIS_WORDS: Record<GuardRule['basis'], string> = {
  equity_floor: 'equity floor',
  loss_from_start: 'loss from start',
  trailing_from_peak: 'fall from peak',
  period_loss: 'period loss',
  profit_target: 'profit target',
};

/**
 * Measures the copy guards (src/shared/domain/guards.ts) on the leader's snapshots: each guard's scope
 * equity — a follower's or master's account equity; a relation's, the follower's equity when the guard
 * started plus its copies' result since (closed and floating) — its mark moved by the scope's cash flows,
 * and what each measurement does to its state. Every level reached is stored in the same transaction as
 * its risk event, its alert (and so its push) and an audit row; the copy engine reads which relations
 * copy no new trade (close-only, closed) and closes every copy of a guard that reached close-all.
 */
export class GuardKeeper {
  private guards: GuardRow[] = [];
  private lastMeasured = 0;
  private measuring = false;
  private readonly stored = new Map<number, number>();

  constructor(
    private readonly db: Database,
    private readonly onError: (err: unknown) => void,
  ) {}

  async reload(): Promise<void> {
    this.guards = await allGuards(this.db);
  }

  /** The guards that govern a relation: its own, its follower's, and its master's. */
  private governing(relation: Relation): GuardRow[] {
    return this.guards.filter(
      (g) =>
        (g.scope === 'relation' && g.relationId === relation.id) ||
        (g.scope === 'follower' && g.accountId === relation.followerId) ||
        (g.scope === 'master' && g.accountId === relation.masterId),
    );
  }

  /** The most severe state of the guards governing a relation, with the guard in it (null: copying goes on). */
  blocking(relation: Relation): { state: 'close_only' | 'closed'; guard: GuardRow } | null {
    let worst: GuardRow | null = null;
    for (const g of this.governing(relation)) if (SEVERITY[g.state] > 0 && (!worst || SEVERITY[g.state] > SEVERITY[worst.state])) worst = g;
    return worst ? { state: worst.state as 'close_only' | 'closed', guard: worst } : null;
  }

  /**
   * Measures every guard on this snapshot (at most once a second) and stores what changed; answers the
   * close-all actions to take. Never throws: a failure is told and the next snapshot measures again.
   */
  async measure(snapshot: MarketSnapshot, relations: readonly Relation[], force = false): Promise<GuardActions> {
    const none: GuardActions = { closeAll: [] };
    if (this.guards.length === 0 || this.measuring || (!force && snapshot.at - this.lastMeasured < MEASURE_MS)) return none;
    this.measuring = true;
    this.lastMeasured = snapshot.at;
    try {
      return await this.measureNow(snapshot, relations);
    } catch (err) {
      this.onError(err);
      return none;
    } finally {
      this.measuring = false;
    }
  }

  private async measureNow(snapshot: MarketSnapshot, relations: readonly Relation[]): Promise<GuardActions> {
    const at = new Date(snapshot.at);
    const nowS = Math.floor(snapshot.at / 1000);
    const relationById = new Map(relations.map((r) => [r.id, r]));
    const inputs = await guardInputs(this.db, this.guards.map((g) => g.id));
    const actions: GuardActions = { closeAll: [] };
    for (const guard of this.guards) {
      const scope = this.scopeOf(guard, relationById);
      if (!scope) continue;
      const account = snapshot.accounts.get(scope.accountId);
      if (!account) continue;
      const input = inputs.get(guard.id) ?? { closed: 0, flows: 0, flowsUntil: null };
      const rule = ruleOf(guard);
      // A relation guard without a base yet (set from the CLI, or re-armed afresh) starts from the follower's equity now.
      if (guard.scope === 'relation' && guard.basis !== 'equity_floor' && guard.base === null) {
        guard.base = account.equity - input.closed - this.copiesFloating(guard, account, snapshot);
      }
      const equity = guard.scope === 'relation' ? this.relationEquity(guard, account, snapshot, input.closed) : account.equity;
      const flowed = input.flows === 0 ? guard.mark : markAfterFlow(rule, guard.mark, input.flows);
      const { mark, periodStart } = markOf(rule, { state: guard.state, mark: flowed, periodStart: guard.periodStart }, equity, nowS);
      const value = measure(rule, mark, equity);
      const step = stepGuard(rule, guard.state, value);
      const changed = step.state !== guard.state || mark !== guard.mark || periodStart !== guard.periodStart || input.flowsUntil !== null;
      const due = snapshot.at - (this.stored.get(guard.id) ?? 0) >= STORE_VALUE_MS;
      if (!changed && !due && step.events.length === 0) continue;
      const fired = SEVERITY[step.state] > SEVERITY[guard.state];
      const told = this.told(guard, step.events, account, value, nowS);
      await this.db.transaction(async (tx) => {
        await saveMeasurement(tx, guard.id, {
          state: step.state, mark, periodStart, value, at, fired, base: guard.base, flowsUntil: input.flowsUntil === null ? null : new Date(input.flowsUntil * 1000),
        });
        await insertRiskEvents(tx, told.events);
        await insertAlerts(tx, told.alerts);
        for (const e of told.events) await auditSystem(tx, `risk.guard-${e.kind}`, { guard_id: guard.id, scope: guard.scope, basis: guard.basis, account: account.account_id, value });
      });
      this.stored.set(guard.id, snapshot.at);
      Object.assign(guard, { state: step.state, mark, periodStart, lastValue: value, measuredAt: nowS, ...(fired ? { firedAt: nowS } : {}) });
      if (step.events.includes('close_all')) actions.closeAll.push({ guard, relationIds: this.relationsOf(guard, relations) });
    }
    return actions;
  }

  /** The copies a close-all level closed: a risk event each (the position and its last price; its fill comes as its closing deal). */
  async recordCloses(guard: GuardRow, copies: readonly LivePosition[], closed: number, snapshot: MarketSnapshot): Promise<void> {
    const at = new Date(snapshot.at);
    const events: RiskEvent[] = copies.map((p) => {
      const account = snapshot.accounts.get(p.account_id);
      return {
        guardId: guard.id,
        accountId: p.account_id,
        at,
        kind: 'close',
        value: p.profit,
        message: `Closed by its guard: ${p.type} ${formatQuantity(p.quantity)} ${p.symbol} of ${account?.account_name ?? p.account_id} at about ${formatPrice(p.price_current, p.symbol)} (${formatMoney(p.profit, account?.currency)} floating).`,
        detail: { position: p.id, symbol: p.symbol, type: p.type, quantity: p.quantity, price: p.price_current, orders_done: closed },
      };
    });
    await this.db.transaction(async (tx) => {
      await insertRiskEvents(tx, events);
      for (const e of events) await auditSystem(tx, 'risk.guard-close', { guard_id: guard.id, ...e.detail });
    });
  }

  /** The account a guard measures: the follower of a relation guard, the account itself otherwise. */
  private scopeOf(guard: GuardRow, relations: ReadonlyMap<number, Relation>): { accountId: number } | null {
    if (guard.scope !== 'relation') return guard.accountId === null ? null : { accountId: guard.accountId };
    const relation = guard.relationId === null ? undefined : relations.get(guard.relationId);
    return relation ? { accountId: relation.followerId } : null;
  }

  /** A relation's equity: the follower's equity when the guard started (its base) plus its copies' result since, closed and floating. */
  private relationEquity(guard: GuardRow, follower: LiveAccount, snapshot: MarketSnapshot, closed: number): number {
    if (guard.basis === 'equity_floor') return follower.equity;
    return (guard.base ?? follower.equity) + closed + this.copiesFloating(guard, follower, snapshot);
  }

  /** The floating result of the follower's copies opened since the guard started. */
  private copiesFloating(guard: GuardRow, follower: LiveAccount, snapshot: MarketSnapshot): number {
    return snapshot.positions
      .filter((p) => p.account_id === follower.id && p.master_position_id !== null && p.opened_at >= guard.startedAt)
      .reduce((s, p) => s + p.profit + p.swap, 0);
  }

  /** The relations a guard governs. */
  relationsOf(guard: GuardRow, relations: readonly Relation[]): number[] {
    return relations
      .filter(
        (r) =>
          (guard.scope === 'relation' && r.id === guard.relationId) ||
          (guard.scope === 'follower' && r.followerId === guard.accountId) ||
          (guard.scope === 'master' && r.masterId === guard.accountId),
      )
      .map((r) => r.id);
  }

  /** The risk events and alerts of a measurement's events: an equity floor speaks as the equity stop it was. */
  private told(guard: GuardRow, events: readonly GuardEvent[], account: LiveAccount, value: number, nowS: number): { events: RiskEvent[]; alerts: NewAlert[] } {
    const out: { events: RiskEvent[]; alerts: NewAlert[] } = { events: [], alerts: [] };
    for (const e of events) {
      if (e === 'warn_rearmed') {
        out.events.push({ guardId: guard.id, accountId: account.id, at: new Date(nowS * 1000), kind: e, value, message: `The ${BASIS_WORDS[guard.basis]} guard of ${account.account_name} recovered: its warning is armed again.` });
        continue;
      }
      const shown = guard.unit === 'money' || guard.basis === 'equity_floor' ? `${value.toFixed(2)} ${account.currency}` : `${value.toFixed(2)} %`;
      const legacy = guard.basis === 'equity_floor' && guard.scope === 'relation' && e === 'close_only';
      const message = legacy
        ? `Equity stop on ${account.account_name}: equity ${account.equity.toFixed(2)} ${account.currency} reached the stop of ${(guard.closeOnly ?? 0).toFixed(2)} ${account.currency}; copying to it is stopped.`
        : `The ${guard.scope} ${BASIS_WORDS[guard.basis]} guard of ${account.account_name} ${LEVEL_WORDS[e]} (${shown}).`;
      out.events.push({ guardId: guard.id, accountId: account.id, at: new Date(nowS * 1000), kind: e, value, message });
      out.alerts.push({ type: legacy ? 'equity_stop' : 'guard', message, at: nowS, accountId: account.id });
    }
    return out;
  }
}
