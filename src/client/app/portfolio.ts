import { useNavigate, useRouterState } from '@tanstack/react-router';
import type { SessionData } from '#shared/contract/auth.ts';
import { authorisedPortfolios, selectPortfolio, type PortfolioSelection } from '#shared/domain/portfolio-selection.ts';
import { ALL_PORTFOLIOS, DEFAULT_PORTFOLIO, PORTFOLIOS, type Portfolio, type RebatePortfolio } from '#shared/domain/portfolios.ts';
import { sessionStore, useSession } from '#client/auth/session-store.ts';
import { ROUTES } from './paths.ts';

/**
 * The client's one place that turns the URL's `portfolio` search parameter, with the signed-in
 * user's portfolio_auth, into the portfolio a screen shows (docs/product.md#screens). The rule itself is
 * selectPortfolio (#shared/domain/portfolio-selection.ts); everything on the client reaches it
 * through pagePortfolio below: the app layout's redirect and the route loaders call it directly,
 * the top bar's selector and the screens through usePortfolio.
 */

/** The `portfolio` search parameter of every authenticated page (docs/product.md#screens). */
export interface PortfolioSearch {
  portfolio?: string;
}

export function validatePortfolioSearch(search: Record<string, unknown>): PortfolioSearch {
  return typeof search.portfolio === 'string' && search.portfolio.length > 0 ? { portfolio: search.portfolio } : {};
}

/** Only the rebates page accepts 'All'. */
const allowsAll = (pathname: string): boolean => pathname === ROUTES.rebates;

export interface PagePortfolio extends PortfolioSelection {
  /** The one portfolio a portfolio-scoped read asks for: `portfolio`, or undefined for 'All' (rebates page only). */
  scope: Portfolio | undefined;
}

/**
 * The portfolio the page at `pathname` shows for this search, and the parameter the URL should hold
 * for it (undefined: none, Consolidated Portfolio). `session` defaults to the stored one, for the
 * router's callbacks; a component passes the session it subscribes to (useSession).
 */
export function pagePortfolio(
  search: PortfolioSearch,
  pathname: string,
  session: Pick<SessionData, 'portfolio_auth'> | null = sessionStore.get(),
): PagePortfolio {
  const selection = selectPortfolio(search.portfolio, session?.portfolio_auth ?? [], { allowAll: allowsAll(pathname) });
  return { ...selection, scope: selection.portfolio === ALL_PORTFOLIOS ? undefined : selection.portfolio };
}

export interface PortfolioState {
  /** What the page shows: a portfolio, or 'All' on the rebates page. */
  portfolio: RebatePortfolio;
  /** See PagePortfolio.scope. */
  scope: Portfolio | undefined;
  /** The portfolios the user may pick (the top bar's 'Select Portfolio'), in the usual order. */
  choices: readonly Portfolio[];
  /** Moves the URL, the single source of truth, to another portfolio (through the same rule). */
  setPortfolio: (p: string) => void;
}

/** The page's portfolio, the choices, and a setter that keeps the URL the single source of truth. */
export function usePortfolio(): PortfolioState {
  const session = useSession();
  const location = useRouterState({ select: (s) => s.location });
  const navigate = useNavigate();
  const { portfolio, scope } = pagePortfolio(location.search, location.pathname, session);
  const authorised = authorisedPortfolios(session?.portfolio_auth ?? []);
  const choices = PORTFOLIOS.filter((p) => authorised.includes(p));
  const setPortfolio = (p: string) => {
    const { param } = pagePortfolio({ portfolio: p }, location.pathname, session);
    void navigate({ to: location.pathname, search: (prev: PortfolioSearch) => ({ ...prev, portfolio: param }) });
  };
  return { portfolio, scope, choices, setPortfolio };
}

/**
 * The portfolio of a screen that shows one portfolio (every page but rebates, where the rule never
 * chooses 'All'). The router moves the URL before the next screen replaces this one, so a screen
 * being left for a rebates URL asking for 'All' renders once more against it: it then reads the
 * default, Consolidated Portfolio.
 */
export function useSinglePortfolio(): Portfolio {
  return usePortfolio().scope ?? DEFAULT_PORTFOLIO;
}
