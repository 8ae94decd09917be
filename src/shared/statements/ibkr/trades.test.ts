import { describe, expect, it } from 'vitest';
import type { BrokerEvent, CurrencyConversion, TradeFill } from '#shared/domain/broker-events.ts';
import { replay } from '#shared/domain/round-trips.ts';
import { fixture } from '../../../../tests/fixtures/ibkr/files.ts';
import { parseFlex, type FlexStatementRead } from './flex.ts';

/*
 * The Trades section over self-made files (tests/fixtures/ibkr): one level of detail, cancellations and
 * corrections, commissions in another currency, currency trades, futures and an option assignment.
 * Expected figures are worked out by hand from each fixture's rows.
 */

const read = (name: string) => parseFlex(fixture(name), name);
const fills = (s: FlexStatementRead | undefined): TradeFill[] => (s?.events ?? []).filter((e): e is TradeFill => e.kind === 'fill');
const trips = (events: readonly BrokerEvent[]) => replay(0, events, () => 'Equities');

describe('one trade at three levels of detail (levels.xml)', () => {
  const [executions, ordersOnly] = read('levels.xml').statements;

  it('books the EXECUTION rows only: the ORDER and CLOSED_LOT rows of the same sale are not fills again', () => {
    expect(executions?.events.map((e) => [e.kind, e.ref])).toEqual([
      ['fill', 4001],
      ['fill', 4002],
      ['fill', 4003],
    ]);
  });

  it('counts the realized result once: 2400 − 2 − (1001 + 1101) = 296 USD, not 3 × 296 = 888', () => {
    expect(executions?.cash).toEqual([{ currency: 'USD', start: 0, end: 296, stated: false, realized: 296, commissions: -4 }]);
    expect(trips(executions?.events ?? []).trips.map((t) => t.net)).toEqual([296]);
  });

  it('books ORDER rows where a statement has no executions: 360 − 1.5 − 301.5 = 57 USD', () => {
    expect(fills(ordersOnly).map((f) => [f.side, f.quantity, f.price, f.effect])).toEqual([
      ['Buy', 30, 10, 'open'],
      ['Sell', 30, 12, 'close'],
    ]);
    expect(ordersOnly?.cash[0]?.realized).toBe(57);
  });

  it('gives rows without an id (ORDER rows) the same hashed refs on every import, above 2^52', () => {
    const again = read('levels.xml').statements[1];
    const refs = fills(ordersOnly).map((f) => f.ref);
    expect(fills(again).map((f) => f.ref)).toEqual(refs);
    for (const ref of refs) {
      expect(ref).toBeGreaterThanOrEqual(2 ** 52);
      expect(ref).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
    }
    expect(new Set(refs).size).toBe(2);
  });
});

describe('cancelled and corrected trades (cancellations.xml)', () => {
  const [statement] = read('cancellations.xml').statements;

  it('books neither a cancelled trade nor its cancellation, and a correction instead of its original', () => {
    // 3001 is cancelled by a TradeCancel row naming it (origTradeID 301); 3003 by a Trade row with notes
    // Ca and no id of it (the same contract, quantity and price before it); 3005 is replaced by 3006 (Co).
    expect(fills(statement).map((f) => [f.ref, f.quantity, f.price])).toEqual([
      [3006, 20, 12.5],
      [3007, 5, 13],
    ]);
  });

  it('keeps the originals as memos under their refs, so that importing the file again changes nothing', () => {
    const memos = (statement?.events ?? []).filter((e) => e.kind === 'memo');
    expect(memos.map((m) => m.ref)).toEqual([3001, 3003, 3005]);
    expect(statement?.events.some((e) => e.ref === 3002 || e.ref === 3004)).toBe(false);
  });

  it('counts only the booked trades in the cash: −(250 + 1) − (65 + 1) = −317 USD', () => {
    expect(statement?.cash).toEqual([{ currency: 'USD', start: 0, end: -317, stated: false, realized: 0, commissions: -2 }]);
  });
});

