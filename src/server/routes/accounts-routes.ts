import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AccountsInfoQuery,
  AccountsInfoResponse,
  BrokersResponse,
  HistoricalLossesResponse,
  MaxDrawdownQuery,
  MaxDrawdownResponse,
} from '#shared/contract/accounts.ts';
import { ErrorResponse } from '#shared/contract/common.ts';
import { HistoricalDealsQuery, HistoricalDealsResponse } from '#shared/contract/deals.ts';
import { HistoricalInfosQuery, HistoricalNavResponse } from '#shared/contract/nav.ts';
import { callerOf } from '#server/auth/guard.ts';
import { portfoliosFor, scopeCategories } from '#server/auth/scope.ts';
import { badRequest } from '#server/http/errors.ts';
import type { SimulatedMarket } from '#server/market/simulated-market.ts';
import { convert } from '#server/market/instruments.ts';
import { loadDeals, maxDrawdownOf, seriesOf, statsOf } from '#server/market/account-analytics.ts';
import { findAccount, type AccountRef } from './account-lookup.ts';
import type { Database } from '#server/db/database.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
const epoch = (d: Date): number => Math.floor(d.getTime() / 1000);
const finite = (x: number): number => (Number.isFinite(x) ? x : 0);

interface DealTotals {
  gross_profit: number;
  net_profit: number;
  total_fees: number;
  total_commission: number;
  total_swap: number;
  total_rebate: number;
}

const NO_DEALS: DealTotals = { gross_profit: 0, net_profit: 0, total_fees: 0, total_commission: 0, total_swap: 0, total_rebate: 0 };

interface AccountInfoRow extends AccountRef, DealTotals {
  img_path: string;
  server: string;
  server_name: string;
  is_master: boolean;
  balance: number;
  equity: number;
  margin: number;
  ping: number;
  last_update: Date;
}

