import { settleProfitSharing } from '#shared/analytics/rebates.ts';
import { DAY_S, endsMonth, isoOfDay, periodDays } from '#shared/domain/days.ts';
import { cents, roundTo } from '#shared/domain/money.ts';
import { instrumentSpec } from '#shared/domain/instruments.ts';
import type { ClosedTrade } from '#shared/domain/book-events.ts';
import type { FeeEntry, FeePeriod, FeeTerms, WithdrawalRule } from '#shared/domain/fees.ts';
import type { ChargedPerformance, TermsVersion } from './port.ts';
import { profitSharingRate } from './rules.ts';

/*
 * The fee rules (docs/figures.md, "Fees under a follower's terms"), each a pure function: the ledger applies them to the books stored on
 * the account row, the simulated history replays them in memory.
 */

/** Days in a year for the management fee's daily accrual (actual/365). */
export const MANAGEMENT_DAY_COUNT = 365;
/** Accruals keep this many decimals; charges are to the cent. */
const ACCRUAL_DECIMALS = 6;

/**
 * The terms of an account nobody set terms for: a monthly performance fee at its portfolio
 * category's rate on equity, the mark lowered by the amount withdrawn, and nothing else. These are
 * the Profit Sharing figures of the Rebates screen.
 */
export const defaultTerms = (category: string): FeeTerms => ({
  period: 'monthly',
  performance: { rate: profitSharingRate(category), basis: 'equity', withdrawals: 'amount' },
  management: null,
  volume: null,
});

const utc = (epochS: number) => new Date(epochS * 1000);

/** The period an instant belongs to: '2026-03' (monthly) or '2026-Q1' (quarterly). */
export function periodOf(epochS: number, period: FeePeriod): string {
  const d = utc(epochS);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  return period === 'monthly' ? `${y}-${String(m + 1).padStart(2, '0')}` : `${y}-Q${Math.floor(m / 3) + 1}`;
}

/** The first instant (epoch seconds) of a period as periodOf names it ('2026-03', '2026-Q1'). */
export function periodStart(period: string): number {
  return periodDays(period).fromDay * DAY_S;
}

/** Is `day` (days since 1970-01-01) the last of its period? A quarter ends with March, June, September and December. */
export function endsPeriod(day: number, period: FeePeriod): boolean {
  if (!endsMonth(day)) return false;
  return period === 'monthly' || utc(day * DAY_S).getUTCMonth() % 3 === 2;
}

/**
 * The high-water mark after a deposit (amount > 0: raised by it) or a withdrawal (amount < 0): by the
 * amount withdrawn, or in proportion to the equity withdrawn (`equityBefore`, the basis just before
 * it). Never below 0.
 */
export function markAfterCashFlow(mark: number, amount: number, rule: WithdrawalRule, equityBefore: number): number {
  if (!Number.isFinite(amount) || !Number.isFinite(mark)) return Math.max(0, Number.isFinite(mark) ? mark : 0);
  if (amount >= 0 || rule === 'amount') return Math.max(0, mark + amount);
  const share = equityBefore > 0 ? Math.min(1, -amount / equityBefore) : 1;
  return Math.max(0, mark * (1 - share));
}

/** A day's management fee on its end-of-day equity: equity × annual rate / 365, nothing on equity ≤ 0. */
export function managementAccrual(annualRate: number, equity: number): number {
  if (!(equity > 0) || !(annualRate > 0)) return 0;
  return roundTo((equity * annualRate) / MANAGEMENT_DAY_COUNT, ACCRUAL_DECIMALS);
}

/** A leg's notional in USD: lots × contract × price where the price is in USD, lots × contract where USD is bought; null otherwise. */
export function legNotionalUsd(symbol: string, lots: number, price: number): number | null {
  const spec = instrumentSpec(symbol);
  const units = Math.abs(lots) * spec.contract;
  if (spec.quote === 'USD') return units * price;
  if (spec.base === 'USD') return units;
  return null;
}

/**
 * A USD amount in the account's currency at the trade's own rate: as it is on a USD account; on an
 * account in the symbol's other currency, through the leg's price (EUR account, EURUSD: USD / price).
 * null where the trade carries no such rate.
 */
