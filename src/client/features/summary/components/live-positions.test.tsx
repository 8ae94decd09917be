// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Position } from '#shared/contract/positions.ts';
import { SKELETON_ROWS_MOBILE } from '#shared/domain/constants.ts';
import { formatMoney } from '#shared/format/money.ts';
import { position } from '#client/live/fake-web-socket.ts';
import { UNCONFIRMED_TITLE } from '#client/ui/unconfirmed-label.tsx';
import { formatExcursion } from './live-model.ts';
import { LivePositions } from './live-positions.tsx';

// docs/figures.md: MAE/MFE in pips of 0.01 for JPY pairs, else 0.0001; a share has no pip, so the
// feed's pip count (of a cent, docs/instruments.md) is shown as the price distance it stands for.
describe('formatExcursion', () => {
  it('shows forex excursions in pips with one decimal (docs/figures.md example M1: 35 pips)', () => {
    expect(formatExcursion(35, { category: 'Forex', u_symbol: 'EURUSD' })).toBe('35,0 pips');
    expect(formatExcursion(12.25, { category: 'Forex', u_symbol: 'USDJPY' })).toBe('12,3 pips');
  });

  it('shows a share excursion as a price distance: 85,86 feed pips of a cent are 0,86', () => {
    expect(formatExcursion(85.856, { category: 'Equities', u_symbol: 'V' })).toBe('0,86');
    expect(formatExcursion(219.633, { category: 'Equities', u_symbol: 'TSLA' })).toBe('2,20');
  });

  it('shows a dash when the median is missing', () => {
    expect(formatExcursion(null, { category: 'Equities', u_symbol: 'AAPL' })).toBe(formatExcursion(undefined, { category: 'Forex', u_symbol: 'EURUSD' }));
    expect(formatExcursion(null, { category: 'Forex', u_symbol: 'EURUSD' })).not.toMatch(/\d/);
  });
});

