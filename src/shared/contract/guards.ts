import { z } from 'zod';
import { GUARD_BASES, GUARD_PERIODS, GUARD_SCOPES, GUARD_STATES } from '#shared/domain/guards.ts';
import { EpochSeconds, Measure, Text } from './fields.ts';

/**
 * Copy guards (docs/copying.md, 'Guards'): graded stops per relation, follower or master. Levels are
 * in the guard's unit: percentages as numbers (15 for 15 %), money in the account's currency (an
 * equity floor always in money).
 */

export const GuardsQuery = z.strictObject({
  /** account_id or login of an account in the caller's portfolios: the guards that apply to it. */
  account: Text('account', 100),
});

const LEVEL = 'a level must be a positive number (percentages as 15 for 15 %)';
const Level = z.number({ error: LEVEL }).positive(LEVEL).max(1e12, LEVEL).nullable().optional();

export const SetGuardBody = z
  .strictObject({
    scope: z.enum(GUARD_SCOPES),
    /** A relation's id for `relation`; an account's account_id or login for `follower` and `master`. */
    target: z.union([z.number().int().positive(), z.string().min(1).max(100)]),
    basis: z.enum(GUARD_BASES),
    /** percent (default) or money; an equity floor is always money. */
    unit: z.enum(['percent', 'money']).optional(),
    /** day, week or month (UTC): a period loss's period, required for it and only for it. */
    period: z.enum(GUARD_PERIODS).optional(),
    warn: Level,
    close_only: Level,
    close_all: Level,
  })
  .superRefine((b, ctx) => {
    const levels = [b.warn ?? null, b.close_only ?? null, b.close_all ?? null];
    if (levels.every((l) => l === null)) ctx.addIssue({ code: 'custom', message: 'set at least one of warn, close_only, close_all', path: ['warn'] });
    if ((b.basis === 'period_loss') !== (b.period !== undefined)) {
      ctx.addIssue({ code: 'custom', message: 'period is required for a period_loss guard, and only for it', path: ['period'] });
    }
    if (b.basis === 'equity_floor' && b.unit === 'percent') ctx.addIssue({ code: 'custom', message: 'an equity floor is in money', path: ['unit'] });
    const unit = b.basis === 'equity_floor' ? 'money' : (b.unit ?? 'percent');
    if (unit === 'percent' && b.basis !== 'profit_target' && levels.some((l) => l !== null && l > 100)) {
      ctx.addIssue({ code: 'custom', message: 'a loss in % is at most 100', path: ['close_all'] });
    }
    // The levels in the order they are reached: an equity floor falls through warn, then close-only, then close-all.
    const set = levels.filter((l): l is number => l !== null);
    const ordered = set.every((l, i) => i === 0 || (b.basis === 'equity_floor' ? l < set[i - 1]! : l > set[i - 1]!));
    if (!ordered) {
      ctx.addIssue({
        code: 'custom',
        message: b.basis === 'equity_floor' ? 'an equity floor\'s levels must fall: warn > close_only > close_all' : 'the levels must rise: warn < close_only < close_all',
        path: ['close_only'],
      });
    }
  });
export type SetGuardBody = z.input<typeof SetGuardBody>;

export const GuardParams = z.strictObject({ id: z.coerce.number().int().positive() });
export const RearmGuardBody = z.strictObject({
  /** true: the guard starts afresh from today's equity (a new start, a new peak); false: it keeps its mark. */
  fresh_mark: z.boolean(),
});

const Side = z.object({ account_id: z.string(), account_name: z.string() });

export const Guard = z.object({
  id: z.number().int(),
  scope: z.enum(GUARD_SCOPES),
  /** The relation it guards (relation scope), with both accounts. */
  relation: z.object({ id: z.number().int(), master: Side, follower: Side }).nullable(),
  /** The account it guards (follower or master scope). */
  account: Side.nullable(),
  basis: z.enum(GUARD_BASES),
  unit: z.enum(['percent', 'money']),
  period: z.enum(GUARD_PERIODS).nullable(),
  currency: z.string(),
  warn: Measure.nullable(),
  close_only: Measure.nullable(),
  close_all: Measure.nullable(),
  state: z.enum(GUARD_STATES),
  /** The last measure, in the guard's unit (an equity floor: the equity), and when it was taken. */
  last_value: Measure.nullable(),
  measured_at: EpochSeconds.nullable(),
  /** The mark it measures from (start equity, high-water mark, period opening), in the account's currency. */
  mark: Measure.nullable(),
  /** When it reached close-only or closed (null while armed or warned). */
  fired_at: EpochSeconds.nullable(),
  started_at: EpochSeconds,
});
export type Guard = z.infer<typeof Guard>;

export const GuardsResponse = z.object({ data: z.array(Guard) });
export const GuardResponse = z.object({ message: z.string(), data: Guard });
export type GuardsResponse = z.infer<typeof GuardsResponse>;
export type GuardResponse = z.infer<typeof GuardResponse>;
