import { describe, expect, it } from 'vitest';
import { rebateCredits, roundTrips, symbolNamer, type BrokerDeal } from './mt5-books.ts';

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

describe("a broker's symbol names", () => {
  it("are the classifier's canonical names (audusd → AUDUSD), unless the operator's symbol map names them", () => {
    const name = symbolNamer(new Map([['DAX', 'DE40'], ['EURUSD.m', 'EURUSD']]));
    expect(['audusd', 'eurgbp-2', 'audcad.', 'EURUSD.m', 'xauusd'].map(name)).toEqual(['AUDUSD', 'EURGBP', 'AUDCAD', 'EURUSD', 'XAUUSD']);
    // The classifier would call it GER40: the map wins.
    expect(name('DAX')).toBe('DE40');
  });

  it('class the round trips of lower-case MT4 pairs as Forex', () => {
    const trades = roundTrips(7, [
      deal({ ticket: 1, position_id: 1, entry: 'in', price: 0.655, time: 100, symbol: symbolNamer(new Map())('audusd') }),
      deal({ ticket: 2, position_id: 1, entry: 'out', price: 0.656, time: 200, symbol: symbolNamer(new Map())('audusd') }),
    ]);
    expect(trades.map((t) => [t.symbol, t.category])).toEqual([['AUDUSD', 'Forex']]);
  });
});

describe('agent commission deals (MT5 types 10 and 11)', () => {
  it('are rebates credited, by ticket; other balance-side deals are not', () => {
    const credits = rebateCredits(7, [
      deal({ ticket: 5, position_id: 0, entry: 'in', price: 0, time: 300, type: 11, profit: 12.3, symbol: '' }),
      deal({ ticket: 6, position_id: 0, entry: 'in', price: 0, time: 400, type: 10, profit: 1.05, symbol: '' }),
      deal({ ticket: 7, position_id: 0, entry: 'in', price: 0, time: 500, type: 2, profit: 100, symbol: '' }),
      deal({ ticket: 8, position_id: 0, entry: 'in', price: 0, time: 600, type: 11, profit: 0, symbol: '' }),
    ]);
    expect(credits).toEqual([
      { kind: 'rebate', accountId: 7, ticket: 5, at: 300, amount: 12.3 },
      { kind: 'rebate', accountId: 7, ticket: 6, at: 400, amount: 1.05 },
    ]);
  });
});
