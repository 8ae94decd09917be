import { describe, expect, it } from 'vitest';
import { roundTrips, type BrokerDeal } from './mt5-books.ts';

const deal = (d: Partial<BrokerDeal> & Pick<BrokerDeal, 'ticket' | 'position_id' | 'entry' | 'price' | 'time'>): BrokerDeal => ({
  type: d.entry === 'in' ? 0 : 1,
  symbol: 'EURUSD',
  volume: 0.5,
  commission: 0,
  fee: 0,
  swap: 0,
  profit: 0,
  ...d,
});

describe('round trips of an account', () => {
  it('keeps two positions open at the same time apart: each closes at its own open price', () => {
    // Position 1 bought 0.5 at 1.08520, position 2 bought 0.5 at 1.08530; both closed at 1.08990.
    const trades = roundTrips(7, [
      deal({ ticket: 1, position_id: 1, entry: 'in', price: 1.0852, time: 100 }),
      deal({ ticket: 2, position_id: 2, entry: 'in', price: 1.0853, time: 101 }),
      deal({ ticket: 3, position_id: 1, entry: 'out', price: 1.0899, time: 200 }),
      deal({ ticket: 4, position_id: 2, entry: 'out', price: 1.0899, time: 200 }),
    ]);
    expect(trades.map((t) => [t.ticket, t.quantity, t.openPrice, t.openedAt])).toEqual([
      [3, 0.5, 1.0852, 100],
      [4, 0.5, 1.0853, 101],
    ]);
  });

  it('orders the round trips by their close', () => {
    const trades = roundTrips(7, [
      deal({ ticket: 1, position_id: 9, entry: 'in', price: 1.1, time: 100 }),
      deal({ ticket: 2, position_id: 8, entry: 'in', price: 1.2, time: 110 }),
      deal({ ticket: 3, position_id: 8, entry: 'out', price: 1.21, time: 150 }),
      deal({ ticket: 4, position_id: 9, entry: 'out', price: 1.11, time: 300 }),
    ]);
    expect(trades.map((t) => t.ticket)).toEqual([3, 4]);
  });
});
