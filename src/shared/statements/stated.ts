import { cents } from '#shared/domain/money.ts';
import type { Grid } from './cells.ts';
import { countOf, pairRows, percentOf, type Pair } from './structure.ts';

/**
 * What a statement says of itself in its summary blocks, read by their shape (rows of label/value pairs
 * in MetaTrader's fixed order), so in any language. null where the statement does not print a figure.
 * Money is in the account currency; losses are negative (MT4 prints its Gross Loss as a positive sum:
 * it is negated here).
 */
export interface StatedFigures {
  balance: number | null;
  equity: number | null;
  credit: number | null;
  /** Floating P/L as the summary prints it (MT5: the open positions' profit without their swap). */
  floating: number | null;
  margin: number | null;
  freeMargin: number | null;
  /** MT4: deposits minus withdrawals (its balance rows). */
  depositWithdrawal: number | null;
  /** MT4: the closed trades' commission, taxes, swap and profit. */
  closedPnl: number | null;
  netProfit: number | null;
  grossProfit: number | null;
  grossLoss: number | null;
  trades: number | null;
  profitTrades: number | null;
  lossTrades: number | null;
  largestProfit: number | null;
  largestLoss: number | null;
}

export const NO_FIGURES: StatedFigures = {
  balance: null,
  equity: null,
  credit: null,
  floating: null,
  margin: null,
  freeMargin: null,
  depositWithdrawal: null,
  closedPnl: null,
  netProfit: null,
  grossProfit: null,
  grossLoss: null,
  trades: null,
  profitTrades: null,
  lossTrades: null,
  largestProfit: null,
  largestLoss: null,
};

const value = (pair: Pair | undefined) => pair?.value ?? null;
const near = (a: number | null, b: number | null) => a !== null && b !== null && Math.abs(a - b) < 0.015;

/**
 * The trades block both platforms end with, found by its shape: a row whose first pair is the number of
 * trades N and whose next two are "a (x%)" and "b (y%)" with a + b = N (short and long trades); the next
 * pair rows are profit and loss trades, then the largest profit and loss trade.
 */
function tradesBlock(rows: { pairs: Pair[] }[]): Pick<StatedFigures, 'trades' | 'profitTrades' | 'lossTrades' | 'largestProfit' | 'largestLoss'> {
  const at = rows.findIndex(({ pairs }) => {
    const total = countOf(pairs[0]);
    const [short, long] = [countOf(pairs[1]), countOf(pairs[2])];
    const shares = percentOf(pairs[1]) !== null && percentOf(pairs[2]) !== null;
    return pairs.length === 3 && shares && total !== null && short !== null && long !== null && short >= 0 && long >= 0 && short + long === total;
  });
  if (at < 0) return { trades: null, profitTrades: null, lossTrades: null, largestProfit: null, largestLoss: null };
  const wins = rows[at + 1]?.pairs;
  const largest = rows[at + 2]?.pairs;
  return {
    trades: countOf(rows[at]!.pairs[0]),
    profitTrades: countOf(wins?.[0]),
    lossTrades: countOf(wins?.[1]),
    largestProfit: value(largest?.[0]),
    largestLoss: value(largest?.[1]),
  };
}

/**
 * MetaTrader 5's summary after its last table: four rows of pairs shaped 2, 2, 2, 1 — Balance and Free
 * Margin; Credit Facility and Margin; Floating P/L and Margin Level; Equity — then Results: Total Net
 * Profit, Gross Profit and Gross Loss on one row (the first equal to the other two together), and the
 * trades block. `complete` says whether the summary is there at all.
 */
