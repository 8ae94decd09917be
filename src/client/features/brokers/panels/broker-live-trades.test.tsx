// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { Position } from '#shared/contract/positions.ts';
import { position } from '#client/live/fake-web-socket.ts';
import { BrokerLiveTrades } from './broker-live-trades.tsx';

afterEach(cleanup);

// Issue 16: the cards came in the feed's order (07:40, 07:32, 07:38) while the table is newest first.
const at = (hh: number, mm: number) => Date.UTC(2026, 10, 24, hh, mm) / 1000;
const rows: Position[] = [
  { ...position, login: '1', account_name: 'CON Follower 03', u_symbol: 'EURUSD', time: at(7, 40) },
  { ...position, login: '2', account_name: 'GFX Follower 02', u_symbol: 'GBPUSD', time: at(7, 32) },
  { ...position, login: '3', account_name: 'GFX Follower 02', u_symbol: 'USDJPY', time: at(7, 38) },
];

describe('BrokerLiveTrades on a phone', () => {
  it('lists the cards newest first, like the table', () => {
    render(<BrokerLiveTrades positions={rows} error={null} wide={false} />);
    const list = screen.getByRole('list', { name: 'Live trades' });
    const symbols = within(list)
      .getAllByRole('listitem')
      .map((li) => li.querySelector('.ui-trade-symbol')?.textContent);
    expect(symbols).toEqual(['EURUSD', 'USDJPY', 'GBPUSD']);
    // The account under each P/L; the Date, Price, Acc and Ser a tap away.
    expect(list.querySelector('.ui-trade-note')?.textContent).toBe('CON Follower 03');
    const first = list.querySelector('li') as HTMLElement;
    fireEvent.click(within(first).getAllByRole('button')[0]!);
    expect([...first.querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual(['Date', 'Quantity', 'Price', 'Acc', 'Ser']);
  });

  it('stops loading on a feed error and offers a Retry', () => {
    render(<BrokerLiveTrades positions={null} error="WebSocket closed: 4000 Server restarting" wide={false} />);
    expect(screen.getByTestId('live-trades').getAttribute('data-state')).toBe('error');
    expect(screen.getByRole('status').textContent).toBe('WebSocket closed: 4000 Server restarting');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(document.querySelector('.ui-trade-skeleton')).toBeNull();
  });

  it('keeps the table at large sizes', () => {
    render(<BrokerLiveTrades positions={rows} error={null} wide />);
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent?.replace(/[↑↓↕▲▼]/g, '').trim())).toEqual(['Date', 'Ins', 'Quantity', 'Price', 'P/L', 'Acc', 'Ser']);
  });
  it('shows the current price after the entry price in the table', () => {
    const one = [{ ...rows[0]!, u_symbol: 'EURUSD', price_open: 1.08125, price_current: 1.08251 }];
    render(<BrokerLiveTrades positions={one} error={null} wide />);
    const row = screen.getByRole('row', { name: /EURUSD/ });
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent?.replace(/[↑↓↕▲▼]/g, '').trim());
    const cell = within(row).getAllByRole('cell')[headers.indexOf('Price')]!;
    expect(cell.textContent).toBe('1.08125 →  to 1.08251');
  });
  it('marks a row its terminal no longer reports "Unconfirmed since …", card and table alike', () => {
    const since = Date.UTC(2021, 7, 20, 7, 45) / 1000;
    const marked = [{ ...rows[0]!, unconfirmed_since: since }, rows[1]!];
    render(<BrokerLiveTrades positions={marked} error={null} wide={false} />);
    const [first, second] = within(screen.getByRole('list', { name: 'Live trades' })).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(first.className).toBe('ui-unconfirmed-card');
    expect(first.querySelector('.ui-unconfirmed')?.textContent).toBe('Unconfirmed since 20/08/2021 07:45');
    expect(second.querySelector('.ui-unconfirmed')).toBeNull();
    cleanup();
    render(<BrokerLiveTrades positions={marked} error={null} wide />);
    const row = screen.getByRole('row', { name: /EURUSD/ });
    expect(row.className).toContain('ui-unconfirmed-row');
    expect(within(row).getByText('Unconfirmed since 20/08/2021 07:45')).toBeTruthy();
  });
});
