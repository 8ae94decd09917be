// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CardList } from './card-list.tsx';
import { ExpandableTradeCard, PriceMove, TradeTitle, type TradeDetail, type TradeFace } from './trade-card.tsx';

afterEach(cleanup);

const face: TradeFace = {
  title: <TradeTitle symbol="EURUSD" side="Buy" size="1,5" />,
  subtitle: <PriceMove from="1.08500" to="1.08720" />,
  figure: '330,00 $',
  tone: 330,
  note: 'GFX Alpha Master',
};
const details: TradeDetail[] = [
  { key: 'date', label: 'Date', value: '24/11/2026 07:40', wide: true },
  { key: 'sl', label: 'SL', value: '1.08300', cell: 'sl' },
  { key: 'tp', label: 'TP', value: '1.08950', cell: 'tp' },
];

describe('TradeCard', () => {
  it('shows instrument, direction and size, then entry → current, with the P/L and its note on the right', () => {
    render(<ExpandableTradeCard face={face} details={details} />);
    const row = screen.getByRole('button', { expanded: false });
    expect(row.querySelector('.ui-trade-title')?.textContent).toBe('EURUSD Buy 1,5');
    expect(row.querySelector('.ui-trade-subtitle')?.textContent).toBe('1.08500 →  to 1.08720');
    expect(row.querySelector('.ui-trade-figure')?.textContent).toBe('330,00 $');
    expect(row.querySelector('.ui-trade-figure')?.className).toContain('ui-trade-up');
    expect(row.querySelector('.ui-trade-note')?.textContent).toBe('GFX Alpha Master');
  });

  it('opens its details in place on a tap and shuts them on the next, under the product’s labels', async () => {
    const user = userEvent.setup();
    const { container } = render(<ExpandableTradeCard face={face} details={details} />);
    const row = screen.getByRole('button');
    const panel = document.getElementById(row.getAttribute('aria-controls') ?? '');
    expect(panel?.hidden).toBe(true);
    // Closed details are not drawn (a hidden panel is out of reach of every reader anyway).
    expect(container.querySelector('[data-cell="tp"]')).toBeNull();

    await user.click(row);
    expect(row.getAttribute('aria-expanded')).toBe('true');
    expect(panel?.hidden).toBe(false);
    const shown = within(panel as HTMLElement);
    expect(shown.getByText('SL').nextElementSibling?.textContent).toBe('1.08300');
    expect(container.querySelector('[data-cell="tp"]')?.textContent).toBe('1.08950');
    expect(shown.getByText('Date').parentElement?.className).toContain('ui-trade-field-wide');

    await user.click(row);
    expect(row.getAttribute('aria-expanded')).toBe('false');
    expect(panel?.hidden).toBe(true);
  });

  it('toggles from the keyboard', async () => {
    const user = userEvent.setup();
    render(<ExpandableTradeCard face={face} details={details} />);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button'));
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button').getAttribute('aria-expanded')).toBe('true');
    await user.keyboard(' ');
    expect(screen.getByRole('button').getAttribute('aria-expanded')).toBe('false');
  });

  it('takes a drag across the row for a swipe or a scroll, not a tap', () => {
    render(<ExpandableTradeCard face={face} details={details} />);
    const row = screen.getByRole('button');
    fireEvent.pointerDown(row, { clientX: 300, clientY: 20 });
    fireEvent.click(row, { clientX: 120, clientY: 22, detail: 1 });
    expect(row.getAttribute('aria-expanded')).toBe('false');
    fireEvent.pointerDown(row, { clientX: 300, clientY: 20 });
    fireEvent.click(row, { clientX: 302, clientY: 21, detail: 1 });
    expect(row.getAttribute('aria-expanded')).toBe('true');
  });

  it('shows its actions only while the details are open', async () => {
    const user = userEvent.setup();
    render(
      <ExpandableTradeCard
        face={face}
        details={details}
        actions={
          <button type="button" aria-label="Edit EURUSD Buy of GFX Alpha Master">
            Edit
          </button>
        }
      />,
    );
    expect(screen.queryByRole('button', { name: /^Edit / })).toBeNull();
    await user.click(screen.getByRole('button', { expanded: false }));
    expect(screen.getByRole('button', { name: 'Edit EURUSD Buy of GFX Alpha Master' })).toBeTruthy();
  });

  it('colours a loss red and leaves zero uncoloured', () => {
    const { container, rerender } = render(<ExpandableTradeCard face={{ ...face, tone: -12 }} details={details} />);
    expect(container.querySelector('.ui-trade-figure')?.className).toContain('ui-trade-down');
    rerender(<ExpandableTradeCard face={{ ...face, tone: 0 }} details={details} />);
    expect(container.querySelector('.ui-trade-figure')?.className).toBe('ui-trade-figure');
  });
});

describe('CardList with a trade face', () => {
  interface Deal {
    id: string;
    symbol: string;
    rebate: string;
  }
  const deals: Deal[] = [
    { id: '1', symbol: 'EURUSD', rebate: '2,45 €' },
    { id: '2', symbol: 'GBPCAD', rebate: '1,10 €' },
  ];

  it('draws compact rows whose fields open on a tap, with a hint above', async () => {
    const user = userEvent.setup();
    render(
      <CardList
        items={deals}
        itemKey={(d) => d.id}
        label="Historical trades"
        hint="Tap for Rebate"
        face={(d) => ({ title: d.symbol, subtitle: null, figure: '0,00 €' })}
        fields={[{ key: 'rebate', label: 'Rebate', render: (d) => d.rebate }]}
      />,
    );
    const list = screen.getByRole('list', { name: 'Historical trades' });
    expect(list.className).toContain('ui-trade-list');
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByText('Tap for Rebate')).toBeTruthy();
    const second = within(list).getAllByRole('button')[1] as HTMLElement;
    await user.click(second);
    const panel = document.getElementById(second.getAttribute('aria-controls') ?? '') as HTMLElement;
    expect(panel.hidden).toBe(false);
    expect(panel.textContent).toBe('Rebate1,10 €');
  });
});
