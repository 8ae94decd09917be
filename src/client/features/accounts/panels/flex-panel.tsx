import { memo, useId, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { SectionPanel } from '#client/ui/section-panel.tsx';
import { ErrorState, LoadingState } from '#client/ui/states.tsx';
import { flexQueries, type FlexAccount } from '#client/api/queries/flex.ts';
import { FlexFetch } from './flex-fetch.tsx';
import { FlexRemove } from './flex-remove.tsx';
import { FlexSettingsForm } from './flex-settings-form.tsx';
import { FlexStatusView } from './flex-status.tsx';
import './flex-panel.css';

/**
 * 'Interactive Brokers Flex' of an account fed by IB's statements (write users; the page decides):
 * whether a Flex Web Service token is set (never the token), the query id, the token's expiry and how
 * the daily fetches go; a form to set the token and query id; Fetch now, which books the statement
 * and sums it up as the import does; and Remove.
 */
export const FlexPanel = memo(function FlexPanel({ accountId, login, accountName }: { accountId: string; login: string; accountName: string }) {
  const status = useQuery(flexQueries.status(accountId));
  const account: FlexAccount = { account_id: accountId, account: login, account_name: accountName };
  let body;
  if (status.isPending) body = <LoadingState>Loading Flex settings...</LoadingState>;
  else if (status.isError) body = <ErrorState onRetry={() => void status.refetch()}>{status.error.message}</ErrorState>;
  else
    body = (
      <div className="ibflex-layout">
        <div className="ibflex-column">
          <FlexSection title="Status">
            <FlexStatusView status={status.data} />
          </FlexSection>
          <FlexSection title="Fetch">
            <FlexFetch account={account} tokenSet={status.data.token_set} />
          </FlexSection>
        </div>
        <div className="ibflex-column">
          <FlexSection title="Settings">
            <FlexSettingsForm account={account} current={status.data} />
            <FlexRemove account={account} tokenSet={status.data.token_set} />
          </FlexSection>
        </div>
      </div>
    );
  return (
    <SectionPanel title="Interactive Brokers Flex" className="ibflex-panel">
      {body}
    </SectionPanel>
  );
});

/** A part of the panel under its small heading, named by it. */
function FlexSection({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <div role="group" className="ibflex-section" aria-labelledby={id}>
      <h3 id={id} className="stats-subheading">
        {title}
      </h3>
      {children}
    </div>
  );
}