describe('LivePositions on a phone', () => {
  afterEach(cleanup);

  const at = (hh: number, mm: number) => Date.UTC(2026, 10, 24, hh, mm) / 1000;
  const rows: Position[] = [
    { ...position, u_symbol: 'EURUSD', time: at(7, 32), price_open: 1.085, price_current: 1.0872, profit: 330, sl: 1.083, tp: 1.0895 },
    { ...position, u_symbol: 'GBPUSD', type: 'Sell', time: at(7, 40), profit: -12.5 },
    { ...position, u_symbol: 'USDJPY', time: at(7, 38), profit: 0 },
  ];
  const cards = () => screen.getAllByRole('listitem').map((li) => li.getAttribute('data-position'));

  it('lists compact rows newest first: instrument, direction and size, entry → current, P/L and account', () => {
    render(<LivePositions positions={rows} canWrite={false} wide={false} label="FX trades positions" />);
    expect(cards()).toEqual(['Master FX|GBPUSD|Sell', 'Master FX|USDJPY|Buy', 'Master FX|EURUSD|Buy']);
    const eurusd = screen.getAllByRole('listitem')[2] as HTMLElement;
    const face = within(eurusd).getByRole('button', { expanded: false });
    expect(face.querySelector('.ui-trade-title')?.textContent).toBe('EURUSD Buy 1,00');
    expect(face.querySelector('.ui-trade-subtitle')?.textContent).toContain('1.08500 →');
    expect(face.querySelector('.ui-trade-subtitle')?.textContent).toContain('1.08720');
    expect(face.querySelector('.ui-trade-figure')?.textContent).toBe(formatMoney(330, 'USD'));
    expect(face.querySelector('.ui-trade-note')?.textContent).toBe('Master FX');
  });

  it('opens the product’s columns in place on a tap; a read-only user gets no Edit or Close', async () => {
    const user = userEvent.setup();
    render(<LivePositions positions={rows} canWrite={false} wide={false} label="FX trades positions" />);
    const eurusd = screen.getAllByRole('listitem')[2] as HTMLElement;
    await user.click(within(eurusd).getByRole('button'));
    const labels = [...eurusd.querySelectorAll('dt')].map((dt) => dt.textContent);
    expect(labels).toEqual(['Date', 'Q', 'EP', 'BE', 'SL', 'TP', 'Median MAE', 'Median MFE']);
    expect(eurusd.querySelector('[data-cell="tp"]')?.textContent).toBe('1.08950');
    expect(within(eurusd).queryByRole('button', { name: /^(Edit|Close) / })).toBeNull();
  });

  it('gives a write user Edit and Close behind the swipe, and once in the open details', async () => {
    const user = userEvent.setup();
    const onEdit = vi.fn();
    render(<LivePositions positions={rows} canWrite wide={false} label="FX trades positions" onEdit={onEdit} onClose={() => undefined} />);
    const eurusd = screen.getAllByRole('listitem')[2] as HTMLElement;
    // Closed: the swipe layer holds them (hidden until the card slides).
    expect(within(eurusd).getAllByRole('button', { name: /^Edit /, hidden: true })).toHaveLength(1);
    await user.click(within(eurusd).getByRole('button', { expanded: false }));
    const edit = within(eurusd).getAllByRole('button', { name: 'Edit EURUSD Buy of Master FX' });
    expect(edit).toHaveLength(1);
    await user.click(edit[0] as HTMLElement);
    expect(onEdit).toHaveBeenCalledWith(rows[0]);
  });

  it('shows three skeleton rows until the first message', () => {
    const { container } = render(<LivePositions positions={null} canWrite={false} wide={false} label="FX trades positions" />);
    expect(screen.getByRole('status').textContent).toBe('Loading live positions...');
    expect(container.querySelectorAll('.ui-trade-skeleton')).toHaveLength(SKELETON_ROWS_MOBILE);
  });

  it('keeps the last rows, open details included, under a banner while the feed is down', async () => {
    const user = userEvent.setup();
    const props = { positions: rows, canWrite: false, wide: false, label: 'FX trades positions' };
    const { rerender } = render(<LivePositions {...props} feedError={null} />);
    await user.click(within(screen.getAllByRole('listitem')[0] as HTMLElement).getByRole('button'));
    rerender(<LivePositions {...props} feedError="WebSocket closed: 4000 Server restarting" />);
    expect(screen.getByRole('status').textContent).toBe('WebSocket closed: 4000 Server restarting');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(cards()).toHaveLength(3);
    expect(screen.getAllByRole('button', { expanded: true })).toHaveLength(1);
    rerender(<LivePositions {...props} feedError={null} />);
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(screen.getAllByRole('button', { expanded: true })).toHaveLength(1);
  });
});

