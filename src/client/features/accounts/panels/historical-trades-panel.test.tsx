// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { HistoricalDeal as Deal, HistoricalDealsResponse } from '#shared/contract/deals.ts';
import { HistoricalTradesPanel } from './historical-trades-panel.tsx';

afterEach(cleanup);

const base: Deal = {
  symbol: 'EURUSD', type: 'Buy', category: 'Forex', server: 'srv', currency: 'EUR', login: '1001',
  open_price: 1.085, open_price_currency: 1.085, close_price: 1.0872, profit: 94.01, profit_currency: 94.01,
  swap: -3.82, swap_currency: -3.82, quantity: 0.35, quantity_currency: 0.35, datetime: Date.UTC(2026, 10, 20, 12, 4) / 1000,
  fee: 0, fee_currency: 0, commission: -2.94, commission_currency: -2.94, rebate: 2.45, is_rebalancing: false,
};
const deposit: Deal = { ...base, symbol: '', type: 'Deposit', category: 'Balance', open_price: null, close_price: null, quantity: 0, profit: 10_000, rebate: null };
const data = { dealsStats: [{ deals: [base, deposit] }] } as unknown as HistoricalDealsResponse;

describe('HistoricalTradesPanel on a phone', () => {
  it('shows each deal as a compact row and says what a tap adds, Rebate included for read_rebate', () => {
    const { container } = render(<HistoricalTradesPanel isPending={false} isError={false} data={data} showRebate wide={false} />);
    // Visible above the rows, each label in an element of its own.
    const hint = container.querySelector('.ui-trade-hint') as HTMLElement;
    expect(hint.textContent).toBe('Tap for Swap, Commission, Fee and Rebate');
    expect(within(hint).getByText('Rebate', { exact: true })).toBeTruthy();
    const [trade, cash] = within(screen.getByRole('list', { name: 'Historical trades' })).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(trade.querySelector('.ui-trade-title')?.textContent).toBe('EURUSD Buy 0,35');
    expect(trade.querySelector('.ui-trade-subtitle')?.textContent).toContain('1.08500');
    expect(trade.querySelector('.ui-trade-note')?.textContent).toBe('20/11/2026 12:04');
    fireEvent.click(within(trade).getAllByRole('button')[0]!);
    expect([...trade.querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual(['Date', 'Quantity', 'Open price', 'Close price', 'Swap', 'Commission', 'Fee', 'Rebate']);
    // A cash flow has no prices and no size.
    expect(cash.querySelector('.ui-trade-title')?.textContent).toBe('Balance Deposit');
    expect(cash.querySelector('.ui-trade-subtitle')?.textContent).toBe('');
  });

  it('leaves Rebate out without read_rebate', () => {
    const { container } = render(<HistoricalTradesPanel isPending={false} isError={false} data={data} showRebate={false} wide={false} />);
    expect(container.querySelector('.ui-trade-hint')?.textContent).toBe('Tap for Swap, Commission and Fee');
    expect(screen.queryByText('Rebate', { exact: true })).toBeNull();
  });
});
