// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { Guard } from '#shared/contract/guards.ts';
import { GuardStrip } from './guard-strip.tsx';

afterEach(cleanup);

const guard: Guard = {
  id: 3,
  scope: 'follower',
  relation: null,
  account: { account_id: 'f', account_name: 'GFX Follower 01' },
  basis: 'period_loss',
  unit: 'percent',
  period: 'day',
  currency: 'EUR',
  warn: 3,
  close_only: 5,
  close_all: null,
  state: 'close_only',
  last_value: 5.5,
  measured_at: 1_772_719_380,
  mark: 47_186.55,
  fired_at: 1_772_719_380,
  started_at: 1_772_632_980,
};

const plain = (text: string | null | undefined) => text?.replace(/[\u00a0\u202f]/gu, ' ');

describe('GuardStrip', () => {
  it('shows a reader each guard’s badge, state first, with no button', () => {
    render(<GuardStrip guards={[guard]} name="GFX Follower 01" canWrite={false} online onOpen={() => undefined} onAdd={() => undefined} addLabel="Add a guard to GFX Follower 01" />);
    const item = within(screen.getByRole('list', { name: 'Guards of GFX Follower 01' })).getByRole('listitem');
    expect(item.getAttribute('data-state')).toBe('close_only');
    expect(plain(item.querySelector('.guard-chip-head')?.textContent)).toBe('close-only Follower · Daily loss 3/5/— %');
    expect(plain(item.querySelector('.guard-chip-now')?.textContent)).toBe('loss 5,50 % · day open 47 186,55 €');
    expect(screen.queryAllByRole('button')).toEqual([]);
  });

  it('shows nothing to a reader when there is no guard', () => {
    const { container } = render(<GuardStrip guards={[]} name="X" canWrite={false} online onOpen={() => undefined} onAdd={() => undefined} addLabel="Add" />);
    expect(container.innerHTML).toBe('');
  });

  it('lets a write user open a guard and add one; adding needs a connection', () => {
    const onOpen = vi.fn();
    const onAdd = vi.fn();
    const { rerender } = render(<GuardStrip guards={[guard]} name="GFX Follower 01" canWrite online onOpen={onOpen} onAdd={onAdd} addLabel="Add a guard to GFX Follower 01" />);
    fireEvent.click(screen.getByRole('button', { name: /^close-only Follower/ }));
    expect(onOpen).toHaveBeenCalledWith(guard);
    fireEvent.click(screen.getByRole('button', { name: 'Add a guard to GFX Follower 01' }));
    expect(onAdd).toHaveBeenCalledOnce();
    rerender(<GuardStrip guards={[guard]} name="GFX Follower 01" canWrite online={false} onOpen={onOpen} onAdd={onAdd} addLabel="Add a guard to GFX Follower 01" />);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Add a guard to GFX Follower 01' }).disabled).toBe(true);
  });
});
