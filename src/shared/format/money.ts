/**
 * Money formatting of docs/product.md#constants. A value that is not numeric formats as 0 with its currency
 * ('0,00 €'), per docs/product.md#validation "A non-numeric money value shows 0,00"; keeping the currency keeps
 * columns aligned. A missing or blank currency is EUR. A code without a symbol (not three letters,
 * or one Intl has none for) is printed after the number as given. Negative zero prints as 0,00, never -0,00.
 */
import { NUMBER_LOCALE, numberFormat, toFiniteNumber } from './numbers.ts';

export const DEFAULT_CURRENCY = 'EUR';

/** Currency symbols (docs/product.md#constants); any other code is shown as its Intl narrow symbol, else the code itself. */
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

const WELL_FORMED = /^[A-Z]{3}$/;

/**
 * A currency's own symbol: USD $, EUR €, GBP £, JPY ¥, CAD C$, AUD A$, CHF CHF; another ISO code
 * its narrow symbol where that is not the code itself dressed up (₹, ₩, zł …), else the code.
 */
export function currencySymbol(currency: string | null | undefined): string {
  const code = normaliseCurrency(currency);
  if (Object.hasOwn(CURRENCY_SYMBOLS, code)) return CURRENCY_SYMBOLS[code as keyof typeof CURRENCY_SYMBOLS];
  if (!WELL_FORMED.test(code)) return code;
  try {
    const symbol = numberFormat('en', { style: 'currency', currency: code, currencyDisplay: 'narrowSymbol' })
      .formatToParts(0)
      .find((part) => part.type === 'currency')?.value;
    // A symbol with Latin letters beside a sign ('US$', 'CA$') is the CLDR code look the product avoids.
    return symbol && !/[A-Za-z]/.test(symbol) ? symbol : code;
  } catch {
    return code;
  }
}

/**
 * The one money format of the product (docs/client.md, "Numbers, money, prices, lots and dates"):
 * the figure in NUMBER_LOCALE (fr-FR: U+202F between thousands, a decimal comma), 2 decimals,
 * then a U+00A0 no-break space and the currency's own symbol (£, $, €, CHF, ¥ …), never a
 * CLDR code such as '£GB' or '$US'. Every screen, toast, PDF and CSV writes money with it;
 * formatNavMoney and formatRebateMoney are the same function under their screens' names.
 */
export function formatMoney(value: unknown, currency?: string | null): string {
  const figure = numberFormat(NUMBER_LOCALE, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: 'negative',
  }).format(toFiniteNumber(value) ?? 0);
  return `${figure}\u00a0${currencySymbol(currency)}`;
}

/** NAV money: the one money format (it was de-DE's '1.234,50 $' before; one balance read two ways). */
export const formatNavMoney = formatMoney;

/** Rebates-page money: the one money format. */
export const formatRebateMoney = formatMoney;
