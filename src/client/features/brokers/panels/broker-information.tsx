import { memo } from 'react';
import type { Account } from '#shared/contract/accounts.ts';
import { brokerTotalsByCurrency } from '#shared/analytics/broker-totals.ts';
import { formatMoney } from '#shared/format/money.ts';
import { signedClass } from '#client/ui/trade-cells.tsx';

/**
 * Information (docs/product.md#screens): Total Balance, Total PnL and, with read_rebate, Total Rebate of the
 * broker's accounts; one line per account currency, since accounts of different currencies do not add up.
 */
export const BrokerInformation = memo(function BrokerInformation({ accounts, showRebate }: { accounts: readonly Account[]; showRebate: boolean }) {
  const totals = brokerTotalsByCurrency(accounts);
  const tiles = [
    { label: 'Total Balance', key: 'balance' as const, signed: false },
    { label: 'Total PnL', key: 'pnl' as const, signed: true },
    ...(showRebate ? [{ label: 'Total Rebate', key: 'rebate' as const, signed: false }] : []),
  ];
  return (
    <div className="broker-information">
      <h3 className="subsection-title">Information</h3>
      <dl className="broker-totals">
        {tiles.map((tile) => (
          <div key={tile.key} className="broker-total" data-figure={tile.label}>
            <dt>{tile.label}</dt>
            {totals.length === 0 ? (
              <dd>{formatMoney(0)}</dd>
            ) : (
              totals.map((t) => {
                const value = t[tile.key] ?? 0;
                return (
                  <dd key={t.currency} data-currency={t.currency} data-value={value} className={tile.signed ? signedClass(value) : undefined}>
                    {formatMoney(value, t.currency)}
                  </dd>
                );
              })
            )}
          </div>
        ))}
      </dl>
    </div>
  );
});