describe('a commission charged in another currency (commission-currency.xml)', () => {
  const [statement] = read('commission-currency.xml').statements;
  const [inEuro, inFranc] = fills(statement);

  it("converts it into the trade's currency through the base, at the rates of that day", () => {
    // −2 EUR × 0.95 (EUR→CHF, ConversionRate) / 0.9 (USD→CHF, the row's fxRateToBase) = −2.1111 USD.
    expect(inEuro?.commission).toBeCloseTo((-2 * 0.95) / 0.9, 12);
    expect(inEuro?.rate).toBe(0.9);
    // −3 CHF, the base itself (rate 1) / 0.9 = −3.3333 USD.
    expect(inFranc?.commission).toBeCloseTo(-3 / 0.9, 12);
  });

  it('counts each commission in the currency it was charged in', () => {
    expect(statement?.cash.map((c) => [c.currency, c.commissions, c.end])).toEqual([
      ['CHF', -3, -3],
      ['EUR', -2, -2],
      ['USD', 0, -1500],
    ]);
  });
});

describe('a currency trade (currency-trade.xml)', () => {
  const [statement] = read('currency-trade.xml').statements;

  it('books EUR.USD as one conversion, not a fill, and its FxTransaction rows not at all', () => {
    expect(statement?.base).toEqual({ currency: 'CHF', rule: 'FxTransaction@functionalCurrency' });
    expect(statement?.events).toHaveLength(1);
    const conversion = statement?.events[0] as CurrencyConversion;
    expect(conversion).toMatchObject({
      kind: 'conversion',
      ref: 12001,
      currency: 'EUR',
      rate: 0.96,
      amount: 10000,
      counter: { currency: 'USD', amount: -11000 },
    });
    // −2 USD × 0.88 / 0.96 (EUR→CHF) = −1.8333 EUR.
    expect(conversion.commission).toBeCloseTo((-2 * 0.88) / 0.96, 12);
  });

  it('moves the base leg, the quote leg and the commission in their own currencies', () => {
    expect(statement?.cash.map((c) => [c.currency, c.end, c.commissions])).toEqual([
      ['EUR', 10000, 0],
      ['USD', -11002, -2],
    ]);
    // 10000 × 0.96 − 11002 × 0.88 = 9600 − 9681.76 = −81.76 CHF.
    expect(statement?.balance).toEqual({ amount: -81.76, rule: 'converted' });
  });
});

describe('a futures round trip (futures.xml)', () => {
  const [statement] = read('futures.xml').statements;

  it('leaves IB’s 0 realized aside and lets the engine price it: (4010 − 4000) × 2 × 50 − 4 × 2.50 = 990 USD', () => {
    expect(fills(statement).map((f) => [f.effect, f.realizedNet, f.multiplier])).toEqual([
      ['open', null, 50],
      ['close', null, 50],
    ]);
    expect(trips(statement?.events ?? []).trips.map((t) => t.net)).toEqual([990]);
    expect(statement?.cash[0]?.realized).toBe(990);
  });

  it('moves the variation margin (netCash), not the notional, and agrees with the Cash Report: 10 000 + 495 + 495 = 10 990', () => {
    expect(statement?.cash).toEqual([{ currency: 'USD', start: 10000, end: 10990, stated: true, realized: 990, commissions: -10 }]);
    expect(statement?.balance).toEqual({ amount: 10990, rule: 'CashReport BASE_SUMMARY' });
    expect(read('futures.xml').warnings).toEqual([]);
  });
});

describe('a put assigned (option-assignment.xml)', () => {
  const [statement] = read('option-assignment.xml').statements;

  it('books the option closed at IB’s realized 0: its premium goes into the shares', () => {
    const [sold, assigned] = fills(statement);
    expect(sold).toMatchObject({ assetClass: 'option', side: 'Sell', effect: 'open', multiplier: 100 });
    expect(assigned).toMatchObject({ assetClass: 'option', side: 'Buy', effect: 'close', price: 0, realizedNet: 0 });
  });

  it('opens the shares at IB’s cost basis from the closed lot: 4851 / 100 = 48.51, not the strike 50', () => {
    const shares = fills(statement).find((f) => f.ref === 14013);
    expect(shares).toMatchObject({ assetClass: 'stock', price: 48.51, effect: 'open' });
  });

  it('realizes 5200 − 1 − 4851 = 348 USD on the shares and 0 on the option', () => {
    const result = trips(statement?.events ?? []).trips.map((t) => [t.trade.symbol, t.trade.openPrice, t.net]);
    expect(result).toEqual([
      ['OPX   240920P00050000', 1.5, 0],
      ['OPX', 48.51, 348],
    ]);
    expect(statement?.cash[0]?.realized).toBe(348);
  });
});
