import { describe, expect, it } from 'vitest';
import {
  aggregateRebates,
  aggregatesForMonth,
  DEFAULT_REBATE_SORT,
  keepRebateMonth,
  rebateMonths,
  rebatePercentage,
  summariseByCurrency,
  type RebateRowInput,
} from './rebate-rules.ts';

type RowOverrides = Partial<RebateRowInput> & Pick<RebateRowInput, 'login' | 'account' | 'month'>;
const row = (overrides: RowOverrides): RebateRowInput => ({
  broker_name: 'IBKR',
  currency: 'USD',
  total_rebate: 0,
  profit_sharing_amount: 0,
  balance: 0,
  portfolio_category: 'global forex',
  ...overrides,
});

// Alpha: two months (given newest first), then an empty month that must be dropped.
// Beta: one month at the same broker. Gamma: another broker and currency, zero balance.
const rows: RebateRowInput[] = [
  row({ login: 1001, account: 'Alpha', month: '2.2026', total_rebate: 50, profit_sharing_amount: 100, balance: 25_000 }),
  row({ login: 1001, account: 'Alpha', month: '1.2026', total_rebate: 87.5, balance: 20_000 }),
  row({ login: 1001, account: 'Alpha', month: '3.2026' }),
  row({ login: 1002, account: 'Beta', month: '1.2026', total_rebate: 37.5, balance: 10_000, portfolio_category: 'SMA' }),
  row({
    login: 2001,
    account: 'Gamma',
    broker_name: 'Exante',
    currency: 'EUR',
    month: '2.2026',
    total_rebate: 10,
    profit_sharing_amount: 5,
    portfolio_category: 'AMC',
  }),
];

describe('keepRebateMonth', () => {
  it('drops a month whose rebate, balance and profit sharing are all zero', () => {
    expect(keepRebateMonth({ total_rebate: 0, balance: 0, profit_sharing_amount: 0 })).toBe(false);
  });
  it('keeps a month when any of the three is non-zero', () => {
    expect(keepRebateMonth({ total_rebate: 1, balance: 0, profit_sharing_amount: 0 })).toBe(true);
    expect(keepRebateMonth({ total_rebate: 0, balance: 5, profit_sharing_amount: 0 })).toBe(true);
    expect(keepRebateMonth({ total_rebate: 0, balance: 0, profit_sharing_amount: -2 })).toBe(true);
  });
});

describe('rebatePercentage', () => {
  it('is total / balance × 100 (docs/figures.md R1: 87.50 on 25,000 → 0.35 %)', () => {
    expect(rebatePercentage(87.5, 25_000)).toBeCloseTo(0.35, 12);
  });
  it('is 0 when the balance is not positive', () => {
    expect(rebatePercentage(87.5, 0)).toBe(0);
    expect(rebatePercentage(87.5, -100)).toBe(0);
    expect(rebatePercentage(Number.NaN, 100)).toBe(0);
  });
});

describe('aggregateRebates by account', () => {
  const aggregates = aggregateRebates(rows, 'account');

  it('makes one aggregate per account and currency, ordered by broker then name', () => {
    expect(aggregates.map((a) => [a.brokerName, a.name, a.currency])).toEqual([
      ['Exante', 'Gamma', 'EUR'],
      ['IBKR', 'Alpha', 'USD'],
      ['IBKR', 'Beta', 'USD'],
    ]);
  });

  it('sums rebates and profit sharing over months and takes the latest month balance', () => {
    const alpha = aggregates[1];
    // 87.5 + 50 = 137.5 rebate; 100 profit sharing; balance of 2.2026 = 25,000; 137.5 / 25,000 × 100 = 0.55 %.
    expect(alpha).toMatchObject({ totalRebate: 137.5, totalProfitSharing: 100, balance: 25_000 });
    expect(alpha?.rebatePercentage).toBeCloseTo(0.55, 12);
    // 37.5 / 10,000 × 100 = 0.375 %.
    expect(aggregates[2]?.rebatePercentage).toBeCloseTo(0.375, 12);
    // Zero balance → 0 %.
    expect(aggregates[0]).toMatchObject({ totalRebate: 10, totalProfitSharing: 5, balance: 0, rebatePercentage: 0 });
  });

  it('lists the kept months oldest first, without the empty one', () => {
    expect(aggregates[1]?.monthlyBreakdown).toEqual([
      {
        month: '1.2026',
        portfolio_category: 'global forex',
        currency: 'USD',
        total_rebate: 87.5,
        balance: 20_000,
        profit_sharing_amount: 0,
      },
      {
        month: '2.2026',
        portfolio_category: 'global forex',
        currency: 'USD',
        total_rebate: 50,
        balance: 25_000,
        profit_sharing_amount: 100,
      },
    ]);
  });

  it('keeps same-named accounts of two brokers apart, and one account in two currencies apart', () => {
    const split = aggregateRebates(
      [
        row({ login: 1, account: 'Main', month: '1.2026', total_rebate: 1 }),
        row({ login: 2, account: 'Main', broker_name: 'Avatrade', month: '1.2026', total_rebate: 2 }),
        row({ login: 1, account: 'Main', currency: 'EUR', month: '1.2026', total_rebate: 3 }),
      ],
      'account',
    );
    expect(split.map((a) => [a.brokerName, a.currency, a.totalRebate])).toEqual([
      ['Avatrade', 'USD', 2],
      ['IBKR', 'EUR', 3],
      ['IBKR', 'USD', 1],
    ]);
  });
});

