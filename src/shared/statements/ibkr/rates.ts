import { RATED_ROWS } from './fields.ts';
import type { FlexRow } from './walk.ts';
import type { Warnings } from './warnings.ts';

/*
 * The account's base currency and the statement's own rates into it. IB states a rate on most rows
 * (fxRateToBase: one unit of the row's currency in base, that day) and, when the query asks for them,
 * a table of daily ConversionRate rows. Nothing here invents a rate: a currency with none stays without.
 */

/** How the base currency was told, in the order it is tried. */
export type BaseRule = 'AccountInformation@currency' | 'FxTransaction@functionalCurrency' | 'fxRateToBase=1' | 'ConversionRate@toCurrency';

export interface Base {
  currency: string;
  rule: BaseRule;
}


/**
 * The base currency: AccountInformation@currency, else the FxTransaction rows' functionalCurrency, else
 * the currency of the rows IB converts at 1 (fxRateToBase="1"), else the ConversionRate rows' toCurrency;
 * each rule only when its rows all agree. Null, with a warning saying why, when none tells.
 */
export function baseOf(rows: readonly FlexRow[], accountId: string, warnings: Warnings): Base | null {
  const functional = currencies(rows, (r) => (r.tag === 'FxTransaction' ? r.attrs.functionalCurrency : undefined));
  const rules: [BaseRule, Set<string>][] = [
    ['AccountInformation@currency', currencies(rows, (r) => (r.tag === 'AccountInformation' ? r.attrs.currency : undefined))],
    ['FxTransaction@functionalCurrency', functional],
    ['fxRateToBase=1', currencies(rows, (r) => (RATED_ROWS.has(r.tag) && Number(r.attrs.fxRateToBase) === 1 && r.attrs.fxRateToBase?.trim() !== '' ? r.attrs.currency : undefined))],
    ['ConversionRate@toCurrency', currencies(rows, (r) => (r.tag === 'ConversionRate' ? r.attrs.toCurrency : undefined))],
  ];
  for (const [rule, found] of rules) {
    if (found.size === 1) {
      const base: Base = { currency: [...found][0] ?? '', rule };
      checkFunctional(functional, base, accountId, warnings);
      return base;
    }
    if (found.size > 1) {
      warnings.once(
        `base:${accountId}:${rule}`,
        `Account ${accountId}: ${rule} names several currencies (${[...found].sort().join(', ')}), so it does not tell the base currency.`,
      );
    }
  }
  warnings.once(
    `base:${accountId}`,
    `Account ${accountId}: the base currency could not be told (no AccountInformation, FxTransaction, fxRateToBase="1" row or ` +
      'ConversionRate names it): add Account Information to the Flex Query.',
  );
  return null;
}

/** FxTransaction rows convert into the base: a functionalCurrency that is not the base is worth a warning. */
function checkFunctional(functional: ReadonlySet<string>, base: Base, accountId: string, warnings: Warnings): void {
  const others = [...functional].filter((c) => c !== base.currency);
  if (others.length === 0) return;
  warnings.once(
    `functional:${accountId}`,
    `Account ${accountId}: FxTransaction rows name ${others.sort().join(', ')} as functional currency, but the base currency is ${base.currency} (${base.rule}).`,
  );
}

function currencies(rows: readonly FlexRow[], pick: (row: FlexRow) => string | undefined): Set<string> {
  const found = new Set<string>();
  for (const row of rows) {
    const currency = pick(row)?.trim();
    if (currency && /^[A-Z]{3}$/.test(currency)) found.add(currency);
  }
  return found;
}

type Dated = [day: string, rate: number];

/**
 * The statement's rates into base, by currency and day: 1 for the base itself, else the ConversionRate of
 * the day (or the last before it), else the fxRateToBase of the currency's rows (same rule). A day
 * before a currency's first rate takes that first rate: the nearest the statement has.
 */
export class RateBook {
  private readonly conversions = new Map<string, Dated[]>();
  private readonly stated = new Map<string, Dated[]>();
  private sorted = true;

  constructor(readonly base: string | null) {}

  /** A row's fxRateToBase for its currency on its day. */
  addStated(currency: string, day: string, rate: number): void {
    if (currency === '' || !(rate > 0) || !Number.isFinite(rate)) return;
    this.push(this.stated, currency, [day, rate]);
  }

  /** A ConversionRate row (only those into the base count). */
  addConversion(from: string, to: string, day: string, rate: number): void {
    if (this.base === null || to !== this.base || from === to || !(rate > 0) || !Number.isFinite(rate)) return;
    this.push(this.conversions, from, [day, rate]);
  }

  /** One unit of `currency` in base on `day`, or null when the statement has no rate of it at all. */
  on(currency: string, day: string): number | null {
    if (currency === this.base) return 1;
    this.sort();
    return pick(this.conversions.get(currency), day) ?? pick(this.stated.get(currency), day);
  }

  /** Whether the statement has any rate of the currency. */
  has(currency: string): boolean {
    return currency === this.base || this.conversions.has(currency) || this.stated.has(currency);
  }

  private push(map: Map<string, Dated[]>, currency: string, entry: Dated): void {
    const list = map.get(currency);
    if (list) list.push(entry);
    else map.set(currency, [entry]);
    this.sorted = false;
  }

  private sort(): void {
    if (this.sorted) return;
    for (const list of [...this.conversions.values(), ...this.stated.values()]) list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.sorted = true;
  }
}

/** The rate of the day, else the last before it, else the first after it; of several on one day, the last listed. */
function pick(list: readonly Dated[] | undefined, day: string): number | null {
  if (!list || list.length === 0) return null;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid]?.[0] ?? '') <= day) lo = mid + 1;
    else hi = mid;
  }
  // lo is the first entry after `day`: the one before it is the day's own, or the last before.
  return (lo > 0 ? list[lo - 1] : list[0])?.[1] ?? null;
}
