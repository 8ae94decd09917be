import { describe, expect, it } from 'vitest';
import { historicalNavRows, realtimeNavRows, summariseNavByCurrency } from './nav-view.ts';

const account = (over: Partial<Parameters<typeof realtimeNavRows>[0][number]>) => ({
  account_id: 'x',
  account: '1',
  account_name: 'A',
  broker_name: 'IBKR',
  teiko_category: 'consolidate',
  balance: 100,
  equity: 100,
  pnl: 0,
  currency: 'EUR',
  account_currency: 'EUR',
  last_update: 1_000,
  ...over,
});

describe('real-time NAV rows', () => {
  const accounts = [
    account({ account_id: 'c1', account_name: 'Zeta', broker_name: 'IBKR', teiko_category: 'consolidate' }),
    account({ account_id: 'c0', account_name: 'Empty', teiko_category: 'consolidate', balance: 0, equity: 0 }),
    account({ account_id: 'f1', account_name: 'Alpha', broker_name: 'Exante', teiko_category: 'global forex' }),
    account({ account_id: 'f0', account_name: 'FX empty', teiko_category: 'global forex', balance: 0 }),
    account({ account_id: 's1', account_name: 'Sma', broker_name: 'Avatrade', teiko_category: 'SMA' }),
  ];

  it('Consolidated hides zero balances, keeps consolidate and global rows, orders by broker then name', () => {
    expect(realtimeNavRows(accounts, 'Consolidated Portfolio').map((r) => r.id)).toEqual(['f1', 'c1']);
  });

  it('Global FX keeps its own rows and borrows consolidate rows with a balance', () => {
    expect(realtimeNavRows(accounts, 'Global FX').map((r) => r.id)).toEqual(['f1', 'c1']);
  });

  it('SMA keeps only SMA rows, with the live P/L and last update', () => {
    const rows = realtimeNavRows([account({ teiko_category: 'SMA', pnl: -12.5, last_update: 42 })], 'SMA');
    expect(rows).toEqual([
      expect.objectContaining({ pnl: -12.5, last_update: 42, currency: 'EUR', balance: 100 }),
    ]);
  });
});

describe('historical NAV rows', () => {
  const row = (id: string, day: number, over: Record<string, unknown> = {}) => ({
    account_id: id,
    date_id: '3.2026',
    date_day: day,
    account: id,
    account_name: id,
    broker_name: 'IBKR',
    teiko_category: 'SMA',
    balance: 10,
    equity: 11,
    currency: 'USD',
    account_currency: 'USD',
    ...over,
  });

  it('keeps the month and day, builds the id from account, month and day, has no live P/L', () => {
    const rows = [row('a', 1), row('b', 2), row('c', 1, { date_id: '2.2026' }), row('d', 1, { teiko_category: 'AMC' })];
    const result = historicalNavRows(rows, 'SMA', '3.2026', 1);
    expect(result).toEqual([
      { id: 'a|3.2026|1', broker_name: 'IBKR', account_name: 'a', account: 'a', currency: 'USD', balance: 10, equity: 11, pnl: null, last_update: null },
    ]);
  });
});

describe('NAV summary per currency', () => {
  it('sums balance, equity and live P/L per currency, by code', () => {
    const base = { broker_name: 'B', account_name: 'n', account: '1', last_update: 0 };
    const summary = summariseNavByCurrency([
      { ...base, id: '1', currency: 'USD', balance: 1000, equity: 1100, pnl: 100 },
      { ...base, id: '2', currency: 'EUR', balance: 500.25, equity: 480, pnl: -20.25 },
      { ...base, id: '3', currency: 'USD', balance: 250.5, equity: 240, pnl: -10.5 },
    ]);
    expect(summary).toEqual([
      { currency: 'EUR', balance: 500.25, equity: 480, pnl: -20.25, accounts: 1 },
      { currency: 'USD', balance: 1250.5, equity: 1340, pnl: 89.5, accounts: 2 },
    ]);
  });

  it('has no live P/L for historical rows', () => {
    const summary = summariseNavByCurrency([
      { id: '1', broker_name: 'B', account_name: 'n', account: '1', currency: 'GBP', balance: 1, equity: 2, pnl: null, last_update: null },
    ]);
    expect(summary[0]?.pnl).toBeNull();
  });
});
