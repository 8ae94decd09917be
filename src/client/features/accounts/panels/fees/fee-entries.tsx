/* The fees charged in a period, with their arithmetic. */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { formatDayFr } from '#shared/format/dates.ts';
import { formatMoney } from '#shared/format/money.ts';
import { feeQueries, type FeeRange } from '#client/api/queries/fees.ts';
import { EmptyState, ErrorState, LoadingState } from '#client/ui/states.tsx';
import { type FeesData, type FeesAccount, KIND_LABEL, KINDS } from './fee-model.ts';

/** Charges and adjustments shown before 'Show more'. */
export const ENTRIES_PAGE = 20;

export function FeeEntries({ account, range }: { account: FeesAccount; range: FeeRange }) {
  const query = useQuery(feeQueries.entries(account.account_id, range));
  const [shown, setShown] = useState(ENTRIES_PAGE);
  if (query.isPending) return <LoadingState>Loading fees...</LoadingState>;
  if (query.isError) return <ErrorState onRetry={() => void query.refetch()}>{query.error.message}</ErrorState>;
  return <FeeEntryList data={query.data} shown={shown} onMore={() => setShown((n) => n + ENTRIES_PAGE)} />;
}

/** Sums per currency, each to the cent: '4,56 €', or '4,56 € + 1,00 $'. */
export function moneyTotals(entries: readonly { amount: number; currency: string }[]): string {
  const sums = new Map<string, number>();
  for (const e of entries) sums.set(e.currency, (sums.get(e.currency) ?? 0) + e.amount);
  return [...sums].map(([currency, sum]) => formatMoney(sum, currency)).join(' + ');
}

export function FeeEntryList({ data, shown, onMore }: { data: FeesData; shown: number; onMore: () => void }) {
  const charges = data.entries.filter((e) => e.entry !== 'accrual');
  const accruals = data.entries.filter((e) => e.entry === 'accrual');
  const visible = charges.slice(0, shown);
  const totals = KINDS.flatMap((kind) => data.totals.filter((t) => t.kind === kind));
  return (
    <div className="fees-entries">
      {totals.length === 0 ? null : (
        <dl className="fees-totals" aria-label="Fee totals">
          {totals.map((t) => (
            <div key={`${t.kind}-${t.currency}`} className="fees-total">
              <dt>{KIND_LABEL[t.kind]} charged</dt>
              <dd>
                {formatMoney(t.charged, t.currency)}
                {t.accrued === 0 ? null : <span className="fees-total-accrued"> + {formatMoney(t.accrued, t.currency)} accrued</span>}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {accruals.length === 0 ? null : (
        <p className="fees-accruals">
          {accruals.length} daily management {accruals.length === 1 ? 'accrual' : 'accruals'}: {moneyTotals(accruals)} in all
        </p>
      )}
      {charges.length === 0 ? (
        <EmptyState className="fees-empty">{accruals.length === 0 ? 'No fee in this period.' : 'Nothing charged in this period yet.'}</EmptyState>
      ) : (
        <ul className="fees-entry-list" aria-label="Fees charged">
          {visible.map((e, i) => (
            <li key={`${e.kind}-${e.entry}-${e.at}-${i}`} className="fees-entry" data-kind={e.kind} data-entry={e.entry}>
              <div className="fees-entry-line">
                <span className="fees-entry-kind">
                  {KIND_LABEL[e.kind]}
                  {e.entry === 'adjustment' ? <span className="badge fees-badge">Adjustment</span> : null}
                </span>
                <span className="fees-entry-amount">{formatMoney(e.amount, e.currency)}</span>
              </div>
              <div className="fees-entry-meta">
                {formatDayFr(e.at, 'UTC')} · period {e.period}
              </div>
              <div className="fees-entry-note">{e.note}</div>
            </li>
          ))}
        </ul>
      )}
      {charges.length > visible.length ? (
        <div className="show-more">
          <span className="panel-note">
            {visible.length} of {charges.length}
          </span>
          <button type="button" className="button" onClick={onMore}>
            Show more
          </button>
        </div>
      ) : null}
    </div>
  );
}
