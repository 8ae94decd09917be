import { describe, expect, it } from 'vitest';
import { roundTrips, type BrokerDeal } from './mt5-books.ts';

/** How the books split commission between round trips (docs/ingest-api.md 'Commission of a round trip'). */
const deal = (d: Partial<BrokerDeal> & Pick<BrokerDeal, 'ticket' | 'position_id' | 'entry' | 'type' | 'volume' | 'price' | 'time'>): BrokerDeal => ({
  symbol: 'EURUSD',
  commission: 0,
  fee: 0,
  swap: 0,
  profit: 0,
  ...d,
});

describe('commission of a round trip', () => {
  it('an out deal takes its own commission and its share, by volume, of what the in deals paid', () => {
    // In 1.0 lot paying −3.00; out 0.4 paying −1.20, then out 0.6 paying −1.80.
    const trades = roundTrips(1, [
      deal({ ticket: 1, position_id: 5, entry: 'in', type: 0, volume: 1, price: 1.1, time: 100, commission: -3 }),
      deal({ ticket: 2, position_id: 5, entry: 'out', type: 1, volume: 0.4, price: 1.11, time: 200, commission: -1.2 }),
      deal({ ticket: 3, position_id: 5, entry: 'out', type: 1, volume: 0.6, price: 1.12, time: 300, commission: -1.8 }),
    ]);
    // −1.20 + 0.4 × −3.00 = −2.40; −1.80 + 0.6 × −3.00 = −3.60
    expect(trades.map((t) => [t.quantity, t.commission])).toEqual([
      [0.4, -2.4],
      [0.6, -3.6],
    ]);
  });

  it('an inout deal (a reversal) charges its whole commission to the round trip it closes; the reversed position opens with none', () => {
    // Buy 1 lot paying −7; sell 3 lots in/out paying −21 (closes the 1, opens 2 short); buy 2 lots out paying −14.
    const trades = roundTrips(1, [
      deal({ ticket: 1, position_id: 9, entry: 'in', type: 0, volume: 1, price: 1.1, time: 100, commission: -7 }),
      deal({ ticket: 2, position_id: 9, entry: 'inout', type: 1, volume: 3, price: 1.105, time: 200, commission: -21 }),
      deal({ ticket: 3, position_id: 9, entry: 'out', type: 0, volume: 2, price: 1.1, time: 300, commission: -14 }),
    ]);
    // Round trip 1: Buy 1 lot, −7 + −21 = −28. Round trip 2: Sell 2 lots opened by the in/out at 1.105, −14 (nothing carried).
    expect(trades.map((t) => [t.type, t.quantity, t.openPrice, t.openedAt, t.commission])).toEqual([
      ['Buy', 1, 1.1, 100, -28],
      ['Sell', 2, 1.105, 200, -14],
    ]);
    // Whatever the split, the books charge exactly what the broker did: −7 − 21 − 14 = −42.
    expect(trades.reduce((s, t) => s + t.commission, 0)).toBe(-42);
  });

  it('an out_by deal (close by an opposite position) closes like an out: each position keeps its own opening commission', () => {
    // #801 bought 0.3 paying −0.90, #802 sold 0.3 paying −0.90; closed by each other (two out_by deals, no commission).
    const trades = roundTrips(1, [
      deal({ ticket: 902, position_id: 801, entry: 'in', type: 0, volume: 0.3, price: 1.2501, time: 100, commission: -0.9 }),
      deal({ ticket: 903, position_id: 802, entry: 'in', type: 1, volume: 0.3, price: 1.251, time: 200, commission: -0.9 }),
      deal({ ticket: 904, position_id: 801, entry: 'out_by', type: 1, volume: 0.3, price: 1.251, time: 300, profit: 27 }),
      deal({ ticket: 905, position_id: 802, entry: 'out_by', type: 0, volume: 0.3, price: 1.251, time: 300 }),
    ]);
    expect(trades.map((t) => [t.ticket, t.type, t.commission, t.profit])).toEqual([
      [904, 'Buy', -0.9, 27],
      [905, 'Sell', -0.9, 0],
    ]);
  });

  it('an out_by deal that pays a commission adds it to its own position’s round trip only', () => {
    const trades = roundTrips(1, [
      deal({ ticket: 1, position_id: 1, entry: 'in', type: 0, volume: 1, price: 1.1, time: 100, commission: -3 }),
      deal({ ticket: 2, position_id: 2, entry: 'in', type: 1, volume: 1, price: 1.1, time: 110, commission: -3 }),
      deal({ ticket: 3, position_id: 1, entry: 'out_by', type: 1, volume: 1, price: 1.1, time: 200, commission: -0.5 }),
      deal({ ticket: 4, position_id: 2, entry: 'out_by', type: 0, volume: 1, price: 1.1, time: 200 }),
    ]);
    expect(trades.map((t) => [t.ticket, t.commission])).toEqual([
      [3, -3.5],
      [4, -3],
    ]);
  });
});
