import { useState } from 'react';
import { liveFeeds } from '#shared/contract/live.ts';
import { useQuery } from '@tanstack/react-query';
import { hasPermission } from '#shared/domain/permissions.ts';
import { compareValues } from '#shared/domain/sorting.ts';
import { accountQueries } from '#client/api/queries/accounts.ts';
import { usePortfolio } from '#client/app/portfolio.ts';
import { useSession } from '#client/auth/session-store.ts';
import { useLivePositions } from '#client/live/use-live-positions.ts';
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
  const [chosen, setChosen] = useState<string | null>(null);

  // The server answers the brokers of the portfolio (its membership rule); they are only sorted here.
  const list = (brokers.data ?? []).toSorted((a, b) => compareValues(a.broker_name, b.broker_name));
  const broker = list.find((b) => b.broker_name === chosen)?.broker_name ?? list[0]?.broker_name ?? null;
  const brokerAccounts = (accounts.data ?? []).filter((a) => a.broker_name === broker);

  const live = useLivePositions({
    path: liveFeeds.aggregateBy.path,
    params: { portfolio: scope, aggregate_by: 'broker', broker_name: broker },
    enabled: broker !== null,
  });

  let content;
  if (brokers.isPending || accounts.isPending) content = <LoadingState>{LOADING_BROKER}</LoadingState>;
  else if (brokers.isError) content = <ErrorState onRetry={() => void brokers.refetch()}>{brokers.error.message}</ErrorState>;
  else if (accounts.isError) content = <ErrorState onRetry={() => void accounts.refetch()}>{accounts.error.message}</ErrorState>;
  else if (broker === null) content = <EmptyState>Select a broker to view accounts</EmptyState>;
  else
    content = (
      <div className="broker-panels" data-broker={broker}>
        <header className="broker-heading">
          <BrokerIcon broker={broker} size={36} />
          <h2 className="broker-name">{broker}</h2>
        </header>
        <BrokerSummary broker={broker} accounts={brokerAccounts} positions={live.positions} showRebate={canReadRebate} wide={wide} />
        {canReadRebate ? <RebatesByAccount key={broker} portfolio={scope} broker={broker} /> : null}
        <BrokerLiveTrades positions={live.positions} error={live.error} wide={wide} />
      </div>
    );

  return (
    <div className="brokers-screen">
      <PageTitle>Brokers</PageTitle>
      <div className="picker-layout">
        {list.length > 0 ? (
          <SidePicker
            label="Select a Broker"
            items={list.map((b) => ({ value: b.broker_name, label: b.broker_name, icon: <BrokerIcon broker={b.broker_name} size={24} /> }))}
            value={broker}
            onChange={setChosen}
          />
        ) : null}
        <div className="picker-content">{content}</div>
      </div>
    </div>
  );
}
