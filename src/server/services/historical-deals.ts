import { riskStats, type NavPoint } from '#shared/analytics/risk-stats.ts';
import { roundTo } from '#shared/domain/money.ts';
import { dealReasonLabel, isCashFlow, type Deal } from '#shared/domain/deal.ts';
import { instrumentSpec } from '#shared/domain/instruments.ts';
import type { AccountRef } from '#server/db/accounts-repo.ts';
import { seriesOf, statsOf } from '#server/analytics/account-analytics.ts';

/** The view model of GET /api/brokers/historical-deals: an account's deals, statistics and series over a period. */

/**
 * The Historical deal `type` of a row that is no trade (its category is 'Balance'): by its kind, unless
 * its reason names it ('Bonus', 'Charge', 'Interest' …: src/shared/domain/deal.ts).
 */
const BALANCE_TYPES: Record<Deal['kind'], string> = { trade: '', deposit: 'Deposit', withdrawal: 'Withdrawal', rebate: 'Rebate', result: 'Result' };
const balanceType = (d: Deal): string => (d.opening ? 'Opening balance' : (dealReasonLabel(d.reason) ?? BALANCE_TYPES[d.kind]));

export interface HistoricalDealsInput {
  account: AccountRef;
  all: Deal[];
  navs: NavPoint[];
  from: number | undefined;
  withoutRebalancing: boolean;
  rebates: boolean;
  /** An amount in EUR, from its currency, at the market's rates. */
  eur: (amount: number, currency: string) => number;
}

/** An account's deals from `from` on, newest first, with its statistics and series over the period. */
export function historicalDeals({ account, all, navs, from, withoutRebalancing, rebates, eur }: HistoricalDealsInput) {
  /** A price in EUR (from its quote currency), to 6 decimals as prices are stored. */
  const priceInEur = (price: number, symbol: string) => roundTo(eur(price, instrumentSpec(symbol).quote), 6);
  /** What a quantity of lots is worth at a price, in EUR. */
  const notionalInEur = (lots: number, price: number, symbol: string) => {
    const spec = instrumentSpec(symbol);
    return eur(lots * spec.contract * price, spec.quote);
  };
  const inPeriod = all.filter((d) => from === undefined || d.at >= from);
  const listed = withoutRebalancing ? inPeriod.filter((d) => !d.rebalancing) : inPeriod;
  const trades = inPeriod.filter((d) => d.kind === 'trade');
  const s = statsOf(trades);
  const allSeries = seriesOf(all, from, () => true);
  const cur = account.currency;
  const last = <T extends { value: number }>(xs: T[]) => xs.at(-1)?.value ?? 0;
  // Every cash flow moves the NAV, rebalancing ones too, so all of them are neutralised; a rebate
  // credited is income, part of the return.
  const risk = riskStats({
    navs,
    flows: all.filter(isCashFlow).map((d) => ({ time: d.at, amount: d.amount })),
    from,
    tradeResults: trades.map((d) => d.net),
    cumulativeProfit: allSeries.profit.map((p) => p.value),
  });
  return {
    dealsStats: [
      {
        account: account.account_id,
        currency: cur,
        deals: listed
          .slice()
          .reverse()
          .map((d) => ({
            symbol: d.symbol ?? '',
            type: d.type ?? balanceType(d),
            category: d.category ?? 'Balance',
            server: account.server,
            currency: cur,
            login: account.account,
            open_price: d.openPrice,
            open_price_currency: d.openPrice === null || d.symbol === null ? null : priceInEur(d.openPrice, d.symbol),
            close_price: d.closePrice,
            profit: d.kind === 'trade' ? d.profit : d.amount,
            profit_currency: eur(d.kind === 'trade' ? d.profit : d.amount, cur),
            swap: d.swap,
            swap_currency: eur(d.swap, cur),
            quantity: d.quantity,
            quantity_currency: d.openPrice === null || d.symbol === null ? 0 : notionalInEur(d.quantity, d.openPrice, d.symbol),
            datetime: d.at,
            fee: d.fee,
            fee_currency: eur(d.fee, cur),
            commission: d.commission,
            commission_currency: eur(d.commission, cur),
            rebate: rebates ? d.rebate : null,
            is_rebalancing: d.rebalancing,
          })),
        all: {
          ...allSeries,
          stats: {
            best_trade: s.best,
            worst_trade: s.worst,
            win: s.win,
            loss: s.loss,
            longs_won: s.longs_won,
            shorts_won: s.shorts_won,
            lots: s.lots,
            commissions: s.commissions,
            swap: s.swap,
            average_win: s.average_win,
            average_loss: s.average_loss,
            profit_factor: s.profit_factor,
            max_drawdown: allSeries.drawdown.reduce((m, p) => Math.max(m, p.value), 0),
            growth: last(allSeries.growth),
            net_profit: last(allSeries.profit),
            ...risk,
          },
        },
        fx: seriesOf(all, from, (d) => d.category === 'Forex'),
        equities: seriesOf(all, from, (d) => d.category === 'Equities'),
      },
    ],
  };
}
