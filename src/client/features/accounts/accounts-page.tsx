import { useState } from 'react';
import { liveFeeds } from '#shared/contract/live.ts';
import { useQuery } from '@tanstack/react-query';
import { hasPermission } from '#shared/domain/permissions.ts';
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
import { accountsByBroker, effectiveAccountId } from './account-groups.ts';
import { AccountDistributionPanel } from './panels/account-distribution-panel.tsx';
import { AccountInfoPanel } from './panels/account-info-panel.tsx';
import { AccountStatsPanel } from './panels/account-stats-panel.tsx';
import { HistoricalTradesPanel } from './panels/historical-trades-panel.tsx';
import { LiveTradesPanel } from './panels/live-trades-panel.tsx';
import { PerformancePanel } from './panels/performance-panel.tsx';
import { StatementImport } from './statement-import.tsx';
import './accounts.css';

/** Accounts screen (docs/product.md#screens): pick an account, then its information, stats, distribution, performance and trades. */
export function AccountsPage() {
  const session = useSession();
  const { scope } = usePortfolio();
  const wide = useIsWide();
  const canReadRebate = hasPermission(session?.restrictions, 'read_rebate');
  const canWrite = hasPermission(session?.restrictions, 'write');
  const accounts = useQuery(accountQueries.info(scope));
  const [chosen, setChosen] = useState<string | null>(null);

  const ordered = accountsByBroker(accounts.data ?? []);
  const accountId = effectiveAccountId(ordered, chosen);
  const account = ordered.find((a) => a.account_id === accountId);

  // Stats and historical trades cover all time; the chart asks for its own period.
  const deals = useQuery(dealQueries.historical({ account: accountId ?? undefined, filterRebalancing: true }));
  const live = useLivePositions({
    path: liveFeeds.aggregateBy.path,
    params: { portfolio: scope, aggregate_by: 'account', account: accountId },
    enabled: accountId !== null,
  });

  let content;
  if (accounts.isPending) content = <LoadingState>Loading accounts...</LoadingState>;
  else if (accounts.isError) content = <ErrorState onRetry={() => void accounts.refetch()}>{accounts.error.message}</ErrorState>;
  else if (account === undefined || accountId === null) content = <EmptyState>No account information available</EmptyState>;
  else {
    content = (
      <div className="account-panels" data-account={accountId}>
        <header className="account-heading">
          <BrokerIcon broker={account.broker_name} size={36} />
          <div>
            <h2 className="account-name">{account.account_name}</h2>
            <p className="account-meta">
              {account.broker_name} · {account.account} · {account.server_name} · {account.currency}
              {account.is_master ? <span className="badge">Master</span> : null}
            </p>
          </div>
          {canWrite ? <StatementImport account={account} /> : null}
        </header>
        <div className="account-overview">
          <AccountInfoPanel account={account} />
          <AccountStatsPanel isPending={deals.isPending} isError={deals.isError} data={deals.data} />
          <AccountDistributionPanel positions={live.positions} />
        </div>
        <PerformancePanel key={accountId} accountId={accountId} currency={account.currency} />
        <LiveTradesPanel positions={live.positions} error={live.error} wide={wide} />
        <HistoricalTradesPanel
          key={`history-${accountId}`}
          isPending={deals.isPending}
          isError={deals.isError}
          data={deals.data}
          showRebate={canReadRebate}
          wide={wide}
        />
      </div>
    );
  }

  return (
    <div className="accounts-screen">
      <PageTitle>Accounts</PageTitle>
      <div className="picker-layout">
        {accounts.data && accounts.data.length > 0 ? (
          <SidePicker
            label="Select an Account"
            items={ordered.map((a) => ({ value: a.account_id, label: a.account_name, group: a.broker_name, detail: `${a.account} · ${a.currency}` }))}
            value={accountId}
            onChange={setChosen}
            groupIcon={(broker) => <BrokerIcon broker={broker} size={22} />}
          />
        ) : null}
        <div className="picker-content">{content}</div>
      </div>
    </div>
  );
}