export function usdAtTradeRate(amountUsd: number, currency: string, symbol: string, price: number): number | null {
  if (currency === 'USD') return amountUsd;
  const spec = instrumentSpec(symbol);
  if (spec.quote === 'USD' && spec.base === currency) return amountUsd / price;
  if (spec.base === 'USD' && spec.quote === currency) return amountUsd * price;
  return null;
}

const two = (n: number): string => n.toFixed(2);
const pct = (rate: number): string => `${roundTo(rate * 100, 4)} %`;

/** The fee state of an account between days, stored with its books. */
export interface FeeState {
  accountId: number;
  currency: string;
  /** The high-water mark. */
  mark: number;
  /** Management fee accrued in the period under way, not yet charged. */
  accrued: number;
}

/**
 * A day ends at this equity and balance under these terms: the day's management accrual; at the
 * period's end, its management charge (the accruals, to the cent) and its performance charge
 * (`settleProfitSharing` on the basis and the mark: H1). `performance` is the performance fee charged,
 * null on a day that ends no period.
 */
export function closeFeeDay(
  state: FeeState,
  terms: FeeTerms,
  day: number,
  equity: number,
  balance: number,
  at: number,
): { state: FeeState; entries: FeeEntry[]; performance: number | null } {
  const entries: FeeEntry[] = [];
  const period = periodOf(day * DAY_S, terms.period);
  const base = { accountId: state.accountId, period, at, currency: state.currency };
  let { mark, accrued } = state;
  if (terms.management) {
    const rate = terms.management.annual_rate;
    const amount = managementAccrual(rate, equity);
    accrued = roundTo(accrued + amount, ACCRUAL_DECIMALS);
    entries.push({
      ...base,
      kind: 'management',
      entry: 'accrual',
      ref: isoOfDay(day),
      basis: cents(equity),
      markBefore: null,
      markAfter: null,
      rate,
      amount,
      note: `${two(equity)} × ${pct(rate)} / ${MANAGEMENT_DAY_COUNT}`,
    });
  }
  if (!endsPeriod(day, terms.period)) return { state: { ...state, mark, accrued }, entries, performance: null };

  if (accrued !== 0) {
    entries.push({
      ...base,
      kind: 'management',
      entry: 'charge',
      ref: period,
      basis: cents(accrued),
      markBefore: null,
      markAfter: null,
      rate: terms.management?.annual_rate ?? 0,
      amount: cents(accrued),
      note: `accrued over ${period}: ${accrued.toFixed(ACCRUAL_DECIMALS)}`,
    });
    accrued = 0;
  }
  let performance = 0;
  if (terms.performance) {
    const { rate, basis } = terms.performance;
    // Settled on the figure as it is (the Profit Sharing figures before terms existed), shown to the cent.
    const figure = basis === 'equity' ? equity : balance;
    const settled = settleProfitSharing(rate, figure, mark);
    performance = cents(settled.fee);
    entries.push({
      ...base,
      kind: 'performance',
      entry: 'charge',
      ref: period,
      basis: cents(figure),
      markBefore: cents(mark),
      markAfter: cents(settled.hwm),
      rate,
      amount: performance,
      note: `${pct(rate)} × max(0, ${two(figure)} − ${two(mark)})`,
    });
    mark = settled.hwm;
  }
  return { state: { ...state, mark, accrued }, entries, performance };
}

/**
 * A copied trade (one with a master) closed: its volume fee, one charge for the open and one for the
 * close, each on the leg's notional in USD at the leg's price, converted to the account's currency at
 * the same price (booked in USD where the trade carries no rate to the account's currency). None for
 * a trade of its own, or a symbol whose notional in USD needs a rate the trade does not carry.
 */
