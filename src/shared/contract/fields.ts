import { z } from 'zod';
import { roundTo } from '#shared/domain/money.ts';
import { MARKETS } from '#shared/domain/market.ts';
import { PORTFOLIOS } from '#shared/domain/portfolios.ts';
import { SIDES } from '#shared/domain/side.ts';

/** A figure as it is; null where it cannot be computed (never NaN or Infinity on the wire). */
export const Num = z.number();
export const NullableNum = z.number().nullable();

/*
 * The rounding of figures on the wire, decided here once (docs/architecture.md, "Rounding"): a
 * response schema says what a figure is, and serialising the answer (Fastify's serializer and the
 * live snapshots both encode through the schema) rounds it, half away from zero. Parsing an answer
 * rounds the same way, so a client reading it sees the same figure.
 */
const rounded = (decimals: number) =>
  z.codec(z.number(), z.number(), { decode: (x) => roundTo(x, decimals), encode: (x) => roundTo(x, decimals) });

/** An amount of money, to the cent. */
export const Money = rounded(2);
/** A percentage (growth, drawdown, margin level, win rates), to 4 decimals. */
export const Percent = rounded(4);
/** A ratio (profit factor, Sharpe, Sortino, recovery factor), to 4 decimals. */
export const Ratio = rounded(4);
/** A measure in its own unit (lots, pips, milliseconds), to 4 decimals. */
export const Measure = rounded(4);
/** A price, as quoted: to its instrument's digits already, never rounded again. */
export const Price = z.number();
/** Epoch seconds. */
export const EpochSeconds = z.number().int();

const portfolioValues = [...PORTFOLIOS, 'Global Forex'] as const;
/** `portfolio` query parameter (docs/product.md#screens); 'Global Forex' is accepted as the spec's alias of Global FX. */
export const PortfolioParam = z.enum(portfolioValues, {
  error: () => `portfolio must be one of: ${PORTFOLIOS.join(', ')}`,
});
export const RebatePortfolioParam = z.enum([...portfolioValues, 'All'], {
  error: () => `portfolio must be one of: ${[...PORTFOLIOS, 'All'].join(', ')}`,
});

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A client's text field: 1..max characters (0..max with `allowEmpty`) and no control character
 * (U+0000–U+001F, U+007F–U+009F).
 * PostgreSQL refuses NUL in text, and no name, login or symbol holds a control character.
 */
export function Text(field: string, max: number, { allowEmpty = false }: { allowEmpty?: boolean } = {}) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`) })
    .min(allowEmpty ? 0 : 1, `${field} must not be empty`)
    .max(max, `${field} is too long (at most ${max} characters)`)
    .regex(/^[^\p{Cc}]*$/u, `${field} must not contain control characters`)
    // A lone surrogate (\ud800) is no character: PostgreSQL cannot store it in text or JSON.
    .refine((s) => !LONE_SURROGATE.test(s), `${field} must be valid Unicode text`);
}

/** Query-string booleans: 'true' / 'false'. */
export const BoolParam = z.enum(['true', 'false'], { error: () => "must be 'true' or 'false'" }).transform((v) => v === 'true');

/** A trade's direction (src/shared/domain/side.ts). */
export const Side = z.enum(SIDES);
/** The product's market of an instrument (src/shared/domain/market.ts). */
export const Market = z.enum(MARKETS);
