import { memo } from 'react';
import type { Position } from '#shared/contract/positions.ts';
import { marketSplit } from '#shared/analytics/instrument-distribution.ts';
import { formatMoney } from '#shared/format/money.ts';
import { formatPercent } from '#shared/format/numbers.ts';
import { SectionPanel } from '#client/ui/section-panel.tsx';
import { Skeleton } from '#client/ui/skeleton.tsx';
import { EmptyState } from '#client/ui/states.tsx';

/**
 * Distribution panel (docs/product.md#screens): the account's open exposure (notional in EUR, `quantity_currency`)
 * split between Forex and Equities, as two amounts and a bar.
 */
export const AccountDistributionPanel = memo(function AccountDistributionPanel({ positions }: { positions: readonly Position[] | null }) {
  let body;
  if (positions === null) {
    body = (
      <div className="distribution-loading" role="status" aria-label="Loading distribution">
        <Skeleton height={18} width="60%" />
        <Skeleton height={14} />
      </div>
    );
  } else {
    const split = marketSplit(positions, (p) => p.quantity_currency);
    if (split.forex + split.equities === 0) body = <EmptyState>No distribution data available</EmptyState>;
    else {
      const parts = [
        { key: 'forex', label: 'Forex', amount: split.forex, share: split.forexPercentage },
        { key: 'equities', label: 'Equities', amount: split.equities, share: split.equitiesPercentage },
      ];
      body = (
        <>
          <dl className="market-split">
            {parts.map((part) => (
              <div key={part.key} className={`market-split-item market-${part.key}`} data-value={part.amount}>
                <dt>
                  <span className="market-dot" aria-hidden="true" />
                  {part.label}
                </dt>
                <dd>
                  <strong>{formatMoney(part.amount, 'EUR')}</strong>
                  <span className="market-share">{formatPercent(part.share)}</span>
                </dd>
              </div>
            ))}
          </dl>
          <div className="market-bar" role="img" aria-label={`Forex ${formatPercent(split.forexPercentage)}, Equities ${formatPercent(split.equitiesPercentage)}`}>
            {parts.map((part) =>
              part.share > 0 ? <span key={part.key} className={`market-bar-segment market-${part.key}`} style={{ width: `${part.share}%` }} /> : null,
            )}
          </div>
          <p className="panel-note">Open positions, notional in EUR.</p>
        </>
      );
    }
  }
  return (
    <SectionPanel title="Distribution" className="account-distribution-panel">
      {body}
    </SectionPanel>
  );
});
