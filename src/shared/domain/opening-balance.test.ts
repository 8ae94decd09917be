import { describe, expect, it } from 'vitest';
import { openingEntries, type BalanceAnchor, type BalanceMove } from './opening-balance.ts';

/*
 * Worked by hand. A January report starts at deal 100 (t = 1 000) with a balance of 1 000.00 before it
 * and books +100 (deal 110, t = 2 000); February's starts at deal 200 (t = 3 000) with 1 100.00 before
 * it and books +50 (deal 210, t = 4 000); March's starts at deal 300 (t = 5 000) with 1 300.00 before it
 * (February's report left out a +150 at the end of the month).
 */
const JANUARY: BalanceAnchor = { ticket: 100, time: 1_000, balance: 1_000 };
const FEBRUARY: BalanceAnchor = { ticket: 200, time: 3_000, balance: 1_100 };
const MARCH: BalanceAnchor = { ticket: 300, time: 5_000, balance: 1_300 };
const januaryRows: BalanceMove[] = [{ time: 2_000, ticket: 110, amount: 100 }];
const februaryRows: BalanceMove[] = [{ time: 4_000, ticket: 210, amount: 50 }];

describe('openingEntries', () => {
  it('one period report: its opening balance is booked a second before its first deal', () => {
    expect(openingEntries([JANUARY], januaryRows)).toEqual([{ ticket: -100, at: 999, amount: 1_000 }]);
  });

  it('a report that starts with the first deposit (balance 0 before it) books nothing', () => {
    expect(openingEntries([{ ticket: 1, time: 500, balance: 0 }], [{ time: 500, ticket: 1, amount: 5_000 }])).toEqual([]);
  });

  it('the same report imported twice leaves one anchor: the same one entry', () => {
    const once = openingEntries([JANUARY], januaryRows);
    expect(openingEntries([JANUARY, JANUARY], januaryRows)).toEqual(once);
  });

  it('the next month, imported after: its anchor is what January leaves (1 000 + 100), so nothing more', () => {
    expect(openingEntries([JANUARY, FEBRUARY], [...januaryRows, ...februaryRows])).toEqual([{ ticket: -100, at: 999, amount: 1_000 }]);
  });

  it('the earlier month, imported after the later one: the opening moves to January and February’s goes', () => {
    const februaryAlone = openingEntries([FEBRUARY], februaryRows);
    expect(februaryAlone).toEqual([{ ticket: -200, at: 2_999, amount: 1_100 }]);
    expect(openingEntries([FEBRUARY, JANUARY], [...februaryRows, ...januaryRows])).toEqual([{ ticket: -100, at: 999, amount: 1_000 }]);
  });

  it('a gap between two reports: the later one’s opening books the difference the rows do not explain', () => {
    // Before March: 1 000 + 100 + 50 = 1 150 booked; March says 1 300: +150 just before deal 300.
    expect(openingEntries([JANUARY, FEBRUARY, MARCH], [...januaryRows, ...februaryRows])).toEqual([
      { ticket: -100, at: 999, amount: 1_000 },
      { ticket: -300, at: 4_999, amount: 150 },
    ]);
  });

  it('rows the books held before the earliest anchor count toward it (a terminal reported them first)', () => {
    // 600 deposited by deal 50 before January's period: only 400 is left to open with.
    expect(openingEntries([JANUARY], [{ time: 10, ticket: 50, amount: 600 }, ...januaryRows])).toEqual([{ ticket: -100, at: 999, amount: 400 }]);
  });

  it('a row at the anchor’s own second counts before it only when its ticket is lower', () => {
    const moves: BalanceMove[] = [
      { time: 1_000, ticket: 99, amount: 10 },
      { time: 1_000, ticket: 101, amount: 20 },
      { time: 1_000, ticket: null, amount: 40 },
    ];
    expect(openingEntries([JANUARY], moves)).toEqual([{ ticket: -100, at: 999, amount: 990 }]);
  });

  it('amounts are money: to the cent, and a sub-cent difference is none', () => {
    expect(openingEntries([{ ticket: 7, time: 100, balance: 0.1 + 0.2 }], [])).toEqual([{ ticket: -7, at: 99, amount: 0.3 }]);
    expect(openingEntries([{ ticket: 7, time: 100, balance: 50.004 }], [{ time: 1, ticket: 1, amount: 50 }])).toEqual([]);
  });
});
