import { useDeferredValue, useMemo, useState } from 'react';
import { liveFeeds } from '#shared/contract/live.ts';
import { useQuery } from '@tanstack/react-query';
import type { Account } from '#shared/contract/accounts.ts';
import type { Position } from '#shared/contract/positions.ts';
import { hasPermission } from '#shared/domain/permissions.ts';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import { compareValues } from '#shared/domain/sorting.ts';
import { accountQueries } from '#client/api/queries/accounts.ts';
import { usePortfolio } from '#client/app/portfolio.ts';
import { useSession } from '#client/auth/session-store.ts';
import { useLivePositions } from '#client/live/use-live-positions.ts';
import { useElapsed, useSteppedCount } from '#client/ui/use-staged-mount.ts';
import { BrokerIcon } from '#client/ui/broker-icon.tsx';
import { PageTitle } from '#client/ui/page-title.tsx';
import { SidePicker } from '#client/ui/side-picker.tsx';
import { EmptyState, ErrorState, LoadingState } from '#client/ui/states.tsx';
import { useIsWide } from '#client/ui/use-media-query.ts';
import { BrokerLiveTrades } from './panels/broker-live-trades.tsx';
import { BrokerSummary } from './panels/broker-summary.tsx';
import { RebatesByAccount } from './panels/rebates-by-account.tsx';
import './brokers.css';

export const LOADING_BROKER = 'Chargement du broker...';

/** Brokers screen (docs/product.md#screens): pick a broker of the portfolio, then its summary, rebates and live trades. */
export function BrokersPage() {
  const session = useSession();
  const { scope } = usePortfolio();
  const wide = useIsWide();
  const canReadRebate = hasPermission(session?.restrictions, 'read_rebate');
  const brokers = useQuery(accountQueries.brokers(scope));
  const accounts = useQuery(accountQueries.info(scope));
  // The panels render the answers from deferred copies, starting from none: transitions React
  // renders in slices, instead of one synchronous render of the whole screen in the task that
  // received them (or in the screen's first render, when the route's loader had them there already).
  // The initial value is null, not undefined: React takes an undefined one for none.
  const brokersData = useDeferredValue(brokers.data ?? null, null) ?? undefined;
  const accountsData = useDeferredValue(accounts.data ?? null, null) ?? undefined;
  const [chosen, setChosen] = useState<string | null>(null);

  // The server answers the brokers of the portfolio (its membership rule); they are only sorted here.
  const list = useMemo(() => (brokersData ?? []).toSorted((a, b) => compareValues(a.broker_name, b.broker_name)), [brokersData]);
  const broker = list.find((b) => b.broker_name === chosen)?.broker_name ?? list[0]?.broker_name ?? null;
  const brokerAccounts = useMemo(() => (accountsData ?? []).filter((a) => a.broker_name === broker), [accountsData, broker]);
  const pickerItems = useMemo(
    () => list.map((b) => ({ value: b.broker_name, label: b.broker_name, icon: <BrokerIcon broker={b.broker_name} size={24} /> })),
    [list],
  );
  const brokersLoading = brokersData === undefined && !brokers.isError;
  const accountsLoading = accountsData === undefined && !accounts.isError;

  const live = useLivePositions({
    path: liveFeeds.aggregateBy.path,
    params: { portfolio: scope, aggregate_by: 'broker', broker_name: broker ?? undefined },
    enabled: broker !== null,
  });
  // A snapshot a second: rendered as a transition, and only by the panels that show positions. A
  // feed that starts again (another broker) shows its loading state at once, not the last rows.
  const deferredPositions = useDeferredValue(live.positions);
  const positions = live.positions === null ? null : deferredPositions;

  let content;
  if (brokersLoading || accountsLoading) content = <LoadingState>{LOADING_BROKER}</LoadingState>;
  else if (brokers.isError && brokersData === undefined) content = <ErrorState onRetry={() => void brokers.refetch()}>{brokers.error.message}</ErrorState>;
  else if (accounts.isError && accountsData === undefined) content = <ErrorState onRetry={() => void accounts.refetch()}>{accounts.error.message}</ErrorState>;
  else if (broker === null) content = <EmptyState>Select a broker to view accounts</EmptyState>;
  else
    content = (
      <BrokerPanels
        key={broker}
        broker={broker}
        accounts={brokerAccounts}
        positions={positions}
        liveError={live.error}
        scope={scope}
        showRebate={canReadRebate}
        wide={wide}
      />
    );

  return (
    <div className="brokers-screen">
      <PageTitle>Brokers</PageTitle>
      <div className="picker-layout">
        {/* Held in its place while the brokers load, so the panels do not move down when it fills. */}
        {brokersLoading || list.length > 0 ? (
          <SidePicker label="Select a Broker" items={pickerItems} value={broker} onChange={setChosen} loading={brokersLoading} />
        ) : null}
        <div className="picker-content">{content}</div>
      </div>
    </div>
  );
}

/** Stages of BrokerPanels after its first render. */
const STAGES = 2;
/** How long the panels below the summary wait for the feed's first answer at most. */
const FEED_WAIT_MS = 2000;

/**
 * One broker's panels, drawn in steps (useStagedMount), each a transition of its own: the heading
 * and the summary at once (a phone's first screen), then the rebates, then the live trades, each
 * added below what is already there. The steps wait for the feed's first answer (its snapshot or
 * its error; FEED_WAIT_MS at most), which draws the summary's distribution bars: the summary has
 * its final height before anything is drawn below it, so nothing on screen moves.
 */
function BrokerPanels({
  broker,
  accounts,
  positions,
  liveError,
  scope,
  showRebate,
  wide,
}: {
  broker: string;
  accounts: readonly Account[];
  positions: readonly Position[] | null;
  liveError: string | null;
  scope: Portfolio | undefined;
  showRebate: boolean;
  wide: boolean;
}) {
  const waited = useElapsed(FEED_WAIT_MS);
  const stage = useSteppedCount(positions !== null || liveError !== null || waited ? STAGES : 0, 1, 0);
  return (
    <div className="broker-panels" data-broker={broker}>
      <header className="broker-heading">
        <BrokerIcon broker={broker} size={36} />
        <h2 className="broker-name">{broker}</h2>
      </header>
      <BrokerSummary broker={broker} accounts={accounts} positions={positions} showRebate={showRebate} wide={wide} />
      {showRebate && stage >= 1 ? <RebatesByAccount portfolio={scope} broker={broker} /> : null}
      {stage >= 2 ? <BrokerLiveTrades positions={positions} error={liveError} wide={wide} /> : null}
    </div>
  );
}
