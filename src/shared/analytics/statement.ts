import { dealMoney, isCashFlow, type Deal } from '#shared/domain/deal.ts';
import { DAY_S, dayOfIso, isoOfDay, periodDays, type DayRange } from '#shared/domain/days.ts';
import type { FeeEntry, FeeKind } from '#shared/domain/fees.ts';
import { cents } from '#shared/domain/money.ts';
import { modifiedDietz, timeWeightedReturn } from './performance.ts';

/*
 * An investor statement of one account over a range of days (docs/fees.md, "Statements"): pure
 * functions of the account's deals, its end-of-day valuations and its fee entries. Money is summed
 * in whole cents, so the statement's lines add up to its closing balance exactly.
 */

/**
 * The range a request names: a month ('2026-03'), a quarter ('2026-Q1'), or `from` and `to`
 * ('YYYY-MM-DD', both included; `to` defaults to `today`). null when `to` comes before `from`.
 */
export function dayRange(q: { period?: string | undefined; from?: string | undefined; to?: string | undefined }, today: number): DayRange | null {
  if (q.period) return periodDays(q.period);
  const fromDay = dayOfIso(q.from!);
  const toDay = q.to ? dayOfIso(q.to) : today;
  return toDay < fromDay ? null : { fromDay, toDay };
}

export const rangeIso = (r: DayRange): { from: string; to: string } => ({ from: isoOfDay(r.fromDay), to: isoOfDay(r.toDay) });

/** What a statement reads of a deal (the books' Deal, src/shared/domain/deal.ts). */
export type StatementDeal = Pick<
  Deal,
  'kind' | 'at' | 'amount' | 'profit' | 'swap' | 'commission' | 'fee' | 'net' | 'symbol' | 'type' | 'quantity' | 'openPrice' | 'closePrice' | 'openedAt'
>;


const c = (x: number): number => Math.round(x * 100);
const m = (centsValue: number): number => centsValue / 100;

/** Fees of a range per kind and currency: what was charged (charges and adjustments) and what was only accrued. */
export function feeTotals(entries: readonly FeeEntry[]): { kind: FeeKind; currency: string; charged: number; accrued: number }[] {
  const totals = new Map<string, { kind: FeeKind; currency: string; charged: number; accrued: number }>();
  const ordered = [...entries].sort((a, b) => a.at - b.at);
  for (const e of ordered) {
    const key = `${e.kind}|${e.currency}`;
    const t = totals.get(key) ?? { kind: e.kind, currency: e.currency, charged: 0, accrued: 0 };
    if (e.entry === 'accrual') t.accrued += e.amount;
    else {
      t.charged += c(e.amount);
      // A management charge collects the accruals before it.
      if (e.kind === 'management' && e.entry === 'charge') t.accrued = 0;
    }
    totals.set(key, t);
  }
  const order: FeeKind[] = ['performance', 'management', 'volume'];
  return [...totals.values()]
    .sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || a.currency.localeCompare(b.currency))
    .map((t) => ({ ...t, charged: m(t.charged), accrued: cents(t.accrued) }));
}

export interface StatementFigures {
  opening_balance: number;
  opening_equity: number;
  deposits: number;
  withdrawals: number;
  closed_pl: number;
  swap: number;
  commissions: number;
  broker_fees: number;
  rebates: number | null;
  other_results: number;
  closing_balance: number;
  closing_equity: number;
  twr_pct: number | null;
  mwr_pct: number | null;
  trades: {
    symbol: string;
    type: string;
    quantity: number;
    opened_at: number | null;
    open_price: number | null;
    closed_at: number;
    close_price: number | null;
    profit: number;
    swap: number;
    commission: number;
    fee: number;
    net: number;
  }[];
}

/**
 * The statement's figures. `deals` are the account's deals (its balance is their sum), `nav` its
 * end-of-day rows, `live` its figures now (the closing ones of a range reaching `today`). Opening
 * and closing balances are the deals' sums before and through the range; equities are the end-of-day
 * valuations of the day before and of the last day (the balance where a day has none). A server
 * reads only the range's deals and gives the sum of those before it as `openingCents`.
 */