describe('aggregateRebates by broker', () => {
  const aggregates = aggregateRebates(rows, 'broker');

  it('sums each account’s latest balance over the broker’s accounts', () => {
    expect(aggregates.map((a) => [a.name, a.currency])).toEqual([
      ['Exante', 'EUR'],
      ['IBKR', 'USD'],
    ]);
    const ibkr = aggregates[1];
    // Rebate 87.5 + 50 + 37.5 = 175; balance Alpha 25,000 (2.2026) + Beta 10,000 (1.2026) = 35,000 → 0.5 %.
    expect(ibkr).toMatchObject({
      name: 'IBKR',
      brokerName: 'IBKR',
      totalRebate: 175,
      totalProfitSharing: 100,
      balance: 35_000,
    });
    expect(ibkr?.rebatePercentage).toBeCloseTo(0.5, 12);
  });

  it('breaks months down per portfolio category, summing the accounts of each', () => {
    const breakdown = aggregates[1]?.monthlyBreakdown ?? [];
    expect(breakdown.map((e) => [e.month, e.portfolio_category, e.total_rebate, e.balance])).toEqual([
      ['1.2026', 'global forex', 87.5, 20_000],
      ['1.2026', 'SMA', 37.5, 10_000],
      ['2.2026', 'global forex', 50, 25_000],
    ]);
  });

  it('sums two accounts of one category in the same month', () => {
    const [only] = aggregateRebates(
      [
        row({ login: 1, account: 'A', month: '2026-01', total_rebate: 1, balance: 100 }),
        row({ login: 2, account: 'B', month: '2026-01', total_rebate: 2, balance: 300 }),
      ],
      'broker',
    );
    expect(only?.monthlyBreakdown).toEqual([
      {
        month: '2026-01',
        portfolio_category: 'global forex',
        currency: 'USD',
        total_rebate: 3,
        balance: 400,
        profit_sharing_amount: 0,
      },
    ]);
    expect(only?.balance).toBe(400);
  });
});

describe('month selection and summaries', () => {
  const aggregates = aggregateRebates(rows, 'account');

  it('lists the months present, newest first', () => {
    expect(rebateMonths(aggregates)).toEqual(['2.2026', '1.2026']);
  });

  it('All Months (null) leaves the aggregates as they are', () => {
    expect(aggregatesForMonth(aggregates, null)).toEqual(aggregates);
  });

  it('one month recomputes totals from that month and drops aggregates without it', () => {
    const january = aggregatesForMonth(aggregates, '1.2026');
    expect(january.map((a) => [a.name, a.balance, a.totalRebate, a.totalProfitSharing])).toEqual([
      ['Alpha', 20_000, 87.5, 0],
      ['Beta', 10_000, 37.5, 0],
    ]);
    // 87.5 / 20,000 × 100 = 0.4375 %.
    expect(january[0]?.rebatePercentage).toBeCloseTo(0.4375, 12);
    expect(january[0]?.monthlyBreakdown).toHaveLength(1);
  });

  it('summarises per currency with % rebate of the sums', () => {
    const summary = summariseByCurrency(aggregates);
    expect(summary).toHaveLength(2);
    expect(summary[0]).toEqual({
      currency: 'EUR',
      balance: 0,
      totalRebate: 10,
      totalProfitSharing: 5,
      rebatePercentage: 0,
    });
    // USD: balance 25,000 + 10,000 = 35,000; rebate 137.5 + 37.5 = 175 → 0.5 %.
    expect(summary[1]).toMatchObject({ currency: 'USD', balance: 35_000, totalRebate: 175, totalProfitSharing: 100 });
    expect(summary[1]?.rebatePercentage).toBeCloseTo(0.5, 12);
  });

  it('sorts by brokerName ascending by default', () => {
    expect(DEFAULT_REBATE_SORT).toEqual({ key: 'brokerName', direction: 'asc' });
  });
});
