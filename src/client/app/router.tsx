import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
} from '@tanstack/react-router';
import { accountQueries } from '#client/api/queries/accounts.ts';
import { alertQueries } from '#client/api/queries/alerts.ts';
import { bridgeQueries } from '#client/api/queries/bridge.ts';
import { copyRuleQueries } from '#client/api/queries/copy-rules.ts';
import { prefetchInSteps, type Prefetch } from '#client/api/queries/prefetch.ts';
import { hasPermission } from '#shared/domain/permissions.ts';
import { ROUTES, safeRedirect } from './paths.ts';
import { AppLayout } from './app-layout.tsx';
import { NotFound } from '#client/ui/not-found.tsx';
import { sessionStore } from '#client/auth/session-store.ts';
import { pagePortfolio, validatePortfolioSearch } from './portfolio.ts';

export interface RouterContext {
  queryClient: QueryClient;
  auth: { isAuthenticated: boolean };
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFound,
});

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: ROUTES.login,
  validateSearch: (search: Record<string, unknown>): { redirect?: string } =>
    typeof search.redirect === 'string' ? { redirect: search.redirect } : {},
  beforeLoad: ({ context, search }) => {
    // Sign-in is only for signed-out users (docs/product.md#screens).
    if (context.auth.isAuthenticated) throw redirect({ href: safeRedirect(search.redirect) });
  },
  component: lazyRouteComponent(() => import('#client/features/login/login-page.tsx'), 'LoginPage'),
});

/** Whether the signed-in user holds `write`: their screens also show the bridge switch and Pairs selectors. */
const canWrite = () => hasPermission(sessionStore.get()?.restrictions, 'write');

const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  validateSearch: validatePortfolioSearch,
  beforeLoad: ({ context, location, search }) => {
    if (!context.auth.isAuthenticated) {
      throw redirect({ to: ROUTES.login, search: { redirect: location.href } });
    }
    // pagePortfolio decides the portfolio: Consolidated drops the parameter, an unauthorised one switches.
    const { param } = pagePortfolio(search, location.pathname);
    if (param !== search.portfolio) {
      throw redirect({ to: location.pathname, search: { ...search, portfolio: param }, replace: true });
    }
  },
  // The top bar's data (the alerts badge; the bridge switch of write users) is asked for before
  // the bar renders.
  loader: ({ context }) => {
    const bridge: Prefetch = (client) => client.prefetchQuery(bridgeQueries.status());
    prefetchInSteps(context.queryClient, [(client) => client.prefetchQuery(alertQueries.list()), ...(canWrite() ? [bridge] : [])]);
  },
  component: AppLayout,
});

const homeRoute = createRoute({
  getParentRoute: () => appRoute,
  path: ROUTES.home,
  loaderDeps: ({ search }) => ({ portfolio: search.portfolio }),
  // What Summary asks for as it mounts (the accounts, the brokers, and the masters' copy rules for
  // the Pairs selectors of write users), asked for while its code loads. The screen's chunk is not
  // imported here: this list names the same query factories it uses.
  loader: ({ context, deps }) => {
    // The portfolio Summary shows (on this route never 'All': scope is the portfolio itself).
    const portfolio = pagePortfolio(deps, ROUTES.home).scope;
    const copyRules: Prefetch = (client) => client.prefetchQuery(copyRuleQueries.infos());
    prefetchInSteps(context.queryClient, [
      (client) => client.prefetchQuery(accountQueries.info(portfolio)),
      (client) => client.prefetchQuery(accountQueries.brokers(portfolio)),
      ...(canWrite() ? [copyRules] : []),
    ]);
  },
  component: lazyRouteComponent(() => import('#client/features/summary/summary-page.tsx'), 'SummaryPage'),
});
const accountsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: ROUTES.accounts,
  loaderDeps: ({ search }) => ({ portfolio: search.portfolio }),
  // The accounts the screen lists and picks from, asked for while its code loads (as on Summary).
  loader: ({ context, deps }) => {
    const portfolio = pagePortfolio(deps, ROUTES.accounts).scope;
    prefetchInSteps(context.queryClient, [(client) => client.prefetchQuery(accountQueries.info(portfolio))]);
  },
  component: lazyRouteComponent(() => import('#client/features/accounts/accounts-page.tsx'), 'AccountsPage'),
});
const brokersRoute = createRoute({
  getParentRoute: () => appRoute,
  path: ROUTES.brokers,
  loaderDeps: ({ search }) => ({ portfolio: search.portfolio }),
  // The brokers the screen picks from and their accounts, asked for while its code loads.
  loader: ({ context, deps }) => {
    const portfolio = pagePortfolio(deps, ROUTES.brokers).scope;
    prefetchInSteps(context.queryClient, [
      (client) => client.prefetchQuery(accountQueries.brokers(portfolio)),
      (client) => client.prefetchQuery(accountQueries.info(portfolio)),
    ]);
  },
  component: lazyRouteComponent(() => import('#client/features/brokers/brokers-page.tsx'), 'BrokersPage'),
});
const navRoute = createRoute({
  getParentRoute: () => appRoute,
  path: ROUTES.nav,
  component: lazyRouteComponent(() => import('#client/features/nav/nav-page.tsx'), 'NavPage'),
});
const copyRoute = createRoute({
  getParentRoute: () => appRoute,
  path: ROUTES.copy,
  component: lazyRouteComponent(() => import('#client/features/copy/copy-page.tsx'), 'CopyPage'),
});
const rebatesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: ROUTES.rebates,
  component: lazyRouteComponent(() => import('#client/features/rebates/rebates-page.tsx'), 'RebatesPage'),
});

const routeTree = rootRoute.addChildren([
  loginRoute,
  appRoute.addChildren([homeRoute, accountsRoute, brokersRoute, navRoute, copyRoute, rebatesRoute]),
]);

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient, auth: { isAuthenticated: false } },
    defaultPreload: 'intent',
    scrollRestoration: true,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
