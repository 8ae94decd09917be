import { describe, expect, it } from 'vitest';
import type { StatementData } from '#shared/contract/fees.ts';
import { statementCsv, statementReport } from './statement-report.ts';

const trade = (symbol: string, open_price: number, close_price: number): StatementData['trades'][number] => ({
  symbol,
  type: 'Buy',
  quantity: 0.3,
  opened_at: 1_790_000_000,
  open_price,
  closed_at: 1_790_003_600,
  close_price,
  profit: 100,
  swap: 0,
  commission: 0,
  fee: 0,
  net: 100,
});

const statement: StatementData = {
  account: { account_id: '1', account_name: 'Follower', broker_name: 'IBKR', login: '7100001', currency: 'GBP', category: 'Forex' },
  from: '2026-10-01',
  to: '2026-10-31',
  opening_balance: 77_000,
  opening_equity: 77_000,
  deposits: 0,
  withdrawals: 0,
  closed_pl: 244.83,
  swap: 0,
  commissions: 0,
  broker_fees: 0,
  rebates: null,
  other_results: 0,
  closing_balance: 77_244.83,
  closing_equity: 77_244.83,
  mark_start: 77_000,
  mark_end: 77_244.83,
  fees: [],
  twr_pct: 0.32,
  mwr_pct: 0.32,
  trades: [trade('EURGBP', 0.8564, 0.857), trade('USDJPY', 161.25, 161.5), trade('AAPL.US', 498.68, 500)],
  risk_events: [],
};

// docs/client.md: a price at its instrument's digits everywhere, the statement's PDF and CSV too.
describe('statement prices and lots', () => {
  it('writes prices at the instrument\'s digits and lots at 2 decimals in the PDF table', () => {
    const table = statementReport(statement, 1_790_100_000).more?.[0]?.table;
    expect(table?.body.map((row) => row.slice(2, 7))).toEqual([
      ['EURGBP', 'Buy', '0,30', '0.85640', '0.85700'],
      ['USDJPY', 'Buy', '0,30', '161.250', '161.500'],
      ['AAPL.US', 'Buy', '0,30', '498.68', '500.00'],
    ]);
  });

  it('writes when each trade opened and closed (UTC)', () => {
    const table = statementReport(statement, 1_790_100_000).more?.[0]?.table;
    expect(table?.head.slice(0, 2)).toEqual(['Opened (UTC)', 'Closed (UTC)']);
    // 1 790 000 000 s is 2026-09-21 14:13:20 UTC; an hour later it closed.
    expect(table?.body[0]?.slice(0, 2)).toEqual(['21/09/2026 14:13', '21/09/2026 15:13']);
  });

  it('writes the money column totals under the trades, to the cent', () => {
    const trades = [
      { ...trade('EURGBP', 0.8564, 0.857), profit: 10.1, swap: -0.35, commission: -1.2, fee: -0.05, net: 8.5 },
      { ...trade('USDJPY', 161.25, 161.5), profit: 20.2, swap: 0.05, commission: -1.2, fee: 0, net: 19.05 },
      { ...trade('AAPL.US', 498.68, 500), profit: -0.1, swap: 0, commission: -0.7, fee: 0, net: -0.8 },
    ];
    const table = statementReport({ ...statement, trades }, 1_790_100_000).more?.[0]?.table;
    // 10.10 + 20.20 - 0.10 = 30.20; -0.35 + 0.05 = -0.30; -1.25 - 1.20 - 0.70 = -3.15; 8.50 + 19.05 - 0.80 = 26.75.
    expect(table?.foot).toEqual(['Total (3)', '', '', '', '', '', '', '30,20', '-0,30', '-3,15', '26,75']);
    expect(statementReport({ ...statement, trades: [] }, 1_790_100_000).more?.[0]?.table.foot).toBeUndefined();
  });

  it('says under the fees that a charge is owed to the manager, not taken from the balance', () => {
    const report = statementReport(statement, 1_790_100_000);
    expect(report.detailTitle).toBe('Fees');
    expect(report.detail.remark).toMatch(/^Fees are owed to the manager: a fee charged here is not taken from the account/);
  });

  it('writes the same prices in the CSV', () => {
    const csv = statementCsv(statement);
    expect(csv).toContain('0.85640');
    expect(csv).toContain('161.250');
    expect(csv).toContain('498.68');
    expect(csv).not.toContain('498.68000');
  });
});
