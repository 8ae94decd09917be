import { memo, useId, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { feeQueries } from '#client/api/queries/fees.ts';
import { SectionPanel } from '#client/ui/section-panel.tsx';
import { ErrorState, LoadingState } from '#client/ui/states.tsx';
import './fees-panel.css';
import { type FeesAccount, isoOf, todayIso, type PeriodChoice, rangeOf } from './fees/fee-model.ts';
import { TermsView } from './fees/terms-view.tsx';
import { SetTermsForm } from './fees/terms-form.tsx';
import { PeriodChooser, StatementDownloads } from './fees/statement-downloads.tsx';
import { FeeEntries } from './fees/fee-entries.tsx';

/**
 * The statement's period: a choice (this month, last month, the last quarter, or custom days, this
 * month's first day to today by default) and the range it names, null while the custom days are not
 * a valid range.
 */
function useStatementRange() {
  const [choice, setChoice] = useState<PeriodChoice>('this-month');
  const [custom, setCustom] = useState(() => {
    const now = new Date();
    return { from: isoOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))), to: todayIso(now) };
  });
  return { choice, setChoice, custom, setCustom, range: rangeOf(choice, custom) };
}

/**
 * 'Fees & statement' of one account (docs/fees.md): the fee terms in force, the high-water mark and
 * the management fee accrued; for write users, a form to set new terms from a day on; the investor
 * statement of a period as PDF or CSV; and the fees charged in that period, with their arithmetic.
 */
export const FeesPanel = memo(function FeesPanel({
  accountId,
  accountName,
  currency,
  canWrite,
}: {
  accountId: string;
  accountName: string;
  currency: string;
  canWrite: boolean;
}) {
  // Props are plain values, so the accounts' refetch every few seconds does not redraw the panel.
  const account = useMemo<FeesAccount>(() => ({ account_id: accountId, account_name: accountName, currency }), [accountId, accountName, currency]);
  const terms = useQuery(feeQueries.terms(account.account_id));
  const { choice, setChoice, custom, setCustom, range } = useStatementRange();
  const ids = useId();

  return (
    <SectionPanel title="Fees & statement" className="fees-panel">
      <div className="fees-layout">
        <div className="fees-column">
          <div role="group" className="fees-section" aria-labelledby={`${ids}-fee-terms`}>
            <h3 id={`${ids}-fee-terms`} className="stats-subheading">
              Terms in force
            </h3>
            {terms.isPending ? (
              <LoadingState>Loading fee terms...</LoadingState>
            ) : terms.isError ? (
              <ErrorState onRetry={() => void terms.refetch()}>{terms.error.message}</ErrorState>
            ) : (
              <TermsView data={terms.data} currency={account.currency} />
            )}
          </div>
          {canWrite ? <SetTermsForm account={account} current={terms.data?.current.terms} /> : null}
        </div>
        <div className="fees-column">
          <div role="group" className="fees-section" aria-labelledby={`${ids}-statement`}>
            <h3 id={`${ids}-statement`} className="stats-subheading">
              Statement
            </h3>
            <PeriodChooser choice={choice} onChoice={setChoice} custom={custom} onCustom={setCustom} range={range} />
            <StatementDownloads account={account} range={range} />
          </div>
          <div role="group" className="fees-section" aria-labelledby={`${ids}-fee-entries`}>
            <h3 id={`${ids}-fee-entries`} className="stats-subheading">
              Fee entries
            </h3>
            {range === null ? (
              <p className="panel-note">Choose a valid period to see its fees.</p>
            ) : (
              <FeeEntries account={account} range={range} />
            )}
          </div>
        </div>
      </div>
    </SectionPanel>
  );
});
