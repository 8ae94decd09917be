import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '#shared/contract/endpoints.ts';
import { ErrorResponse } from '#shared/contract/common.ts';
import { riskStats, type NavPoint } from '#shared/analytics/risk-stats.ts';
import { roundTo } from '#shared/analytics/stats.ts';
import { dealTypeLabel } from '#shared/domain/deal-types.ts';
import { instrumentSpec } from '#shared/domain/instruments.ts';
import { toEur as inEur } from '#shared/domain/fx.ts';
import { navAccountsOf, navRowsOf } from '#shared/domain/nav-view.ts';
import { callerOf } from '#server/auth/guard.ts';
import { callerScope, scopeFor } from '#server/auth/scope.ts';
import { accountInfoRows, brokersOfScope, type AccountInfoRow, type AccountRef } from '#server/db/accounts-repo.ts';
import type { Database } from '#server/db/database.ts';
import { dealsOf, dealTotals, recentResults, type DealRecord, type DealTotals } from '#server/db/deals-repo.ts';
import { navMonths, navOfMonth, navSeriesOf } from '#server/db/nav-repo.ts';
import { AnswerCache, sendCached } from '#server/http/answer-cache.ts';
import { badRequest } from '#server/http/errors.ts';
import type { BrokerAdapter } from '#server/broker/port.ts';
import { maxDrawdownOf, seriesOf, statsOf } from '#server/analytics/account-analytics.ts';
import type { Changes } from '#server/scale/changes.ts';
import { findAccount } from './account-lookup.ts';
import { portfolioParam } from '#server/http/portfolio-param.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
const epoch = (d: Date): number => Math.floor(d.getTime() / 1000);
const finite = (x: number): number => (Number.isFinite(x) ? x : 0);

/**
 * The Historical deal `type` of a row that is no trade (its category is 'Balance'): by its kind, unless
 * its MT5 deal type names it ('Bonus', 'Charge', 'Interest' …: src/shared/domain/deal-types.ts).
 */
const BALANCE_TYPES: Record<DealRecord['kind'], string> = { trade: '', deposit: 'Deposit', withdrawal: 'Withdrawal', rebate: 'Rebate', result: 'Result' };
const balanceType = (d: DealRecord): string => (d.is_opening ? 'Opening balance' : (dealTypeLabel(d.deal_type) ?? BALANCE_TYPES[d.kind]));

const NO_DEALS: DealTotals = { gross_profit: 0, net_profit: 0, total_fees: 0, total_commission: 0, total_swap: 0, total_rebate: 0 };

