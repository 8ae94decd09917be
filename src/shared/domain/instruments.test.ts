import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FOREX_PAIRS } from './pairs.ts';
import { canonicalSymbol, categoryOfSymbol, instrumentSpec } from './instruments.ts';

const figures = (symbol: string) => {
  const s = instrumentSpec(symbol);
  return [s.symbol, s.class, s.category, s.quote, s.contract, s.pip, s.digits];
};

describe('instrument classifier', () => {
  it('knows the 14 pairs of the copy rules as written', () => {
    for (const pair of FOREX_PAIRS) {
      const jpy = pair.endsWith('JPY');
      expect(figures(pair)).toEqual([pair, 'forex', 'Forex', pair.slice(3), 100_000, jpy ? 0.01 : 0.0001, jpy ? 3 : 5]);
    }
  });

  it('reads MT4 lower-case pairs and broker suffixes as the pair (audusd, eurgbp-2, audcad.)', () => {
    expect(canonicalSymbol('audusd')).toBe('AUDUSD');
    expect(canonicalSymbol('eurgbp-2')).toBe('EURGBP');
    expect(canonicalSymbol('audcad.')).toBe('AUDCAD');
    expect(categoryOfSymbol('audusd')).toBe('Forex');
    expect(categoryOfSymbol('eurgbp-2')).toBe('Forex');
    expect(categoryOfSymbol('audcad.')).toBe('Forex');
  });

  it('drops the usual suffixes and prefixes: .m, c, #, _i, .pro, .ecn, micro', () => {
    for (const name of ['EURUSD.m', 'EURUSDc', 'EURUSD#', '#EURUSD', 'EURUSD_i', 'EURUSD.pro', 'eurusd.ecn', 'EURUSDmicro', 'EUR/USD', 'EURUSD2']) {
      expect(canonicalSymbol(name), name).toBe('EURUSD');
    }
  });

  it('classes a pair of any two ISO currencies, not only the 14: exotic and crosses', () => {
    expect(figures('USDTRY')).toEqual(['USDTRY', 'forex', 'Forex', 'TRY', 100_000, 0.0001, 5]);
    expect(figures('nzdchf.r')).toEqual(['NZDCHF', 'forex', 'Forex', 'CHF', 100_000, 0.0001, 5]);
    expect(instrumentSpec('EURSEK').base).toBe('EUR');
  });

  it('gives pairs quoted in JPY or HUF a pip of 0.01 and 3 digits', () => {
    expect(figures('CHFJPY')).toEqual(['CHFJPY', 'forex', 'Forex', 'JPY', 100_000, 0.01, 3]);
    expect(figures('EURHUF')).toEqual(['EURHUF', 'forex', 'Forex', 'HUF', 100_000, 0.01, 3]);
  });

  it('classes spot metals as Forex with their ounces per lot (gold 100, silver 5,000)', () => {
    expect(figures('XAUUSD')).toEqual(['XAUUSD', 'metal', 'Forex', 'USD', 100, 0.01, 2]);
    expect(figures('xagusd.m')).toEqual(['XAGUSD', 'metal', 'Forex', 'USD', 5_000, 0.001, 3]);
    expect(figures('GOLD')).toEqual(figures('XAUUSD'));
    expect(figures('SILVER')).toEqual(figures('XAGUSD'));
    expect(figures('XAUEUR')).toEqual(['XAUEUR', 'metal', 'Forex', 'EUR', 100, 0.01, 2]);
    expect(figures('XPTUSD')[1]).toBe('metal');
  });

  it('classes indices as Equities under one name whatever the broker calls them', () => {
    expect(figures('US30')).toEqual(['US30', 'index', 'Equities', 'USD', 1, 1, 2]);
    for (const name of ['DJ30', 'WS30', '#US30', 'US30.cash', 'US30Cash', 'usa30']) expect(canonicalSymbol(name), name).toBe('US30');
    for (const name of ['USTEC', 'US100', 'NAS100.m']) expect(canonicalSymbol(name), name).toBe('NAS100');
    for (const name of ['US500', 'SPX500', 'SP500']) expect(canonicalSymbol(name), name).toBe('SPX500');
    expect(figures('DE40')).toEqual(['GER40', 'index', 'Equities', 'EUR', 1, 1, 2]);
    expect(figures('GER30')[0]).toBe('GER40');
    expect(figures('FTSE100')).toEqual(['UK100', 'index', 'Equities', 'GBP', 1, 1, 2]);
    expect(figures('JPN225')).toEqual(['JP225', 'index', 'Equities', 'JPY', 1, 1, 2]);
  });

  it('classes crypto as Equities, one coin a lot, a Tether quote counted as dollars', () => {
    expect(figures('BTCUSD')).toEqual(['BTCUSD', 'crypto', 'Equities', 'USD', 1, 1, 2]);
    expect(figures('ETHUSD.')).toEqual(['ETHUSD', 'crypto', 'Equities', 'USD', 1, 0.1, 2]);
    expect(figures('XRPUSD')).toEqual(['XRPUSD', 'crypto', 'Equities', 'USD', 1, 0.0001, 5]);
    expect(figures('BTCUSDT')).toEqual(['BTCUSDT', 'crypto', 'Equities', 'USD', 1, 1, 2]);
    expect(canonicalSymbol('Bitcoin')).toBe('BTCUSD');
  });

  it('classes energy as commodities (Equities): oil 100 barrels a lot', () => {
    expect(figures('XTIUSD')).toEqual(['USOIL', 'commodity', 'Equities', 'USD', 100, 0.01, 2]);
    expect(figures('Brent')).toEqual(['UKOIL', 'commodity', 'Equities', 'USD', 100, 0.01, 2]);
    expect(figures('XNGUSD')).toEqual(['NATGAS', 'commodity', 'Equities', 'USD', 10_000, 0.001, 3]);
  });

  it('classes anything else as a share: one share a lot, cents, USD unless the exchange says otherwise', () => {
    expect(figures('AAPL')).toEqual(['AAPL', 'share', 'Equities', 'USD', 1, 0.01, 2]);
    expect(figures('#AAPL')).toEqual(figures('AAPL'));
    expect(figures('aapl.us')).toEqual(figures('AAPL'));
    expect(figures('SAP.DE')).toEqual(['SAP.DE', 'share', 'Equities', 'EUR', 1, 0.01, 2]);
    expect(figures('VOD.L')).toEqual(['VOD.L', 'share', 'Equities', 'GBP', 1, 0.01, 2]);
    expect(figures('NESN.SW')[3]).toBe('CHF');
    // A name that only looks like a currency at first is not a pair.
    expect(figures('AMC')[1]).toBe('share');
    expect(figures('CADILLAC')[1]).toBe('share');
  });

  it('does not take a ticker ending in a letter for an index with a broker letter glued on (SPXC, DAXX, NDXI)', () => {
    for (const name of ['SPXC', 'DAXX', 'NDXI']) expect(figures(name).slice(0, 2), name).toEqual([name, 'share']);
    // After a name ending in a digit, or after a pair or a coin, the letter is the broker's.
    expect(canonicalSymbol('US30m')).toBe('US30');
    expect(canonicalSymbol('BTCUSDm')).toBe('BTCUSD');
    expect(canonicalSymbol('USTECm')).toBe('NAS100');
    // Written in lower case after the name, it is the broker's mark too.
    expect(canonicalSymbol('SPXm')).toBe('SPX500');
  });

  it('keeps a share’s class in its name: BRK.A and BRK.B are two shares', () => {
    expect(figures('BRK.A')).toEqual(['BRK.A', 'share', 'Equities', 'USD', 1, 0.01, 2]);
    expect(canonicalSymbol('BRK.B')).toBe('BRK.B');
    expect(canonicalSymbol('brk-b')).toBe('BRK.B');
  });

  it('reads a pair or a coin written with a separator inside (ETH-USD, EUR-USD)', () => {
    expect(figures('ETH-USD')).toEqual(['ETHUSD', 'crypto', 'Equities', 'USD', 1, 0.1, 2]);
    expect(canonicalSymbol('EUR-USD')).toBe('EURUSD');
    expect(canonicalSymbol('BTC_USDT')).toBe('BTCUSDT');
  });

  it('is stable: the canonical name classifies the same again', () => {
    const names = ['audusd', 'eurgbp-2', 'GOLD', 'US30Cash', 'BTCUSDT', 'SAP.DE', 'aapl.us', 'XNGUSD', 'EURUSDc', 'VOD.L', 'de40', 'BRK.B', 'ETH-USD', 'SPXC'];
    for (const name of names) expect(instrumentSpec(canonicalSymbol(name)), name).toEqual(instrumentSpec(name));
    fc.assert(
      fc.property(fc.string({ maxLength: 14 }), (name) => {
        const first = instrumentSpec(name);
        expect(instrumentSpec(first.symbol)).toEqual(first);
      }),
    );
  });
});
