/**
 * Money formatting of docs/product.md#constants. A value that is not numeric formats as 0 with its currency
 * ('0,00 €'), per docs/product.md#validation "A non-numeric money value shows 0,00"; keeping the currency keeps
 * columns aligned. A missing or blank currency is EUR. A code Intl rejects (not three letters)
 * is printed after the number as given. Negative zero prints as 0,00, never -0,00.
 */
import { numberFormat, toFiniteNumber } from './numbers.ts';

export const DEFAULT_CURRENCY = 'EUR';

/** Rebates-page symbols (docs/product.md#constants); any other code is shown as the code itself. */
export const CURRENCY_SYMBOLS = {
  USD: '$',
  EUR: '€',
  GBP: '£',
  JPY: '¥',
  CAD: 'C$',
  AUD: 'A$',
  CHF: 'CHF',
} as const satisfies Record<string, string>;

/** The currency code to format with: trimmed, upper-cased, EUR when missing or blank. */
export function normaliseCurrency(currency: string | null | undefined): string {
  const code = currency?.trim().toUpperCase() ?? '';
  return code === '' ? DEFAULT_CURRENCY : code;
}

/** Rebates-page symbol of a currency code (USD $, EUR €, GBP £, JPY ¥, CAD C$, AUD A$, CHF CHF); else the code. */
export function currencySymbol(currency: string | null | undefined): string {
  const code = normaliseCurrency(currency);
  return Object.hasOwn(CURRENCY_SYMBOLS, code) ? CURRENCY_SYMBOLS[code as keyof typeof CURRENCY_SYMBOLS] : code;
}

const WELL_FORMED = /^[A-Z]{3}$/;

function formatCurrency(locale: string, value: unknown, currency: string | null | undefined): string {
  const amount = toFiniteNumber(value) ?? 0;
  const code = normaliseCurrency(currency);
  const digits = { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'negative' } as const;
  if (!WELL_FORMED.test(code)) return `${numberFormat(locale, digits).format(amount)}\u00a0${code}`;
  return numberFormat(locale, { ...digits, style: 'currency', currency: code }).format(amount);
}

/** Money French style (fr-FR), 2 decimals, EUR when no currency: 1234.5 USD → '1 234,50 $US' (docs/product.md#constants). */
export function formatMoney(value: unknown, currency?: string | null): string {
  return formatCurrency('fr-FR', value, currency);
}

/** NAV money in German format (de-DE), 2 decimals: 1234.5 USD → '1.234,50 $' (docs/product.md#constants). */
export function formatNavMoney(value: unknown, currency?: string | null): string {
  return formatCurrency('de-DE', value, currency);
}

/**
 * Rebates-page money: space for thousands, comma for decimals, 2 decimals, then the symbol after
 * a space (French order), e.g. '12 345,67 $'. Both spaces are U+00A0 no-break spaces: the figure
 * never wraps, and unlike fr-FR's U+202F they exist in the WinAnsi encoding of the PDF standard
 * fonts the rebates report uses.
 */
export function formatRebateMoney(value: unknown, currency?: string | null): string {
  const parts = numberFormat('fr-FR', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: 'negative',
  }).formatToParts(toFiniteNumber(value) ?? 0);
  const figure = parts.map((part) => (part.type === 'group' ? '\u00a0' : part.value)).join('');
  return `${figure}\u00a0${currencySymbol(currency)}`;
}