export function volumeFees(trade: ClosedTrade, currency: string, terms: FeeTerms): FeeEntry[] {
  if (!terms.volume || trade.copyOf == null) return [];
  const rate = terms.volume.usd_per_million;
  const id = trade.ticket ?? trade.positionId ?? trade.closedAt;
  const legs = [
    { leg: 'open', at: trade.openedAt, price: trade.openPrice },
    { leg: 'close', at: trade.closedAt, price: trade.closePrice },
  ] as const;
  const entries: FeeEntry[] = [];
  for (const { leg, at, price } of legs) {
    const notional = legNotionalUsd(trade.symbol, trade.quantity, price);
    if (notional === null) continue;
    const usd = (notional / 1_000_000) * rate;
    const converted = usdAtTradeRate(usd, currency, trade.symbol, price);
    entries.push({
      accountId: trade.accountId,
      kind: 'volume',
      entry: 'charge',
      period: periodOf(at, terms.period),
      ref: `${id}:${leg}`,
      at,
      basis: cents(notional),
      markBefore: null,
      markAfter: null,
      rate,
      amount: cents(converted ?? usd),
      currency: converted === null ? 'USD' : currency,
      note:
        `${trade.symbol} ${leg} ${trade.quantity} lots at ${price}: ${two(notional)} USD / 1,000,000 × ${rate} USD` +
        (converted === null || currency === 'USD' ? '' : ` = ${usd.toFixed(4)} USD at ${price}`),
    });
  }
  return entries;
}

/**
 * A deal of a period already charged changed by `delta` on the balance (the broker edited, added or
 * deleted it late): the charge is never rewritten; the difference it makes to that period's
 * performance fee is booked in the period under way, and the mark moves by the difference it makes
 * to that charge's mark after.
 */
export function performanceAdjustment(
  charged: ChargedPerformance,
  delta: number,
  state: FeeState,
  now: { period: string; ref: string; at: number },
): { state: FeeState; entry: FeeEntry | null } {
  if (!Number.isFinite(delta) || delta === 0) return { state, entry: null };
  const before = settleProfitSharing(charged.rate, charged.basis + charged.adjusted, charged.markBefore);
  const after = settleProfitSharing(charged.rate, charged.basis + charged.adjusted + delta, charged.markBefore);
  const amount = cents(after.fee - before.fee);
  const mark = Math.max(0, state.mark + (after.hwm - before.hwm));
  return {
    state: { ...state, mark },
    entry: {
      accountId: state.accountId,
      kind: 'performance',
      entry: 'adjustment',
      period: now.period,
      ref: now.ref,
      at: now.at,
      basis: cents(delta),
      markBefore: cents(state.mark),
      markAfter: cents(mark),
      rate: charged.rate,
      amount,
      currency: state.currency,
      note: `${charged.period} recomputed: ${pct(charged.rate)} × max(0, ${two(charged.basis + charged.adjusted + delta)} − ${two(charged.markBefore)}) = ${two(after.fee)}, charged ${two(before.fee)}`,
    },
  };
}

/** The terms in force on `day`: the latest version not after it, or the category's default before any. */
export function termsOn(versions: readonly TermsVersion[] | undefined, day: number, category: string): FeeTerms {
  let found: FeeTerms | null = null;
  for (const v of versions ?? []) if (v.fromDay <= day) found = v.terms;
  return found ?? defaultTerms(category);
}

/**
 * Where the high-water mark stood at an instant: after the last performance charge or adjustment
 * before it, moved by the deposits and withdrawals since under the terms of their day (a
 * proportional withdrawal's share taken of the balance before it, the equity of a past instant not
 * being kept). `moves` are all the account's deals' effects on the balance, oldest first.
 */
export function markAt(
  atS: number,
  marks: readonly { at: number; markAfter: number }[],
  moves: readonly { at: number; money: number; cashFlow: boolean }[],
  versions: readonly TermsVersion[] | undefined,
  category: string,
): number {
  let mark = 0;
  let since = -Infinity;
  for (const e of marks) {
    if (e.at < atS) {
      mark = e.markAfter;
      since = e.at;
    }
  }
  let balance = 0;
  for (const m of moves) {
    if (m.at >= atS) break;
    if (m.cashFlow && m.at >= since) {
      const rule = termsOn(versions, Math.floor(m.at / DAY_S), category).performance?.withdrawals ?? 'amount';
      mark = markAfterCashFlow(mark, m.money, rule, balance);
    }
    balance += m.money;
  }
  return cents(mark);
}
