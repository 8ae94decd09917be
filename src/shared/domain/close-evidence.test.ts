import { describe, expect, it } from 'vitest';
import type { BrokerEvent, TradeFill } from './broker-events.ts';
import { closedByAbsence, closedByDeals, UNCONFIRMED_CLOSE_AFTER_S, type MissingPosition } from './close-evidence.ts';

const T = 1_795_000_000;
const fill = (f: Partial<TradeFill> & Pick<TradeFill, 'ref' | 'at' | 'effect' | 'quantity'>): BrokerEvent => ({
  kind: 'fill', position: 901, symbol: 'EURUSD', assetClass: 'forex', side: 'Sell', price: 1.08, multiplier: 100_000,
  commission: 0, fee: 0, swap: 0, profit: 0, currency: 'EUR', rate: 1, ...f,
});
// Position 901: 0.5 lot, last reported open at T, missing since T + 10.
const missing: MissingPosition = { identifier: 901, quantity: 0.5, seenAt: T, since: T + 10 };

describe('a position missing from a full snapshot', () => {
  it('is closed by its closing deal dated after its last report', () => {
    expect(closedByDeals(missing, [fill({ ref: 2, at: T + 5, effect: 'close', quantity: 0.5 })])).toBe(true);
  });

  it('is closed by two partial closes after its last report that together cover it: 0.2 + 0.3 = 0.5', () => {
    expect(closedByDeals(missing, [fill({ ref: 2, at: T + 3, effect: 'close', quantity: 0.2 }), fill({ ref: 3, at: T + 6, effect: 'close', quantity: 0.3 })])).toBe(true);
  });

  it('is closed by a reversing deal', () => {
    expect(closedByDeals(missing, [fill({ ref: 2, at: T + 5, effect: 'reverse', quantity: 1 })])).toBe(true);
  });

  it('is not closed by its opening deal, a partial close of 0.2, a deal of another position, or a close from before its last report', () => {
    expect(closedByDeals(missing, [fill({ ref: 1, at: T - 3_600, effect: 'open', quantity: 0.5 })])).toBe(false);
    expect(closedByDeals(missing, [fill({ ref: 2, at: T + 5, effect: 'close', quantity: 0.2 })])).toBe(false);
    expect(closedByDeals(missing, [fill({ ref: 2, at: T + 5, effect: 'close', quantity: 0.5, position: 902 })])).toBe(false);
    // Closed 0.5 an hour before it was last reported open with 0.5: an older trade of the same position id.
    expect(closedByDeals(missing, [fill({ ref: 2, at: T - 3_600, effect: 'close', quantity: 0.5 })])).toBe(false);
  });

  it('takes a closing deal dated up to a minute before its last report (the terminal\'s clock ahead of the server\'s)', () => {
    expect(closedByDeals(missing, [fill({ ref: 2, at: T - 60, effect: 'close', quantity: 0.5 })])).toBe(true);
    expect(closedByDeals(missing, [fill({ ref: 2, at: T - 61, effect: 'close', quantity: 0.5 })])).toBe(false);
  });

  it(`is closed by its absence only after ${UNCONFIRMED_CLOSE_AFTER_S} s, and only while the terminal is connected and may trade`, () => {
    const at = missing.since;
    expect(closedByAbsence(missing, at + UNCONFIRMED_CLOSE_AFTER_S - 1, { connected: true, tradeAllowed: true })).toBe(false);
    expect(closedByAbsence(missing, at + UNCONFIRMED_CLOSE_AFTER_S, { connected: true, tradeAllowed: true })).toBe(true);
    expect(closedByAbsence(missing, at + 86_400, { connected: false, tradeAllowed: true })).toBe(false);
    expect(closedByAbsence(missing, at + 86_400, { connected: true, tradeAllowed: false })).toBe(false);
    // A terminal that does not say: taken as connected.
    expect(closedByAbsence(missing, at + UNCONFIRMED_CLOSE_AFTER_S, {})).toBe(true);
    // A shorter window where the operator set one.
    expect(closedByAbsence(missing, at + 30, {}, 30)).toBe(true);
  });
});
