/**
 * Number formatting of docs/product.md#constants with Intl. Prices, quantities and percentages that are missing
 * (null, undefined, NaN, ±Infinity, non-numeric text) show MISSING_VALUE '—': a missing price
 * is not a price of zero. Profit is money, so it follows the spec's money rule instead: a
 * non-numeric profit shows 0,00 (docs/product.md#validation).
 */
export const MISSING_VALUE = '—';

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

/**
 * Price with 5 decimals and a dot, no grouping, e.g. '1.08500': the way brokers quote and the
 * form the TP/SL inputs accept, so a shown price can be typed back as is.
 */
export function formatPrice(value: unknown): string {
  const n = toFiniteNumber(value);
  if (n === null) return MISSING_VALUE;
  return numberFormat('en-US', {
    minimumFractionDigits: 5,
    maximumFractionDigits: 5,
    useGrouping: false,
    signDisplay: 'negative',
  }).format(n);
}

/** Percentage given in percent units (12.345 → '12,35 %'): 2 decimals, decimal comma, no-break space before %. */
export function formatPercent(value: unknown): string {
  const n = toFiniteNumber(value);
  if (n === null) return MISSING_VALUE;
  return numberFormat('fr-FR', {
    style: 'unit',
    unit: 'percent',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: 'negative',
  }).format(n);
}

/** Profit without currency, French style with 2 or 5 decimals, e.g. '-1 234,50'; non-numeric shows 0,00 (docs/product.md#validation). */
export function formatProfit(value: unknown, decimals: 2 | 5 = 2): string {
  return numberFormat('fr-FR', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    signDisplay: 'negative',
  }).format(toFiniteNumber(value) ?? 0);
}

/** Quantity (lots or shares), French style with up to 4 decimals and none forced, e.g. '0,01', '1 500'. */
export function formatQuantity(value: unknown): string {
  const n = toFiniteNumber(value);
  if (n === null) return MISSING_VALUE;
  return numberFormat('fr-FR', {
    minimumFractionDigits: 0,
    maximumFractionDigits: 4,
    signDisplay: 'negative',
  }).format(n);
}
