// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Position } from '#shared/contract/positions.ts';
import { formatMoney } from '#shared/format/money.ts';
import { position } from '#client/live/fake-web-socket.ts';
import { floatingTotal, groupByTrade, PORTFOLIO_CURRENCY } from './live-model.ts';
import { LivePositions } from './live-positions.tsx';

// Issue 40, item 5: a trader's list. A master trade's copies, in whatever currency their accounts
// hold, are one group under it with their total; the list's floating P/L is in the portfolio's currency.

const at = (mm: number) => Date.UTC(2026, 10, 28, 9, mm) / 1000;
const copy = (account: string, currency: string, profit: number, profitEur: number, mm: number): Position => ({
  ...position,
  account_name: account,
  is_master: false,
  u_symbol: 'EURCAD',
  type: 'Buy',
  time: at(mm),
  currency,
  profit,
  profit_currency: profitEur,
  quantity: 0.41,
  sl: 1.6012,
  tp: 1.6288,
});
const copies: Position[] = [
  copy('Follower EUR', 'EUR', -12.5, -12.5, 10),
  copy('Follower USD', 'USD', -14.2, -12.19, 11),
  copy('Follower GBP', 'GBP', -10.9, -12.83, 12),
  copy('Follower CHF', 'CHF', -11.7, -12.44, 13),
];
const other: Position = { ...position, account_name: 'Follower USD', is_master: false, u_symbol: 'GBPJPY', type: 'Sell', time: at(20), currency: 'USD', profit: 40, profit_currency: 34.34 };
const rows = [...copies, other];
const expectedTotal = -12.5 + -12.19 + -12.83 + -12.44 + 34.34;

describe('groupByTrade and floatingTotal', () => {
  it('puts the copies of one master trade in three currencies and more in one group, with its total in the portfolio currency', () => {
    const groups = groupByTrade(rows);
    expect(groups.map((g) => [g.key, g.rows.length, g.copies])).toEqual([
      ['EURCAD|Buy', 4, 4],
      ['GBPJPY|Sell', 1, 1],
    ]);
    expect(new Set(groups[0]?.rows.map((p) => p.currency))).toEqual(new Set(['EUR', 'USD', 'GBP', 'CHF']));
    expect(groups[0]?.total).toBeCloseTo(-12.5 - 12.19 - 12.83 - 12.44, 9);
  });

  it('sums the list in the portfolio currency, never the accounts’ own amounts', () => {
    expect(floatingTotal(rows)).toBeCloseTo(expectedTotal, 9);
    expect(floatingTotal([])).toBe(0);
  });

  it('heads a group with the master’s own row when the list holds it', () => {
    const master: Position = { ...copy('Master', 'EUR', -30, -30, 5), is_master: true };
    const [group] = groupByTrade([...copies, master]);
    expect(group?.rows[0]?.account_name).toBe('Master');
    expect(group?.copies).toBe(4);
  });
});

describe('LivePositions grouped', () => {
  afterEach(cleanup);

  it('shows on a phone one heading per master trade, its copies under it, folded by a tap, and the list total', async () => {
    const user = userEvent.setup();
    render(<LivePositions positions={rows} canWrite={false} wide={false} grouped label="FX trades positions" />);
    const total = screen.getByTestId('live-total');
    expect(total.querySelector('strong')?.textContent).toBe(formatMoney(expectedTotal, PORTFOLIO_CURRENCY));
    expect(Number(total.querySelector('strong')?.getAttribute('data-total'))).toBeCloseTo(expectedTotal, 9);
    expect(total.textContent).toContain('5 positions');

    const items = () => screen.getAllByRole('listitem').map((li) => li.getAttribute('data-group') ?? li.getAttribute('data-position'));
    // The GBPJPY trade alone is a plain row; the EURCAD one a heading with its four copies under it
    // (the phone draws its cards a few at a time).
    await waitFor(() => expect(items()).toHaveLength(6));
    expect(items()).toEqual([
      'Follower USD|GBPJPY|Sell',
      'EURCAD|Buy',
      'Follower CHF|EURCAD|Buy',
      'Follower GBP|EURCAD|Buy',
      'Follower USD|EURCAD|Buy',
      'Follower EUR|EURCAD|Buy',
    ]);
    const heading = screen.getByRole('button', { name: /^EURCAD Buy: 4 copies/ });
    expect(heading.getAttribute('aria-expanded')).toBe('true');
    expect(heading.textContent).toContain(formatMoney(-12.5 - 12.19 - 12.83 - 12.44, PORTFOLIO_CURRENCY));

    await user.click(heading);
    expect(items()).toEqual(['Follower USD|GBPJPY|Sell', 'EURCAD|Buy']);
    expect(heading.getAttribute('aria-expanded')).toBe('false');
    await user.click(heading);
    await waitFor(() => expect(items()).toHaveLength(6));
  });

  it('puts SL and TP on every card’s face, a dash where none is set', () => {
    render(<LivePositions positions={[copies[0] as Position, { ...other, sl: null, tp: null }]} canWrite={false} wide={false} label="FX trades positions" />);
    const [gbpjpy, eurcad] = screen.getAllByRole<HTMLElement>('listitem');
    const face = (li: HTMLElement | undefined) => within(li as HTMLElement).getAllByRole('button')[0] as HTMLElement;
    expect(face(eurcad).querySelector('[data-cell="face-sl"]')?.textContent).toMatch(/^SL 1[.,]6012/);
    expect(face(eurcad).querySelector('[data-cell="face-tp"]')?.textContent).toMatch(/^TP 1[.,]6288/);
    expect(face(gbpjpy).querySelector('[data-cell="face-sl"]')?.textContent).not.toMatch(/\d/);
  });

  it('gives the desktop table a current-price column and a group row over the copies', () => {
    render(<LivePositions positions={rows} canWrite={false} wide grouped label="FX trades positions" />);
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent);
    expect(headers).toContain('Price');
    expect(headers.indexOf('Price')).toBeLessThan(headers.indexOf('P/L'));
    const row = document.querySelector('tr[data-position="Follower EUR|EURCAD|Buy"]') as HTMLElement;
    expect(row.querySelector('[data-cell="price"]')?.textContent).toMatch(/\d/);
    expect(document.querySelector('tr[data-group="EURCAD|Buy"]')).not.toBeNull();
    expect(screen.getByTestId('live-total').textContent).toContain(formatMoney(expectedTotal, PORTFOLIO_CURRENCY));
  });
});
