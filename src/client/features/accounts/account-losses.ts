import { useQuery } from '@tanstack/react-query';
import type { HistoricalLoss } from '#shared/contract/accounts.ts';
import { formatMoney } from '#shared/format/money.ts';
import { MISSING_VALUE } from '#shared/format/numbers.ts';
import { accountQueries } from '#client/api/queries/accounts.ts';
import { toneOf, type Figure } from '#client/ui/figure-list.tsx';

/** docs/product.md#constants's loss windows, as an investor reads them: realised net P/L of the closed deals. */
export const LOSS_WINDOWS = [
  { key: 'pnl_24_hours', label: 'P/L 24 hours' },
  { key: 'pnl_2_days', label: 'P/L 2 days' },
  { key: 'pnl_7_days', label: 'P/L 7 days' },
] as const satisfies readonly { key: keyof HistoricalLoss; label: string }[];

/** One account's row of the historical-losses call (one call for every account, shared by the screens). */
export function useAccountLosses(accountId: string | undefined): HistoricalLoss | undefined {
  const losses = useQuery({ ...accountQueries.historicalLosses(), enabled: accountId !== undefined });
  return accountId === undefined ? undefined : losses.data?.find((l) => l.account_id === accountId);
}

/** The three windows as figures, in the account's currency; '-' until the answer is there. */
export function lossFigures(loss: HistoricalLoss | undefined, currency: string): (Figure & { value: string })[] {
  return LOSS_WINDOWS.map(({ key, label }) => {
    const value = loss?.[key];
    return {
      label,
      value: value === undefined ? MISSING_VALUE : formatMoney(value, currency),
      tone: toneOf(value),
      raw: value,
    };
  });
}
