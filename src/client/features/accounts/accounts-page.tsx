import { memo, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { liveFeeds } from '#shared/contract/live.ts';
import { useQuery } from '@tanstack/react-query';
import type { Account } from '#shared/contract/accounts.ts';
import { hasPermission } from '#shared/domain/permissions.ts';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import { accountQueries } from '#client/api/queries/accounts.ts';
import { dealQueries } from '#client/api/queries/deals.ts';
import { usePortfolio } from '#client/app/portfolio.ts';
import { useSession } from '#client/auth/session-store.ts';
import { useLivePositions } from '#client/live/use-live-positions.ts';
import { BrokerIcon } from '#client/ui/broker-icon.tsx';
import { PageTitle } from '#client/ui/page-title.tsx';
import { SidePicker } from '#client/ui/side-picker.tsx';
import { EmptyState, ErrorState, LoadingState } from '#client/ui/states.tsx';
import { useIsWide } from '#client/ui/use-media-query.ts';
import { useStagedMount } from '#client/ui/use-staged-mount.ts';
import { accountsByBroker, effectiveAccountId } from './account-groups.ts';
import { AccountDistributionPanel } from './panels/account-distribution-panel.tsx';
import { AccountInfoPanel } from './panels/account-info-panel.tsx';
import { AccountStatsPanel } from './panels/account-stats-panel.tsx';
import { FeesPanel } from './panels/fees-panel.tsx';
import { FlexPanel } from './panels/flex-panel.tsx';
import { HistoricalTradesPanel } from './panels/historical-trades-panel.tsx';
import { LiveTradesPanel } from './panels/live-trades-panel.tsx';
import { PerformancePanel } from './panels/performance-panel.tsx';
import { StatementImport } from './statement-import.tsx';
import './accounts.css';

/** The Fees & statement panel's anchor: Accounts' Statements link and the menu's lead there. */
export const STATEMENTS_ID = 'statements';

/** Accounts screen (docs/product.md#screens): pick an account, then its information, stats, distribution, performance and trades. */
export function AccountsPage() {
  const session = useSession();
  // The Statements link's follow of its panel (followElement), stopped when the screen goes.
  const following = useRef<(() => void) | null>(null);
  useEffect(() => () => following.current?.(), []);
  const { scope } = usePortfolio();
  const accounts = useQuery(accountQueries.info(scope));
  // The screen renders the answer from a deferred copy, starting from none: a transition React
  // renders in slices, instead of one synchronous render of every panel in the task that received
  // it (or in the screen's first render, when the route's loader had it there already). The
  // initial value is null, not undefined: React takes an undefined one for none.
  const accountsData = useDeferredValue(accounts.data ?? null, null) ?? undefined;
  const [chosen, setChosen] = useState<string | null>(null);

  const ordered = useMemo(() => accountsByBroker(accountsData ?? []), [accountsData]);
  const accountId = effectiveAccountId(ordered, chosen);
  const account = ordered.find((a) => a.account_id === accountId);
  const pickerItems = useMemo(
    () => ordered.map((a) => ({ value: a.account_id, label: a.account_name, group: a.broker_name, detail: `${a.account} · ${a.currency}` })),
    [ordered],
  );
  const loading = accountsData === undefined && !accounts.isError;

  let content;
  if (loading) content = <LoadingState>Loading accounts...</LoadingState>;
  else if (accounts.isError && accountsData === undefined)
    content = <ErrorState onRetry={() => void accounts.refetch()}>{accounts.error.message}</ErrorState>;
  else if (account === undefined || accountId === null) content = <EmptyState>No account information available</EmptyState>;
  else
    content = (
      <AccountPanels
        key={accountId}
        account={account}
        scope={scope}
        canReadRebate={hasPermission(session?.restrictions, 'read_rebate')}
        canWrite={hasPermission(session?.restrictions, 'write')}
      />
    );

  return (
    <div className="accounts-screen">
      <PageTitle>Accounts</PageTitle>
      {/* One tap to the account's statement, which is far down a phone's screen (issue 40 item 8). */}
      <a
        className="button statements-link"
        href={`#${STATEMENTS_ID}`}
        onClick={(event) => {
          // Scrolled here: the router keeps the page where it is on a link to the same place.
          const panel = document.getElementById(STATEMENTS_ID);
          if (!panel) return;
          event.preventDefault();
          following.current?.();
          following.current = followElement(panel);
        }}
      >
        Statements
      </a>
      <div className="picker-layout">
        {/* Held in its place while the accounts load, so the panels do not move down when it fills. */}
        {loading || ordered.length > 0 ? (
          <SidePicker
            label="Select an Account"
            items={pickerItems}
            value={accountId}
            onChange={setChosen}
            groupIcon={groupIcon}
            loading={loading}
          />
        ) : null}
        <div className="picker-content">{content}</div>
      </div>
    </div>
  );
}

const groupIcon = (broker: string) => <BrokerIcon broker={broker} size={22} />;

/** How long a panel reached by its link is kept in view while the panels above it fill. */
const FOLLOW_HASH_MS = 10_000;

/**
 * Scrolls to `target` and keeps it in view while the panels above it change height (answers that
 * come after it is drawn, panels drawn as the scroll passes them), until the reader scrolls, types
 * or taps, or FOLLOW_HASH_MS have passed. Returns what stops it.
 */
function followElement(target: HTMLElement): () => void {
  let moved = false;
  const stop = () => {
    moved = true;
  };
  const follow = () => {
    if (!moved) target.scrollIntoView();
  };
  follow();
  const observer = new ResizeObserver(follow);
  observer.observe(target.parentElement ?? document.body);
  const events = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
  for (const event of events) window.addEventListener(event, stop, { passive: true });
  const timer = window.setTimeout(() => observer.disconnect(), FOLLOW_HASH_MS);
  return () => {
    observer.disconnect();
    window.clearTimeout(timer);
    for (const event of events) window.removeEventListener(event, stop);
  };
}

/** Follows the element `id` (followElement) once it is `ready`, when the page's hash names it. */
function useFollowHash(id: string, ready: boolean) {
  useEffect(() => {
    const target = ready && window.location.hash === `#${id}` ? document.getElementById(id) : null;
    return target ? followElement(target) : undefined;
  }, [id, ready]);
}

/** Stages of AccountPanels after its first render (see below). */
const STAGES = 4;

/**
 * One account's panels, drawn in steps (useStagedMount), each a transition of its own: the heading
 * and the overview at once (the information, with the stats and distribution loading: a phone's
 * first screen), then the stats and distribution filled, then the performance chart, the live
 * trades and the historical trades, each added below what is already there, so nothing on screen
 * moves. The live feed (a snapshot a second) reaches only the panels that show it (the others are
 * memoised), and from a deferred copy, so a snapshot is a short, sliced render rather than the
 * whole screen again.
 */
function AccountPanels({ account, scope, canReadRebate, canWrite }: { account: Account; scope: Portfolio | undefined; canReadRebate: boolean; canWrite: boolean }) {
  const wide = useIsWide();
  const stage = useStagedMount(STAGES);
  const accountId = account.account_id;
  // Come by the menu's Statements (/accounts#statements): to the panel once it is drawn.
  useFollowHash(STATEMENTS_ID, stage >= 4);
  // Stats and historical trades cover all time; the chart asks for its own period.
  const deals = useQuery(dealQueries.historical({ account: accountId, filterRebalancing: true }));
  const dealsData = useDeferredValue(deals.data ?? null, null) ?? undefined;
  const dealsPending = dealsData === undefined && !deals.isError;
  const live = useLivePositions({
    path: liveFeeds.aggregateBy.path,
    params: { portfolio: scope, aggregate_by: 'account', account: accountId },
  });
  const positions = useDeferredValue(live.positions);

  return (
    <div className="account-panels" data-account={accountId}>
      <AccountHeading account={account} canWrite={canWrite} />
      <div className="account-overview">
        <AccountInfoPanel account={account} />
        <AccountStatsPanel isPending={dealsPending || stage < 1} isError={deals.isError} data={dealsData} />
        <AccountDistributionPanel positions={stage < 1 ? null : positions} />
      </div>
      {/* An account fed by Interactive Brokers' statements: its Flex fetch, for those who may set it. */}
      {canWrite && account.feed === 'statement' && stage >= 1 ? <FlexPanel accountId={accountId} login={account.account} accountName={account.account_name} /> : null}
      {stage < 2 ? null : <PerformancePanel accountId={accountId} currency={account.currency} />}
      {stage < 3 ? null : <LiveTradesPanel positions={positions} error={live.error} wide={wide} />}
      {stage < 4 ? null : (
        <HistoricalTradesPanel isPending={dealsPending} isError={deals.isError} data={dealsData} showRebate={canReadRebate} wide={wide} />
      )}
      <div id={STATEMENTS_ID}>
        {stage < 4 ? null : <FeesPanel accountId={accountId} accountName={account.account_name} currency={account.currency} canWrite={canWrite} />}
      </div>
    </div>
  );
}

const AccountHeading = memo(function AccountHeading({ account, canWrite }: { account: Account; canWrite: boolean }) {
  return (
    <header className="account-heading">
      <BrokerIcon broker={account.broker_name} size={36} />
      <div>
        <h2 className="account-name">{account.account_name}</h2>
        <p className="account-meta">
          {account.broker_name} · {account.account} · {account.server_name} · {account.currency}
          {account.is_master ? <span className="badge">Master</span> : null}
          {account.feed === 'statement' ? (
            <span className="badge" title="Fed by its broker's statements: figures as of the last one booked, no orders here">
              Statements
            </span>
          ) : null}
        </p>
      </div>
      {canWrite ? <StatementImport account={account} /> : null}
    </header>
  );
});