export function mt5Figures(grid: Grid, from: number): { figures: StatedFigures; complete: boolean } {
  const rows = pairRows(grid, from);
  const at = rows.findIndex((_, i) => [2, 2, 2, 1].every((n, k) => rows[i + k]?.pairs.length === n && rows[i + k]!.pairs[0]!.value !== null));
  if (at < 0) return { figures: NO_FIGURES, complete: false };
  const [first, second, third, fourth] = [rows[at]!.pairs, rows[at + 1]!.pairs, rows[at + 2]!.pairs, rows[at + 3]!.pairs];
  const results = rows.slice(at + 4);
  const net = results.find(({ pairs }) => pairs.length === 3 && near(value(pairs[0]), (value(pairs[1]) ?? NaN) + (value(pairs[2]) ?? NaN)));
  return {
    figures: {
      ...NO_FIGURES,
      balance: value(first[0]),
      freeMargin: value(first[1]),
      credit: value(second[0]),
      margin: value(second[1]),
      floating: value(third[0]),
      equity: value(fourth[0]),
      netProfit: value(net?.pairs[0]),
      grossProfit: value(net?.pairs[1]),
      grossLoss: value(net?.pairs[2]),
      ...tradesBlock(results),
    },
    complete: true,
  };
}

/**
 * MetaTrader 4's Summary after its Working Orders: three rows of pairs shaped 2, 3, 3 — Deposit/
 * Withdrawal and Credit Facility; Closed Trade P/L, Floating P/L and Margin; Balance, Equity and Free
 * Margin. A DetailedStatement then has Details: Gross Profit, Gross Loss and Total Net Profit on one row
 * (profit − loss = net), and the trades block.
 */
export function mt4Figures(grid: Grid, from: number): { figures: StatedFigures; complete: boolean } {
  const rows = pairRows(grid, from);
  const at = rows.findIndex((_, i) => [2, 3, 3].every((n, k) => rows[i + k]?.pairs.length === n && rows[i + k]!.pairs[0]!.value !== null));
  if (at < 0) return { figures: NO_FIGURES, complete: false };
  const [first, second, third] = [rows[at]!.pairs, rows[at + 1]!.pairs, rows[at + 2]!.pairs];
  const details = rows.slice(at + 3);
  const gross = details.find(({ pairs }) => pairs.length === 3 && near((value(pairs[0]) ?? NaN) - Math.abs(value(pairs[1]) ?? NaN), value(pairs[2])));
  const loss = value(gross?.pairs[1]);
  return {
    figures: {
      ...NO_FIGURES,
      depositWithdrawal: value(first[0]),
      credit: value(first[1]),
      closedPnl: value(second[0]),
      floating: value(second[1]),
      margin: value(second[2]),
      balance: value(third[0]),
      equity: value(third[1]),
      freeMargin: value(third[2]),
      grossProfit: value(gross?.pairs[0]),
      grossLoss: loss === null ? null : -Math.abs(loss),
      netProfit: value(gross?.pairs[2]),
      ...tradesBlock(details),
    },
    complete: true,
  };
}

/**
 * The decimals of a currency's amounts (2 for USD, 0 for JPY, 3 for KWD), as the ICU data of the
 * runtime knows them; 2 without a currency, or for a code that is not one.
 */
export function currencyDigits(currency: string | null | undefined): number {
  if (!currency) return 2;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * Money as MetaTrader prints it: a space between thousands, the currency's decimals ("-14 030.71" USD
 * with a hyphen, "3 000 691" JPY).
 */
export function money(amount: number, currency?: string | null): string {
  const text = Math.abs(amount).toFixed(currencyDigits(currency));
  const [whole, decimals] = text.split('.') as [string, string | undefined];
  const sign = amount < 0 && Number(text) !== 0 ? '-' : '';
  return `${sign}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ')}${decimals === undefined ? '' : `.${decimals}`}`;
}

/**
 * The warning for a statement whose rows do not add up to the balance it states (null when they do, to
 * the cent): the rows are what is imported, so the books end at the rows' balance.
 */
export function disagreement(stated: number | null, rows: number, currency: string | null): string | null {
  if (stated === null) return null;
  const difference = cents(stated - rows);
  if (Math.abs(difference) < 0.01) return null;
  const unit = currency ? ` ${currency}` : '';
  const m = (amount: number) => money(amount, currency);
  return (
    `The report states a balance of ${m(stated)}${unit}, but its rows add up to ${m(rows)}${unit} ` +
    `(a difference of ${m(difference)}${unit}): the rows are imported as they are, so the account's balance ` +
    `will be ${m(rows)}${unit}.`
  );
}
