/**
 * Number formatting of docs/product.md#constants with Intl. Prices, quantities and percentages that are missing
 * (null, undefined, NaN, ±Infinity, non-numeric text) show MISSING_VALUE '—': a missing price
 * is not a price of zero. Profit is money, so it follows the spec's money rule instead: a
 * non-numeric profit shows 0,00 (docs/product.md#validation).
 */
import { instrumentSpec } from '../domain/instruments.ts';

export const MISSING_VALUE = '—';

/**
 * The locale of every figure the product writes (docs/client.md, "Numbers, money, prices, lots and
 * dates"): fr-FR, the spec's "French style" its users read, whatever the browser's language, so a
 * balance reads the same on every screen, toast, PDF and CSV.
 */
export const NUMBER_LOCALE = 'fr-FR';

const NUMERIC_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A finite number from a number or a plain decimal string (NUMERIC columns arrive as text); null otherwise. */
export function toFiniteNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && NUMERIC_TEXT.test(value.trim())) {
    const parsed = Number(value.trim());
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

const formatters = new Map<string, Intl.NumberFormat>();

/** A cached Intl.NumberFormat (building one is far slower than using it). */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}${JSON.stringify(options)}`;
  let formatter = formatters.get(key);
  if (formatter === undefined) {
    formatter = new Intl.NumberFormat(locale, options);
    formatters.set(key, formatter);
  }
  return formatter;
}

/** Decimals of a price when the instrument is not known: the spec's 5 (docs/product.md#validation). */
export const DEFAULT_PRICE_DIGITS = 5;

/**
 * Price with a dot and no grouping, the way brokers quote and the form the TP/SL inputs accept, so
 * a shown price can be typed back as is: at the instrument's digits (src/shared/domain/instruments.ts:
 * EURGBP '0.85640', USDJPY '161.250', XAUUSD '2650.40', a share '498.68'), 5 decimals when no
 * symbol is given.
 */
export function formatPrice(value: unknown, symbol?: string | null): string {
  const n = toFiniteNumber(value);
  if (n === null) return MISSING_VALUE;
  const digits = priceDigits(symbol);
  return numberFormat('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    useGrouping: false,
    signDisplay: 'negative',
  }).format(n);
}

/** Decimals of a quoted price of a broker's symbol (its instrument's digits), 5 when none is given. */
export function priceDigits(symbol?: string | null): number {
  return symbol ? instrumentSpec(symbol).digits : DEFAULT_PRICE_DIGITS;
}

/** Percentage given in percent units (12.345 → '12,35 %'): 2 decimals, decimal comma, no-break space before %. */
export function formatPercent(value: unknown): string {
  const n = toFiniteNumber(value);
  if (n === null) return MISSING_VALUE;
  return numberFormat(NUMBER_LOCALE, {
    style: 'unit',
    unit: 'percent',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: 'negative',
  }).format(n);
}

/** Profit without currency, French style with 2 or 5 decimals, e.g. '-1 234,50'; non-numeric shows 0,00 (docs/product.md#validation). */
export function formatProfit(value: unknown, decimals: 2 | 5 = 2): string {
  return numberFormat(NUMBER_LOCALE, {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    signDisplay: 'negative',
  }).format(toFiniteNumber(value) ?? 0);
}

/** Quantity (lots or shares), French style at 2 decimals, e.g. '0,30', '0,41', '1 500,00': lots beside lots line up. */
export function formatQuantity(value: unknown): string {
  const n = toFiniteNumber(value);
  if (n === null) return MISSING_VALUE;
  return numberFormat(NUMBER_LOCALE, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: 'negative',
  }).format(n);
}
