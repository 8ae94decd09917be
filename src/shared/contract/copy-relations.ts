import { z } from 'zod';
import type { CopySizing as CopySizingTerms } from '#shared/domain/copy-lot.ts';
import { BoolParam, EpochSeconds, Measure, Money, PortfolioParam, Text } from './fields.ts';

/**
 * Copy relations (docs/copying.md): a follower copies one master, sized by ratio, by equity
 * proportion or a fixed lot, with an optional maximum lot and equity stop. Write users create, edit
 * and end them; every signed-in user reads those of their portfolios.
 */

/** Bounds of the sizing values, shared by the API, the CLI and the form. */
export const SIZING_LIMITS = {
  ratio: { min: 0.0001, max: 100 },
  multiplier: { min: 0.01, max: 100 },
  lot: { min: 0.01, max: 100_000 },
} as const;

const bounded = (field: string, { min, max }: { min: number; max: number }) =>
  z
    .number({ error: `${field} must be a number` })
    .min(min, `${field} must be at least ${min}`)
    .max(max, `${field} must be at most ${max}`);

/** How a copy is sized: `ratio` × the master's lot; `equity`: × follower equity / master equity (EUR) × multiplier; `fixed` lot. */
export const CopySizing = z.discriminatedUnion(
  'mode',
  [
    z.strictObject({ mode: z.literal('ratio'), ratio: bounded('sizing.ratio', SIZING_LIMITS.ratio) }),
    z.strictObject({ mode: z.literal('equity'), multiplier: bounded('sizing.multiplier', SIZING_LIMITS.multiplier).default(1) }),
    z.strictObject({ mode: z.literal('fixed'), lot: bounded('sizing.lot', SIZING_LIMITS.lot) }),
  ],
  { error: 'sizing.mode must be one of: ratio, equity, fixed' },
) satisfies z.ZodType<CopySizingTerms>;
export type CopySizing = CopySizingTerms;

/**
 * A stored relation's sizing as answered: the bounds above are what a change may set, not what a
 * relation holds (one carried over from an older version may lie outside them), so the answer is
 * never refused for its own data.
 */
export const CopySizingView = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('ratio'), ratio: Measure }),
  z.object({ mode: z.literal('equity'), multiplier: Measure }),
  z.object({ mode: z.literal('fixed'), lot: Measure }),
]) satisfies z.ZodType<CopySizingTerms>;

/** The largest copy, in lots (forex) or shares (equities); null: no cap. */
const MaxLot = bounded('max_lot', SIZING_LIMITS.lot).nullable();
/** The follower's equity stop in its currency; null: none. */
const EquityStop = z
  .number({ error: 'equity_stop must be a number or null' })
  // Stored to the cent: under one it would be 0.
  .min(0.01, 'equity_stop must be at least 0.01')
  .max(1e12, 'equity_stop is too large')
  .nullable();

export const RelationAccount = z.object({
  account_id: z.string(),
  account_name: z.string(),
  broker_name: z.string(),
  currency: z.string(),
  login: z.string(),
  server: z.string(),
});

export const CopyRelation = z.object({
  id: z.number().int(),
  master: RelationAccount,
  follower: RelationAccount,
  sizing: CopySizingView,
  max_lot: Measure.nullable(),
  equity_stop: Money.nullable(),
  /** When the equity stop fired (copying to the follower stopped); null while armed or without one. */
  equity_stopped_at: EpochSeconds.nullable(),
  started_at: EpochSeconds,
  /** null while the relation is in force. */
  ended_at: EpochSeconds.nullable(),
});
export type CopyRelation = z.infer<typeof CopyRelation>;

/** GET /api/copy/relations: relations whose master and follower are both in the portfolio (all the caller's without it). */
export const RelationsQuery = z.strictObject({
  portfolio: PortfolioParam.optional(),
  /** true: ended relations too (newest first, after those in force). */
  include_ended: BoolParam.optional(),
});
export const RelationsResponse = z.object({ data: z.array(CopyRelation) });

/** POST /api/copy/relations: `master` and `follower` by account_id or login. */
export const CreateRelationBody = z.strictObject({
  master: Text('master', 100),
  follower: Text('follower', 100),
  sizing: CopySizing,
  max_lot: MaxLot.default(null),
  equity_stop: EquityStop.default(null),
});
export type CreateRelationBody = z.input<typeof CreateRelationBody>;

/** PUT /api/copy/relations/{id}: the relation's terms, all of them; a changed equity stop is armed again, an unchanged one with `rearm_equity_stop`. */
export const UpdateRelationBody = z.strictObject({
  sizing: CopySizing,
  max_lot: MaxLot,
  equity_stop: EquityStop,
  /** true: a stop that fired is armed again (copying to the follower resumes) even at the same level. */
  rearm_equity_stop: z.boolean({ error: 'rearm_equity_stop must be true or false' }).default(false),
});
export type UpdateRelationBody = z.input<typeof UpdateRelationBody>;

export const RelationParams = z.strictObject({
  id: z.coerce.number({ error: 'id must be a relation number' }).int('id must be a relation number').positive('id must be a relation number').max(2_147_483_647, 'id must be a relation number'),
});

export const RelationResponse = z.object({ message: z.string(), relation: CopyRelation });
