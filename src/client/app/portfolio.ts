import { useNavigate, useRouterState } from '@tanstack/react-router';
import { selectPortfolio } from '#shared/domain/portfolio-selection.ts';
import type { RebatePortfolio } from '#shared/domain/portfolios.ts';
import { useSession } from '#client/auth/session-store.ts';
import { ROUTES } from './paths.ts';

/** The `portfolio` search parameter of every authenticated page (SPEC §2). */
export interface PortfolioSearch {
  portfolio?: string;
}

export function validatePortfolioSearch(search: Record<string, unknown>): PortfolioSearch {
  return typeof search.portfolio === 'string' && search.portfolio.length > 0 ? { portfolio: search.portfolio } : {};
}

/** Only the rebates page accepts 'All'. */
export const allowsAll = (pathname: string): boolean => pathname === ROUTES.rebates;

/** The page's portfolio, and a setter that keeps the URL the single source of truth. */
export function usePortfolio(): { portfolio: RebatePortfolio; setPortfolio: (p: string) => void } {
  const session = useSession();
  const location = useRouterState({ select: (s) => s.location });
  const navigate = useNavigate();
  const requested = (location.search as PortfolioSearch).portfolio;
  const { portfolio } = selectPortfolio(requested, session?.portfolio_auth ?? [], { allowAll: allowsAll(location.pathname) });
  const setPortfolio = (p: string) => {
    const { param } = selectPortfolio(p, session?.portfolio_auth ?? [], { allowAll: allowsAll(location.pathname) });
    void navigate({ to: location.pathname, search: (prev: PortfolioSearch) => ({ ...prev, portfolio: param }) });
  };
  return { portfolio, setPortfolio };
}
