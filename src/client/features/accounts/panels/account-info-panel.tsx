import { memo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Account } from '#shared/contract/accounts.ts';
import { categoryLabel } from '#shared/domain/portfolios.ts';
import { lossFigures, useAccountLosses } from '#client/features/accounts/account-losses.ts';
import { formatMoney } from '#shared/format/money.ts';
import { tradingCosts } from '#shared/analytics/trade-stats.ts';
import { formatPercent, MISSING_VALUE } from '#shared/format/numbers.ts';
import { accountQueries } from '#client/api/queries/accounts.ts';
import { SectionPanel } from '#client/ui/section-panel.tsx';
import { EmptyState } from '#client/ui/states.tsx';
import { hasReported, WAITING_FIRST_REPORT } from '#client/offline/first-report.ts';
import { FigureList, toneOf } from '#client/ui/figure-list.tsx';

/** Account info panel (docs/product.md#screens): Balance, Gross profit, Net profit, Max Drawdown, Margin level, Fees, Swap, Category. */
export const AccountInfoPanel = memo(function AccountInfoPanel({ account }: { account: Account | undefined }) {
  const drawdown = useQuery(accountQueries.maxDrawdown(account?.account_id));
  const losses = useAccountLosses(account?.account_id);
  if (account === undefined) {
    return (
      <SectionPanel title="Information">
        <EmptyState>No account information available</EmptyState>
      </SectionPanel>
    );
  }
  if (!hasReported(account)) {
    // Registered, no report yet: no figure at all rather than 0,00 (issue 40).
    return (
      <SectionPanel title="Information" className="account-info-panel">
        <EmptyState>{WAITING_FIRST_REPORT}: this account's figures appear once its terminal reports.</EmptyState>
      </SectionPanel>
    );
  }
  const c = account.currency;
  return (
    <SectionPanel title="Information" className="account-info-panel">
      <FigureList
        label="Account information"
        figures={[
          { label: 'Balance', value: formatMoney(account.balance, c), raw: account.balance },
          { label: 'Gross profit', value: formatMoney(account.gross_profit, c), tone: toneOf(account.gross_profit), raw: account.gross_profit },
          { label: 'Net profit', value: formatMoney(account.net_profit, c), tone: toneOf(account.net_profit), raw: account.net_profit },
          {
            label: 'Max Drawdown',
            value: drawdown.data ? formatPercent(drawdown.data.max_drawdown_percentage) : MISSING_VALUE,
            raw: drawdown.data?.max_drawdown_percentage,
          },
          { label: 'Margin level', value: formatPercent(account.margin_level), raw: account.margin_level },
          // Fees on screen are the trading costs: commission and fees.
          { label: 'Fees', value: formatMoney(tradingCosts(account), c), raw: tradingCosts(account) },
          { label: 'Swap', value: formatMoney(account.total_swap, c), tone: toneOf(account.total_swap), raw: account.total_swap },
          { label: 'Category', value: categoryLabel(account.teiko_category), raw: account.teiko_category },
          ...lossFigures(losses, c),
        ]}
      />
    </SectionPanel>
  );
});
