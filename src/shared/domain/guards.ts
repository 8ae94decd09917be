import { DAY_MS } from './days.ts';
/*
 * Copy guards: graded stops on copying, per relation (one master → one follower), per follower (every
 * relation into one account) or per master (every follower of one master, measured on the master's own
 * account). Pure rules: what a guard measures, and what a measurement does to its state
 * (docs/copying.md, 'Guards'; worked examples in docs/figures.md).
 */

export const GUARD_SCOPES = ['relation', 'follower', 'master'] as const;
export type GuardScope = (typeof GUARD_SCOPES)[number];

/**
 * What a guard measures, on the scope's equity E:
 * - `equity_floor`: E itself, in the account's currency; a level is reached when E falls to it.
 * - `loss_from_start`: the loss from E at the guard's start (its mark).
 * - `trailing_from_peak`: the fall from the high-water mark of E (the mark, raised by every new high).
 * - `period_loss`: the loss from E at the opening of the day, week or month under way (UTC).
 * - `profit_target`: the gain over E at the guard's start; a level is reached when the gain rises to it.
 * The loss and gain bases measure in % of the mark, or in money (`unit`).
 */
export const GUARD_BASES = ['equity_floor', 'loss_from_start', 'trailing_from_peak', 'period_loss', 'profit_target'] as const;
export type GuardBasis = (typeof GUARD_BASES)[number];
export const GUARD_PERIODS = ['day', 'week', 'month'] as const;
export type GuardPeriod = (typeof GUARD_PERIODS)[number];
export type GuardUnit = 'percent' | 'money';

/**
 * Where a guard is: `armed`; `warned` (the warn level reached: an alert, copying goes on); `close_only`
 * (no new copies; the master's closes, partial closes and SL/TP edits are still mirrored);
 * `closed` (every copy in scope closed, copying disabled). Only a write user's re-arm brings a guard
 * from close_only or closed back to armed.
 */
export const GUARD_STATES = ['armed', 'warned', 'close_only', 'closed'] as const;
export type GuardState = (typeof GUARD_STATES)[number];

/** A guard's levels, in its unit (an equity floor in money); null: that level is not set. */
export interface GuardLevels {
  warn: number | null;
  closeOnly: number | null;
  closeAll: number | null;
}

export interface GuardRule {
  basis: GuardBasis;
  unit: GuardUnit;
  period: GuardPeriod | null;
  levels: GuardLevels;
}

/** What a guard remembers between measurements. */
export interface GuardMemory {
  state: GuardState;
  /** The mark its measure is taken from (start equity, high-water mark, period opening); null before the first measurement. */
  mark: number | null;
  /** The period the mark opens (period_loss): its first day, 'YYYY-MM-DD'. */
  periodStart: string | null;
}

/** A level reached, or the warn level re-armed by a recovery. */
export type GuardEvent = 'warn' | 'close_only' | 'close_all' | 'warn_rearmed';


/** The first day (UTC, 'YYYY-MM-DD') of the period under way at `nowS`: the day, the week (from Monday) or the month. */
export function periodStartOf(period: GuardPeriod, nowS: number): string {
  const d = new Date(Math.floor((nowS * 1000) / DAY_MS) * DAY_MS);
  if (period === 'week') d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  if (period === 'month') d.setUTCDate(1);
  return d.toISOString().slice(0, 10);
}

/**
 * The mark before measuring E at `nowS`: the first measurement sets it to E; the trailing mark rises
 * with every new high of E; a period's mark is E at the first measurement of each new period.
 */
export function markOf(rule: GuardRule, memory: GuardMemory, equity: number, nowS: number): { mark: number; periodStart: string | null } {
  if (rule.basis === 'period_loss') {
    const start = periodStartOf(rule.period ?? 'day', nowS);
    if (memory.mark === null || memory.periodStart !== start) return { mark: equity, periodStart: start };
    return { mark: memory.mark, periodStart: start };
  }
  if (memory.mark === null) return { mark: equity, periodStart: null };
  if (rule.basis === 'trailing_from_peak') return { mark: Math.max(memory.mark, equity), periodStart: null };
  return { mark: memory.mark, periodStart: null };
}

/** The measure of E against the mark, in the guard's unit (an equity floor: E itself). */
export function measure(rule: GuardRule, mark: number, equity: number): number {
  if (rule.basis === 'equity_floor') return equity;
  const moved = rule.basis === 'profit_target' ? equity - mark : mark - equity;
  if (rule.unit === 'money') return moved;
  return mark > 0 ? (moved / mark) * 100 : 0;
}

/** Whether the measure has reached `level` (an equity floor is reached from above; the others from below). */
export const reached = (rule: GuardRule, value: number, level: number | null): boolean =>
  level !== null && (rule.basis === 'equity_floor' ? value <= level : value >= level);

/**
 * How far back from the warn level the measure must come to re-arm it: 1 point for a guard in %, 1 % of
 * the level for one in money [ours].
 */
function recovered(rule: GuardRule, value: number, warn: number): boolean {
  const margin = rule.unit === 'percent' && rule.basis !== 'equity_floor' ? 1 : Math.abs(warn) * 0.01;
  return rule.basis === 'equity_floor' ? value >= warn + margin : value <= warn - margin;
}

/**
 * One measurement: the new state and what happened. Levels are taken from the most severe down; a
 * guard never steps back from close_only or closed by itself, and warns again only once the measure
 * has recovered from the warn level.
 */
export function stepGuard(rule: GuardRule, state: GuardState, value: number): { state: GuardState; events: GuardEvent[] } {
  if (state === 'closed') return { state, events: [] };
  const { warn, closeOnly, closeAll } = rule.levels;
  if (reached(rule, value, closeAll)) return { state: 'closed', events: ['close_all'] };
  if (state === 'close_only') return { state, events: [] };
  if (reached(rule, value, closeOnly)) return { state: 'close_only', events: ['close_only'] };
  if (state === 'armed' && reached(rule, value, warn)) return { state: 'warned', events: ['warn'] };
  if (state === 'warned' && warn !== null && recovered(rule, value, warn)) return { state: 'armed', events: ['warn_rearmed'] };
  return { state, events: [] };
}

/** A cash flow into (positive) or out of the scope moves the mark by its amount, as the fee rules move the high-water mark [ours]. */
export function markAfterFlow(rule: GuardRule, mark: number | null, amount: number): number | null {
  if (mark === null || rule.basis === 'equity_floor') return mark;
  return Math.max(0, mark + amount);
}