export const accountsRoutes: FastifyPluginAsyncZod<{ db: Database; market: BrokerAdapter | null; changes: Changes }> = async (
  app,
  { db, market, changes },
) => {
  // Figures go out as computed: the response schemas round them (money to the cent, src/shared/contract/fields.ts).
  const rates = () => market?.snapshot().rates ?? new Map<string, number>();
  const eur = (amount: number, currency: string) => inEur(amount, currency, rates());
  // The answers below change only with the ledger's writes and the market's updates: each is made
  // once per generation and key (route, the scope's categories, the permissions it shows, the query).
  const answers = new AnswerCache(changes);

  /** The accounts' stored figures with their live ones from the market, and sums over their deals. */
  const accountsInfo = (totals: Map<number, DealTotals>, rows: AccountInfoRow[], rebates: boolean) => {
    const live = market?.snapshot().accounts;
    return {
      data: rows.map((row) => {
        const r = { ...NO_DEALS, ...totals.get(row.id), ...row };
        const l = live?.get(r.id);
        const balance = l?.balance ?? r.balance;
        const equity = l?.equity ?? r.equity;
        const margin = l?.margin ?? r.margin;
        const pnl = equity - balance;
        return {
          id: r.id,
          account_id: r.account_id,
          account: r.account,
          account_name: r.account_name,
          broker_name: r.broker_name,
          img_path: r.img_path,
          teiko_category: r.teiko_category,
          balance,
          equity,
          equity_perc: balance > 0 ? finite((pnl / balance) * 100) : 0,
          pnl,
          ping: l?.ping ?? r.ping,
          total_fees: r.total_fees,
          total_swap: r.total_swap,
          currency: r.currency,
          last_update: l?.last_update ?? r.last_update,
          account_currency: r.currency,
          balance_currency: eur(balance, r.currency),
          equity_currency: eur(equity, r.currency),
          pnl_currency: eur(pnl, r.currency),
          server: r.server,
          server_name: r.server_name,
          is_master: r.is_master,
          gross_profit: r.gross_profit,
          net_profit: r.net_profit,
          total_commission: r.total_commission,
          total_rebate: rebates ? r.total_rebate : null,
          margin,
          margin_level: margin > 0 ? finite((equity / margin) * 100) : null,
        };
      }),
    };
  };

  app.get(
    endpoints.accountsInfo.path,
    { schema: { querystring: endpoints.accountsInfo.query, response: { 200: endpoints.accountsInfo.response.or(endpoints.brokers.response), ...errors } } },
    async (request, reply) => {
      const user = callerOf(request);
      const { portfolio, nav_portfolio: navPortfolio } = request.query;
      if (portfolio !== undefined && navPortfolio !== undefined) throw badRequest('Give portfolio or nav_portfolio, not both.');
      // A NAV draws on every portfolio of the caller (its rule borrows accounts of the others); the
      // caller must be authorised for the portfolio itself all the same.
      const nav = navPortfolio === undefined ? undefined : scopeFor(user, portfolioParam(navPortfolio)).portfolios[0];
      const scope = nav === undefined ? scopeFor(user, portfolioParam(portfolio)) : callerScope(user);
      const rebates = user.permissions.includes('read_rebate');
      const brokersOnly = request.query.only_broker_name === true;
      const key = JSON.stringify(['accounts/info', scope.categories, rebates, brokersOnly, nav ?? null]);
      return sendCached(answers, key, request, reply, async () => {
        if (brokersOnly) return { data: await brokersOfScope(db, scope) };
        const [totals, rows] = await Promise.all([dealTotals(db), accountInfoRows(db, scope)]);
        const answer = accountsInfo(totals, rows, rebates);
        return nav === undefined ? answer : { data: navAccountsOf(answer.data, nav) };
      });
    },
  );

  app.get(
    endpoints.historicalLosses.path,
    { schema: { response: { 200: endpoints.historicalLosses.response, ...errors } } },
    async (request) => {
      const now = new Date(market?.snapshot().at ?? Date.now());
      const rows = await recentResults(db, callerScope(callerOf(request)), now);
      return {
        data: rows.map((r) => ({
          ...r,
          pnl_24_hours_currency: eur(r.pnl_24_hours, r.currency),
          pnl_2_days_currency: eur(r.pnl_2_days, r.currency),
          pnl_7_days_currency: eur(r.pnl_7_days, r.currency),
        })),
      };
    },
  );

  app.get(
    endpoints.maxDrawdown.path,
    { schema: { querystring: endpoints.maxDrawdown.query, response: { 200: endpoints.maxDrawdown.response, ...errors } } },
    async (request) => {
      if (!request.query.account) throw badRequest('Account is not provided.');
      const account = await findAccount(db, callerOf(request), request.query.account);
      const deals = await dealsOf(db, account.id);
      return { max_drawdown_percentage: maxDrawdownOf(deals) };
    },
  );

  /** A price in EUR (from its quote currency), to 6 decimals as prices are stored. */
  const priceInEur = (price: number, symbol: string) => roundTo(eur(price, instrumentSpec(symbol).quote), 6);
  /** What a quantity of lots is worth at a price, in EUR. */
  const notionalInEur = (lots: number, price: number, symbol: string) => {
    const spec = instrumentSpec(symbol);
    return eur(lots * spec.contract * price, spec.quote);
  };

  /** An account's deals from `from` on, newest first, with its statistics and series over the period. */
  const historicalDeals = (
    account: AccountRef,
    all: DealRecord[],
    navs: NavPoint[],
    from: number | undefined,
    withoutRebalancing: boolean,
    rebates: boolean,
  ) => {
    const inPeriod = all.filter((d) => from === undefined || epoch(d.datetime) >= from);
    const listed = withoutRebalancing ? inPeriod.filter((d) => !d.is_rebalancing) : inPeriod;
    const trades = inPeriod.filter((d) => d.kind === 'trade');
    const s = statsOf(trades);
    const allSeries = seriesOf(all, from, () => true);
    const cur = account.currency;
    const last = <T extends { value: number }>(xs: T[]) => xs.at(-1)?.value ?? 0;
    // Every cash flow moves the NAV, rebalancing ones too, so all of them are neutralised; a rebate
    // credited is income, part of the return.
    const risk = riskStats({
      navs,
      flows: all.filter((d) => d.kind === 'deposit' || d.kind === 'withdrawal').map((d) => ({ time: epoch(d.datetime), amount: d.amount })),
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
              open_price: d.open_price,
              open_price_currency: d.open_price === null || d.symbol === null ? null : priceInEur(d.open_price, d.symbol),
              close_price: d.close_price,
              profit: d.kind === 'trade' ? d.profit : d.amount,
              profit_currency: eur(d.kind === 'trade' ? d.profit : d.amount, cur),
              swap: d.swap,
              swap_currency: eur(d.swap, cur),
              quantity: d.quantity,
              quantity_currency: d.open_price === null || d.symbol === null ? 0 : notionalInEur(d.quantity, d.open_price, d.symbol),
              datetime: epoch(d.datetime),
              fee: d.fee,
              fee_currency: eur(d.fee, cur),
              commission: d.commission,
              commission_currency: eur(d.commission, cur),
              rebate: rebates ? d.rebate : null,
              is_rebalancing: d.is_rebalancing,
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
  };

  app.get(
    endpoints.historicalDeals.path,
    { schema: { querystring: endpoints.historicalDeals.query, response: { 200: endpoints.historicalDeals.response, ...errors } } },
    async (request, reply) => {
      const user = callerOf(request);
      const ref = request.query.account;
      if (!ref) throw badRequest('Account is required');
      const from = request.query.start_date;
      const withoutRebalancing = request.query.filter_rebalancing === true;
      const rebates = user.permissions.includes('read_rebate');
      // The account is looked up inside: the same reference means the same account for the same scope.
      const key = JSON.stringify(['historical-deals', callerScope(user).categories, rebates, ref, from ?? null, withoutRebalancing]);
      return sendCached(answers, key, request, reply, async () => {
        const account = await findAccount(db, user, ref);
        const [deals, navs] = await Promise.all([dealsOf(db, account.id), navSeriesOf(db, account.id)]);
        return historicalDeals(account, deals, navs, from, withoutRebalancing, rebates);
      });
    },
  );

  app.get(
    endpoints.historicalNav.path,
    {
      schema: {
        querystring: endpoints.historicalNav.query,
        response: { 200: endpoints.historicalNav.response, ...errors },
      },
    },
    async (request, reply) => {
      const user = callerOf(request);
      const scope = callerScope(user);
      const dateId = request.query.date_id;
      // A NAV draws on every portfolio of the caller; the caller must be authorised for the portfolio itself.
      const nav = request.query.portfolio === undefined ? undefined : scopeFor(user, portfolioParam(request.query.portfolio)).portfolios[0];
      const key = JSON.stringify(['historical_infos', scope.categories, dateId ?? null, nav ?? null]);
      return sendCached(answers, key, request, reply, async () => {
        const months = await navMonths(db, scope);
        const available = Object.fromEntries(months.map((r) => [`${r.m}.${r.y}`, r.days]));
        const key = dateId ?? (months[0] ? `${months[0].m}.${months[0].y}` : undefined);
        if (!key) return { data: [], available_dates: available };
        const [m, y] = key.split('.').map(Number);
        const all = await navOfMonth(db, scope, y!, m!);
        const rows = nav === undefined ? all : navRowsOf(all, nav);
        return {
          data: rows.map((r) => ({
            account_id: r.account_id,
            date_id: key,
            date_day: r.day,
            account_name: r.account_name,
            account: r.account,
            balance: r.balance,
            equity: r.equity,
            broker_name: r.broker_name,
            last_update: r.taken_at,
            teiko_category: r.teiko_category,
            img_path: r.img_path,
            currency: r.currency,
            balance_currency: eur(r.balance, r.currency),
            account_currency: r.currency,
            derived: r.derived,
          })),
          available_dates: available,
        };
      });
    },
  );
};