export function statementFigures(input: {
  range: DayRange;
  today: number;
  deals: readonly StatementDeal[];
  /** The balance (in cents) of the deals before the range that `deals` leaves out. */
  openingCents?: number;
  nav: readonly { day: number; balance: number; equity: number }[];
  live: { balance: number; equity: number };
  showRebates: boolean;
}): StatementFigures {
  const { range, today } = input;
  const startS = range.fromDay * DAY_S;
  const lastDay = Math.min(range.toDay, today);
  const endS = (lastDay + 1) * DAY_S;
  const navByDay = new Map(input.nav.map((r) => [r.day, r]));

  let opening = input.openingCents ?? 0;
  const sums = { deposits: 0, withdrawals: 0, closed_pl: 0, swap: 0, commissions: 0, broker_fees: 0, rebates: 0, other: 0 };
  const flowsByDay = new Map<number, number>();
  const balanceByDay = new Map<number, number>();
  const flows: { at: number; amount: number }[] = [];
  const trades: StatementFigures['trades'] = [];
  let running = opening;
  for (const d of [...input.deals].sort((a, b) => a.at - b.at)) {
    const money = c(dealMoney(d));
    if (d.at < startS) {
      opening += money;
      running += money;
      continue;
    }
    if (d.at >= endS) continue;
    running += money;
    const day = Math.floor(d.at / DAY_S);
    balanceByDay.set(day, running);
    if (isCashFlow(d)) {
      sums[d.kind === 'deposit' ? 'deposits' : 'withdrawals'] += money;
      flowsByDay.set(day, (flowsByDay.get(day) ?? 0) + money);
      flows.push({ at: d.at, amount: m(money) });
    } else if (d.kind === 'trade') {
      sums.closed_pl += c(d.profit);
      sums.swap += c(d.swap);
      sums.commissions += c(d.commission);
      sums.broker_fees += c(d.fee);
      trades.push({
        symbol: d.symbol ?? '',
        type: d.type ?? '',
        quantity: d.quantity,
        opened_at: d.openedAt,
        open_price: d.openPrice,
        closed_at: d.at,
        close_price: d.closePrice,
        profit: d.profit,
        swap: d.swap,
        commission: d.commission,
        fee: d.fee,
        net: d.net,
      });
    } else if (d.kind === 'rebate' && input.showRebates) sums.rebates += money;
    else sums.other += money;
  }
  const closingBalance = opening + sums.deposits + sums.withdrawals + sums.closed_pl + sums.swap + sums.commissions + sums.broker_fees + sums.rebates + sums.other;

  const openingEquity = navByDay.get(range.fromDay - 1)?.equity ?? m(opening);
  const equityOn = (day: number, balanceCents: number): number =>
    day >= today ? input.live.equity : (navByDay.get(day)?.equity ?? m(balanceCents));
  // Each day's valuation, for the time-weighted return.
  const days: { equity: number; flows: number }[] = [];
  let bal = opening;
  for (let day = range.fromDay; day <= lastDay; day++) {
    bal = balanceByDay.get(day) ?? bal;
    days.push({ equity: equityOn(day, bal), flows: m(flowsByDay.get(day) ?? 0) });
  }
  const closingEquity = lastDay < range.fromDay ? openingEquity : equityOn(lastDay, closingBalance);

  return {
    opening_balance: m(opening),
    opening_equity: cents(openingEquity),
    deposits: m(sums.deposits),
    withdrawals: m(sums.withdrawals),
    closed_pl: m(sums.closed_pl),
    swap: m(sums.swap),
    commissions: m(sums.commissions),
    broker_fees: m(sums.broker_fees),
    rebates: input.showRebates ? m(sums.rebates) : null,
    other_results: m(sums.other),
    closing_balance: m(closingBalance),
    closing_equity: cents(closingEquity),
    twr_pct: timeWeightedReturn(openingEquity, days),
    mwr_pct: modifiedDietz(openingEquity, closingEquity, flows, startS, endS),
    trades,
  };
}
