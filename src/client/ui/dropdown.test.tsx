// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { useState } from 'react';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Dropdown, DropdownMenu, type DropdownOption } from './dropdown.tsx';

afterEach(cleanup);

const portfolios: DropdownOption<string>[] = [
  { value: 'Consolidated Portfolio', label: 'Consolidated Portfolio' },
  { value: 'Global FX', label: 'Global FX' },
  { value: 'SMA', label: 'SMA' },
];

function PortfolioPicker({ options = portfolios }: { options?: DropdownOption<string>[] }) {
  const [value, setValue] = useState<string | null>('Consolidated Portfolio');
  return (
    <>
      <p>Outside</p>
      <Dropdown
        label="Select Portfolio"
        options={options}
        value={value}
        onChange={setValue}
        emptyText="No portfolios"
        maxHeight={400}
      />
    </>
  );
}

const trigger = () => screen.getByRole('button', { name: /Select Portfolio/ });

describe('Dropdown', () => {
  it('picks an option with the mouse', async () => {
    const user = userEvent.setup();
    render(<PortfolioPicker />);
    await user.click(trigger());
    const listbox = screen.getByRole('listbox', { name: 'Select Portfolio' });
    expect(listbox.style.maxHeight).toBe('400px');
    expect(screen.getByRole('option', { name: /Consolidated/ }).getAttribute('aria-selected')).toBe('true');
    await user.click(screen.getByRole('option', { name: /Global FX/ }));
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(trigger().textContent).toContain('Global FX');
  });

  it('closes on Escape and gives focus back to its button', async () => {
    const user = userEvent.setup();
    render(<PortfolioPicker />);
    await user.click(trigger());
    expect(screen.getByRole('listbox')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(document.activeElement).toBe(trigger());
  });

  it('closes on a click outside', async () => {
    const user = userEvent.setup();
    render(<PortfolioPicker />);
    await user.click(trigger());
    await user.click(screen.getByText('Outside'));
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(trigger().getAttribute('aria-expanded')).toBe('false');
  });

  it('is usable from the keyboard', async () => {
    const user = userEvent.setup();
    render(<PortfolioPicker />);
    await user.tab();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('listbox')).toBeTruthy();
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(trigger().textContent).toContain('SMA');
  });

  it('says when there is nothing to pick', async () => {
    const user = userEvent.setup();
    render(<PortfolioPicker options={[]} />);
    await user.click(trigger());
    expect(screen.getByRole('listbox').textContent).toContain('No portfolios');
  });
});

describe('DropdownMenu', () => {
  it('is named by what it shows, then its label (WCAG 2.5.3: the visible words are in the name)', () => {
    render(
      <DropdownMenu label="Pairs of GFX Alpha Master" trigger="Pairs 8/14">
        <p>pairs</p>
      </DropdownMenu>,
    );
    expect(screen.getByRole('button', { name: 'Pairs 8/14 Pairs of GFX Alpha Master' })).toBeTruthy();
  });

  it('keeps free content open while used and closes on Escape', async () => {
    const user = userEvent.setup();
    render(
      <DropdownMenu label="Pairs" trigger="Pairs" maxHeight={400}>
        <label>
          <input type="checkbox" /> EURUSD
        </label>
      </DropdownMenu>,
    );
    await user.click(screen.getByRole('button', { name: 'Pairs' }));
    await user.click(screen.getByRole('checkbox', { name: 'EURUSD' }));
    expect(screen.getByRole('group', { name: 'Pairs' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Pairs' })).toBeNull();
  });
});