describe('LivePositions of a statement (as_of)', () => {
  afterEach(cleanup);

  // 20 August 2021, the day an Interactive Brokers statement marked the row (a UTC day's start).
  const asOf = Date.UTC(2021, 7, 20) / 1000;
  const rows: Position[] = [
    { ...position, u_symbol: 'KMI', category: 'Equities', account_name: 'IB Equities', time: Date.UTC(2021, 7, 19, 16, 20) / 1000, as_of: asOf },
    { ...position, u_symbol: 'EURUSD', time: Date.UTC(2021, 7, 18, 9, 0) / 1000 },
  ];

  it('labels the statement card "as of 20/08/2021" and gives it no swipe, Edit or Close; the live card keeps them', async () => {
    const user = userEvent.setup();
    render(<LivePositions positions={rows} canWrite wide={false} label="Equity trades positions" onEdit={() => undefined} onClose={() => undefined} />);
    const [kmi, eurusd] = screen.getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(kmi.querySelector('.ui-trade-subtitle .ui-as-of')?.textContent).toBe('as of 20/08/2021');
    expect(within(kmi).queryAllByRole('button', { name: /^(Edit|Close) /, hidden: true })).toEqual([]);
    await user.click(within(kmi).getByRole('button', { expanded: false }));
    expect(within(kmi).getByText('Figures as of').nextElementSibling?.textContent).toBe('20/08/2021 (statement)');
    expect(within(kmi).queryAllByRole('button', { name: /^(Edit|Close) /, hidden: true })).toEqual([]);
    expect(eurusd.querySelector('.ui-as-of')).toBeNull();
    expect(within(eurusd).getAllByRole('button', { name: /^(Edit|Close) /, hidden: true })).toHaveLength(2);
  });

  it('labels the statement row in the table and puts no Edit or Close in its Action cell', () => {
    render(<LivePositions positions={rows} canWrite wide label="Equity trades positions" onEdit={() => undefined} onClose={() => undefined} />);
    const kmi = screen.getByRole('row', { name: /KMI/ });
    expect(within(kmi).getByText('as of 20/08/2021')).toBeTruthy();
    expect(within(kmi).queryByRole('button', { name: /^(Edit|Close) / })).toBeNull();
    expect(within(kmi).getByText('No orders')).toBeTruthy();
    const eurusd = screen.getByRole('row', { name: /EURUSD/ });
    expect(within(eurusd).getAllByRole('button', { name: /^(Edit|Close) / })).toHaveLength(2);
    expect(within(eurusd).queryByText(/^as of/)).toBeNull();
  });
});

describe('LivePositions of an unconfirmed row (unconfirmed_since)', () => {
  afterEach(cleanup);

  // The terminal left the GBPUSD row out of its full snapshot at 07:45 UTC on 20 August 2021 (not today).
  const since = Date.UTC(2021, 7, 20, 7, 45) / 1000;
  const rows: Position[] = [
    { ...position, u_symbol: 'GBPUSD', time: Date.UTC(2026, 10, 24, 7, 40) / 1000, profit: -12.5, unconfirmed_since: since },
    { ...position, u_symbol: 'EURUSD', time: Date.UTC(2026, 10, 24, 7, 32) / 1000, profit: 330 },
  ];

  it('labels the card "Unconfirmed since …", mutes its P/L and gives it no swipe, Edit or Close', async () => {
    const user = userEvent.setup();
    render(<LivePositions positions={rows} canWrite wide={false} label="FX trades positions" onEdit={() => undefined} onClose={() => undefined} />);
    const [gbpusd, eurusd] = screen.getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(gbpusd.querySelector('.ui-trade-subtitle .ui-unconfirmed')?.textContent).toBe('Unconfirmed since 20/08/2021 07:45');
    expect(gbpusd.className).toContain('ui-unconfirmed-card');
    expect(within(gbpusd).queryAllByRole('button', { name: /^(Edit|Close) /, hidden: true })).toEqual([]);
    await user.click(within(gbpusd).getByRole('button', { expanded: false }));
    expect(within(gbpusd).getByText('Unconfirmed since').nextElementSibling?.textContent).toBe('20/08/2021 07:45');
    expect(eurusd.querySelector('.ui-unconfirmed')).toBeNull();
    expect(within(eurusd).getAllByRole('button', { name: /^(Edit|Close) /, hidden: true })).toHaveLength(2);
  });

  it('labels the table row and says why it takes no orders', () => {
    render(<LivePositions positions={rows} canWrite wide label="FX trades positions" onEdit={() => undefined} onClose={() => undefined} />);
    const gbpusd = screen.getByRole('row', { name: /GBPUSD/ });
    expect(gbpusd.className).toContain('ui-unconfirmed-row');
    expect(within(gbpusd).getByText(/^Unconfirmed since/).getAttribute('title')).toBe(UNCONFIRMED_TITLE);
    expect(within(gbpusd).getByText('No orders').getAttribute('title')).toBe(UNCONFIRMED_TITLE);
    expect(within(screen.getByRole('row', { name: /EURUSD/ })).getAllByRole('button', { name: /^(Edit|Close) / })).toHaveLength(2);
  });
});
