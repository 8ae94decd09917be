import { finiteOrZero } from './stats.ts';
/**
 * The brokers screen's Information figures (docs/product.md#screens): Total Balance, Total PnL and Total Rebate of
 * a broker's accounts. Accounts hold different currencies, so the totals are per currency, as the
 * rebates page's summary cards are; nothing is converted.
 */
export interface BrokerAccountFigures {
  currency: string;
  balance: number;
  pnl: number;
  total_rebate: number | null;
}

export interface BrokerCurrencyTotals {
  currency: string;
  balance: number;
  pnl: number;
  /** null when no account of that currency carries a rebate figure (callers without read_rebate). */
  rebate: number | null;
  accounts: number;
}

/** Sums of balance, floating P/L and rebate per account currency, sorted by currency code. */
export function brokerTotalsByCurrency(accounts: readonly BrokerAccountFigures[]): BrokerCurrencyTotals[] {
  const totals = new Map<string, BrokerCurrencyTotals>();
  for (const account of accounts) {
    const currency = account.currency.trim().toUpperCase() || 'EUR';
    const entry = totals.get(currency) ?? { currency, balance: 0, pnl: 0, rebate: null, accounts: 0 };
    entry.balance += finiteOrZero(account.balance);
    entry.pnl += finiteOrZero(account.pnl);
    if (account.total_rebate !== null) entry.rebate = (entry.rebate ?? 0) + finiteOrZero(account.total_rebate);
    entry.accounts += 1;
    totals.set(currency, entry);
  }
  return [...totals.values()].sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));
}
