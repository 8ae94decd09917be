import { convert } from '#shared/domain/fx.ts';
import { navAccountsOf, navRowsOf } from '#shared/domain/nav-view.ts';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import type { SessionUser } from '#server/auth/auth-store.ts';
import { callerScope, scopeFor } from '#server/auth/scope.ts';
import { accountInfoRows, brokersOfScope, type AccountInfoRow } from '#server/db/accounts-repo.ts';
import type { Database } from '#server/db/database.ts';
import { dealEntriesOf, dealTotals, recentResults, type DealTotals } from '#server/db/deals-repo.ts';
import { navMonths, navOfMonth, navSeriesOf } from '#server/db/nav-repo.ts';
import type { BrokerAdapter } from '#server/broker/port.ts';
import { maxDrawdownOf } from '#server/analytics/account-analytics.ts';
import { findAccount } from './account-lookup.ts';
import type { CachedRead } from './cached-read.ts';
import { historicalDeals } from './historical-deals.ts';

/**
 * The accounts' screens (docs/product.md#screens): accounts/info with live figures over the stored
 * ones, the recent results, an account's deal history and drawdown, the historical NAV.
 * Figures go out as computed: the response schemas round them (money to the cent, src/shared/contract/fields.ts).
 */

const finite = (x: number): number => (Number.isFinite(x) ? x : 0);

const NO_DEALS: DealTotals = { gross_profit: 0, net_profit: 0, total_fees: 0, total_commission: 0, total_swap: 0, total_rebate: 0 };

export class AccountsService {
  constructor(
    private readonly db: Database,
    private readonly market: BrokerAdapter | null,
    /** How each source's accounts are fed (the broker registry's declarations). */
    private readonly feedOf: (source: string) => 'simulated' | 'terminal' | 'statement' = () => 'terminal',
  ) {}

  private readonly eur = (amount: number, currency: string): number =>
    convert(amount, currency, 'EUR', this.market?.snapshot().rates ?? new Map<string, number>(), 'unconverted');

  /**
   * GET accounts/info: the accounts of the caller's portfolios (or `portfolio`), or of a portfolio's
   * real-time NAV (`navPortfolio`), or only their brokers. A NAV draws on every portfolio of the
   * caller (its rule borrows accounts of the others); the caller must be authorised for the
   * portfolio itself all the same.
   */
  info(user: SessionUser, query: { portfolio: Portfolio | undefined; navPortfolio: Portfolio | undefined; brokersOnly: boolean }) {
    const nav = query.navPortfolio === undefined ? undefined : scopeFor(user, query.navPortfolio).portfolios[0];
    const scope = nav === undefined ? scopeFor(user, query.portfolio) : callerScope(user);
    const rebates = user.permissions.includes('read_rebate');
    const brokersOnly = query.brokersOnly;
    return {
      key: JSON.stringify(['accounts/info', scope.categories, rebates, brokersOnly, nav ?? null]),
      compute: async () => {
        if (brokersOnly) return { data: await brokersOfScope(this.db, scope) };
        const [totals, rows] = await Promise.all([dealTotals(this.db), accountInfoRows(this.db, scope)]);
        const answer = this.accountsInfo(totals, rows, rebates);
        return nav === undefined ? answer : { data: navAccountsOf(answer.data, nav) };
      },
    } satisfies CachedRead<unknown>;
  }

  /** The accounts' stored figures with their live ones from the market, and sums over their deals. */
  private accountsInfo(totals: Map<number, DealTotals>, rows: AccountInfoRow[], rebates: boolean) {
    const live = this.market?.snapshot().accounts;
    const eur = this.eur;
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
          feed: this.feedOf(r.source),
        };
      }),
    };
  }

  /** The caller's accounts' results over the last 24 hours, 2 and 7 days, also in EUR. */
  async historicalLosses(user: SessionUser) {
    const now = new Date(this.market?.snapshot().at ?? Date.now());
    const rows = await recentResults(this.db, callerScope(user), now);
    return {
      data: rows.map((r) => ({
        ...r,
        pnl_24_hours_currency: this.eur(r.pnl_24_hours, r.currency),
        pnl_2_days_currency: this.eur(r.pnl_2_days, r.currency),
        pnl_7_days_currency: this.eur(r.pnl_7_days, r.currency),
      })),
    };
  }

  /** The largest drawdown of an account of the caller's, in %. */
  async maxDrawdown(user: SessionUser, ref: string) {
    const account = await findAccount(this.db, user, ref);
    const deals = await dealEntriesOf(this.db, account.id);
    return { max_drawdown_percentage: maxDrawdownOf(deals) };
  }

  /** An account's deals from `from` on, with its statistics and series (src/server/services/historical-deals.ts). */
  historicalDeals(user: SessionUser, query: { ref: string; from: number | undefined; withoutRebalancing: boolean }) {
    const { ref, from, withoutRebalancing } = query;
    const rebates = user.permissions.includes('read_rebate');
    return {
      // The account is looked up inside: the same reference means the same account for the same scope.
      key: JSON.stringify(['historical-deals', callerScope(user).categories, rebates, ref, from ?? null, withoutRebalancing]),
      compute: async () => {
        const account = await findAccount(this.db, user, ref);
        const [all, navs] = await Promise.all([dealEntriesOf(this.db, account.id), navSeriesOf(this.db, account.id)]);
        return historicalDeals({ account, all, navs, from, withoutRebalancing, rebates, eur: this.eur });
      },
    } satisfies CachedRead<unknown>;
  }

  /**
   * The end-of-day NAV rows of a month (`dateId`, 'M.YYYY'; the latest month without it) and the
   * months and days there are. A NAV draws on every portfolio of the caller; the caller must be
   * authorised for the portfolio itself.
   */
  historicalNav(user: SessionUser, query: { dateId: string | undefined; portfolio: Portfolio | undefined }) {
    const scope = callerScope(user);
    const dateId = query.dateId;
    const nav = query.portfolio === undefined ? undefined : scopeFor(user, query.portfolio).portfolios[0];
    return {
      key: JSON.stringify(['historical_infos', scope.categories, dateId ?? null, nav ?? null]),
      compute: async () => {
        const months = await navMonths(this.db, scope);
        const available = Object.fromEntries(months.map((r) => [`${r.m}.${r.y}`, r.days]));
        const key = dateId ?? (months[0] ? `${months[0].m}.${months[0].y}` : undefined);
        if (!key) return { data: [], available_dates: available };
        const [m, y] = key.split('.').map(Number);
        const all = await navOfMonth(this.db, scope, y!, m!);
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
            balance_currency: this.eur(r.balance, r.currency),
            account_currency: r.currency,
            derived: r.derived,
            broker_equity: r.broker_equity,
            broker_difference: r.broker_equity === null ? null : r.equity - r.broker_equity,
          })),
          available_dates: available,
        };
      },
    } satisfies CachedRead<unknown>;
  }
}