export const accountsRoutes: FastifyPluginAsyncZod<{ db: Database; market: SimulatedMarket | null }> = async (
  app,
  { db, market },
) => {
  const mids = () => market?.snapshot().mids ?? new Map<string, number>();
  const toEur = (amount: number, currency: string) => {
    try {
      return convert(amount, currency, 'EUR', mids());
    } catch {
      return amount;
    }
  };

  // Per-account sums over all deals change only when a deal is written: cache them against the market's counter.
  let cached: { version: number; at: number; totals: Map<number, DealTotals> } | undefined;
  const dealTotals = async (): Promise<Map<number, DealTotals>> => {
    const version = market?.dealsVersion ?? -1;
    if (cached && cached.version === version && (market || Date.now() - cached.at < 5_000)) return cached.totals;
    const rows = await db.query<DealTotals & { account_id: number }>(
      `SELECT account_id, sum(profit) AS gross_profit, sum(profit + swap + commission + fee) AS net_profit,
              sum(commission + fee) AS total_fees, sum(commission) AS total_commission, sum(swap) AS total_swap,
              sum(rebate) AS total_rebate
       FROM deals WHERE kind = 'trade' GROUP BY account_id`,
    );
    cached = { version, at: Date.now(), totals: new Map(rows.map(({ account_id, ...t }) => [account_id, t])) };
    return cached.totals;
  };

  app.get(
    '/api/brokers/accounts/info',
    { schema: { querystring: AccountsInfoQuery, response: { 200: AccountsInfoResponse.or(BrokersResponse), ...errors } } },
    async (request) => {
      const user = callerOf(request);
      const categories = scopeCategories(portfoliosFor(user, request.query.portfolio));
      if (request.query.only_broker_name) {
        const brokers = await db.query<{ broker_name: string; img_path: string; teiko_categories: string[] }>(
          `SELECT b.broker_name, b.img_path, array_agg(DISTINCT a.teiko_category ORDER BY a.teiko_category) AS teiko_categories
           FROM brokers b JOIN accounts a ON a.broker_id = b.id WHERE a.teiko_category = ANY($1)
           GROUP BY b.id ORDER BY b.broker_name`,
          [categories],
        );
        return { data: brokers };
      }
      const totals = await dealTotals();
      const rows = await db.query<Omit<AccountInfoRow, keyof DealTotals>>(
        `SELECT a.id, a.account_id, a.account, a.account_name, b.broker_name, b.img_path, a.teiko_category, a.currency,
                a.server, a.server_name, a.is_master, a.balance, a.equity, a.margin, a.ping, a.last_update
         FROM accounts a JOIN brokers b ON b.id = a.broker_id
         WHERE a.teiko_category = ANY($1) ORDER BY b.broker_name, a.account_name`,
        [categories],
      );
      const live = market?.snapshot().accounts;
      const rebates = user.permissions.includes('read_rebate');
      return {
        data: rows.map((row) => {
          const r = { ...NO_DEALS, ...totals.get(row.id), ...row };
          const l = live?.get(r.id);
          const balance = l?.balance ?? r.balance;
          const equity = l?.equity ?? r.equity;
          const margin = l?.margin ?? r.margin;
          const pnl = Math.round((equity - balance) * 100) / 100;
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
            last_update: l?.last_update ?? epoch(r.last_update),
            account_currency: r.currency,
            balance_currency: Math.round(toEur(balance, r.currency) * 100) / 100,
            equity_currency: Math.round(toEur(equity, r.currency) * 100) / 100,
            pnl_currency: Math.round(toEur(pnl, r.currency) * 100) / 100,
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
    },
  );

  app.get(
    '/api/brokers/accounts/historical-losses',
    { schema: { response: { 200: HistoricalLossesResponse, ...errors } } },
    async (request) => {
      const categories = scopeCategories(portfoliosFor(callerOf(request), undefined));
      const now = new Date(market?.snapshot().at ?? Date.now());
      const rows = await db.query<{
        account_id: string;
        account_name: string;
        currency: string;
        pnl_24_hours: number;
        pnl_2_days: number;
        pnl_7_days: number;
      }>(
        `SELECT a.account_id, a.account_name, a.currency,
           coalesce(sum(d.profit + d.swap + d.commission + d.fee) FILTER (WHERE d.datetime > $2::timestamptz - interval '24 hours'), 0) AS pnl_24_hours,
           coalesce(sum(d.profit + d.swap + d.commission + d.fee) FILTER (WHERE d.datetime > $2::timestamptz - interval '2 days'), 0) AS pnl_2_days,
           coalesce(sum(d.profit + d.swap + d.commission + d.fee) FILTER (WHERE d.datetime > $2::timestamptz - interval '7 days'), 0) AS pnl_7_days
         FROM accounts a LEFT JOIN deals d ON d.account_id = a.id AND d.kind = 'trade' AND d.datetime > $2::timestamptz - interval '7 days'
         WHERE a.teiko_category = ANY($1) GROUP BY a.id ORDER BY a.account_name`,
        [categories, now],
      );
      const eur = (x: number, currency: string) => Math.round(toEur(x, currency) * 100) / 100;
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
    '/api/brokers/accounts/max-drawdown',
    { schema: { querystring: MaxDrawdownQuery, response: { 200: MaxDrawdownResponse, ...errors } } },
    async (request) => {
      if (!request.query.account) throw badRequest('Account is not provided.');
      const account = await findAccount(db, callerOf(request), request.query.account);
      const deals = await loadDeals(db, account.id);
      return { max_drawdown_percentage: Math.round(maxDrawdownOf(deals) * 100) / 100 };
    },
  );

  app.get(
    '/api/brokers/historical-deals',
    { schema: { querystring: HistoricalDealsQuery, response: { 200: HistoricalDealsResponse, ...errors } } },
    async (request) => {
      const user = callerOf(request);
      if (!request.query.account) throw badRequest('Account is required');
      const account = await findAccount(db, user, request.query.account);
      const all = await loadDeals(db, account.id);
      const from = request.query.start_date;
      const inPeriod = all.filter((d) => from === undefined || epoch(d.datetime) >= from);
      const listed = request.query.filter_rebalancing ? inPeriod.filter((d) => !d.is_rebalancing) : inPeriod;
      const trades = inPeriod.filter((d) => d.kind === 'trade');
      const s = statsOf(trades);
      const allSeries = seriesOf(all, from, () => true);
      const rebates = user.permissions.includes('read_rebate');
      const cur = account.currency;
      const last = <T extends { value: number }>(xs: T[]) => xs.at(-1)?.value ?? 0;
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
                type: d.type ?? (d.kind === 'deposit' ? 'Deposit' : 'Withdrawal'),
                category: d.category ?? 'Balance',
                server: account.server,
                currency: cur,
                login: account.account,
                open_price: d.open_price,
                open_price_currency: d.open_price,
                close_price: d.close_price,
                profit: d.kind === 'trade' ? d.profit : d.amount,
                profit_currency: Math.round(toEur(d.kind === 'trade' ? d.profit : d.amount, cur) * 100) / 100,
                swap: d.swap,
                swap_currency: Math.round(toEur(d.swap, cur) * 100) / 100,
                quantity: d.quantity,
                quantity_currency: d.quantity,
                datetime: epoch(d.datetime),
                fee: d.fee,
                fee_currency: Math.round(toEur(d.fee + d.commission, cur) * 100) / 100,
                commission: d.commission,
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
              },
            },
            fx: seriesOf(all, from, (d) => d.category === 'Forex'),
            equities: seriesOf(all, from, (d) => d.category === 'Equities'),
          },
        ],
      };
    },
  );

  app.get(
    '/api/brokers/accounts/historical_infos',
    {
      schema: {
        querystring: HistoricalInfosQuery,
        response: { 200: HistoricalNavResponse, ...errors },
      },
    },
    async (request) => {
      const categories = scopeCategories(portfoliosFor(callerOf(request), undefined));
      const months = await db.query<{ m: number; y: number; days: number[] }>(
        `SELECT extract(month FROM n.day)::int AS m, extract(year FROM n.day)::int AS y,
                array_agg(DISTINCT extract(day FROM n.day)::int ORDER BY extract(day FROM n.day)::int) AS days
         FROM nav_snapshots n JOIN accounts a ON a.id = n.account_id WHERE a.teiko_category = ANY($1)
         GROUP BY 1, 2 ORDER BY 2 DESC, 1 DESC`,
        [categories],
      );
      const available = Object.fromEntries(months.map((r) => [`${r.m}.${r.y}`, r.days]));
      const key = request.query.date_id ?? (months[0] ? `${months[0].m}.${months[0].y}` : undefined);
      if (!key) return { data: [], available_dates: available };
      const [m, y] = key.split('.').map(Number);
      const rows = await db.query<{
        account_id: string;
        day: number;
        account_name: string;
        account: string;
        balance: number;
        equity: number;
        broker_name: string;
        taken_at: Date;
        teiko_category: string;
        img_path: string;
        currency: string;
      }>(
        `SELECT a.account_id, extract(day FROM n.day)::int AS day, a.account_name, a.account, n.balance, n.equity,
                b.broker_name, n.taken_at, a.teiko_category, b.img_path, a.currency
         FROM nav_snapshots n JOIN accounts a ON a.id = n.account_id JOIN brokers b ON b.id = a.broker_id
         WHERE a.teiko_category = ANY($1) AND n.day >= make_date($2, $3, 1) AND n.day < make_date($2, $3, 1) + interval '1 month'
         ORDER BY n.day, b.broker_name, a.account_name`,
        [categories, y, m],
      );
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
          last_update: epoch(r.taken_at),
          teiko_category: r.teiko_category,
          img_path: r.img_path,
          currency: r.currency,
          balance_currency: Math.round(toEur(r.balance, r.currency) * 100) / 100,
          account_currency: r.currency,
        })),
        available_dates: available,
      };
    },
  );
};
