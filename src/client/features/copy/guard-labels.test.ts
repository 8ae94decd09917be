import { describe, expect, it } from 'vitest';
import type { Guard } from '#shared/contract/guards.ts';
import { formatMoney } from '#shared/format/money.ts';
import { guardTitle, isEquityStop, isFired, levelsSentence, levelsText, markShort, measureShort } from './guard-labels.ts';

/** Intl's no-break spaces as plain ones, to compare with text typed here. */
const plain = (text: string | null) => text?.replace(/[\u00a0\u202f]/gu, ' ') ?? null;

const at = Date.UTC(2026, 2, 5, 14, 3) / 1000;
const trailing: Guard = {
  id: 7,
  scope: 'relation',
  relation: { id: 6, master: { account_id: 'm', account_name: 'GFX Alpha Master' }, follower: { account_id: 'f', account_name: 'GFX Follower 06' } },
  account: null,
  basis: 'trailing_from_peak',
  unit: 'percent',
  period: null,
  currency: 'USD',
  warn: 15,
  close_only: 20,
  close_all: 25,
  state: 'warned',
  last_value: 16.25,
  measured_at: at,
  mark: 10_500,
  fired_at: null,
  started_at: at - 86_400,
};

describe('the wording of a copy guard (docs/copying.md, "Guards")', () => {
  it('writes the levels in one, a level not set as a dash, in the guard’s unit', () => {
    expect(plain(levelsText(trailing))).toBe('15/20/25 %');
    const floor = { ...trailing, basis: 'equity_floor' as const, unit: 'money' as const, warn: null, close_only: 9_000, close_all: null };
    expect(plain(levelsText(floor))).toBe('—/9 000/— $');
    expect(plain(levelsSentence(trailing))).toBe('warn at 15,00 %, close-only at 20,00 %, close-all at 25,00 %');
  });

  it('names the last measure and the mark on the badge, per basis', () => {
    expect(plain(measureShort(trailing))).toBe('fall 16,25 %');
    expect(markShort(trailing)).toBe(`peak ${formatMoney(10_500, 'USD')}`);
    expect(markShort({ ...trailing, basis: 'period_loss', period: 'week' })).toBe(`week open ${formatMoney(10_500, 'USD')}`);
    expect(markShort({ ...trailing, basis: 'loss_from_start' })).toBe(`start ${formatMoney(10_500, 'USD')}`);
    // An equity floor measures the equity itself: no mark.
    const floor = { ...trailing, basis: 'equity_floor' as const, unit: 'money' as const, last_value: 8_950 };
    expect(measureShort(floor)).toBe(`equity ${formatMoney(8_950, 'USD')}`);
    expect(markShort(floor)).toBeNull();
    // Before its first measurement.
    expect(measureShort({ ...trailing, last_value: null })).toBeNull();
    expect(markShort({ ...trailing, mark: null })).toBeNull();
  });

  it('says the guard in a sentence for the badge’s title', () => {
    expect(plain(guardTitle(trailing))).toBe(
      'Relation guard of GFX Follower 06 ← GFX Alpha Master: trailing from peak, warn at 15,00 %, close-only at 20,00 %, close-all at 25,00 %. ' +
        'Warned: the warning level was reached; copying goes on. Fall from peak: 16,25 %.',
    );
  });

  it('tells a fired guard (re-armed only by a write user) and a relation’s equity stop (no badge of its own)', () => {
    expect(isFired(trailing)).toBe(false);
    expect(isFired({ state: 'close_only' })).toBe(true);
    expect(isFired({ state: 'closed' })).toBe(true);
    expect(isEquityStop({ scope: 'relation', basis: 'equity_floor', warn: null, close_all: null })).toBe(true);
    expect(isEquityStop({ scope: 'relation', basis: 'equity_floor', warn: 9_500, close_all: null })).toBe(false);
    expect(isEquityStop({ scope: 'follower', basis: 'equity_floor', warn: null, close_all: null })).toBe(false);
  });
});
