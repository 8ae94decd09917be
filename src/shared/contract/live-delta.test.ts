import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeServerMessage, deltaText, encodeRows, snapshotText } from './live.ts';
import { applyDelta, type LiveDelta } from './live-delta.ts';
import type { Position } from './positions.ts';

function row(symbol: string, over: Partial<Position> = {}): Position {
  return {
    account_name: 'Alpha',
    account_nameBis: 'Alpha',
    u_symbol: symbol,
    type: 'Buy',
    category: 'Forex',
    teiko_category: 'SMA',
    time: 1_764_000_000,
    price_open: 1.1,
    price_current: 1.1012,
    quantity: 1,
    quantity_currency: 100_000,
    profit: 120,
    profit_currency: 120,
    fee_currency: -3.5,
    commission_currency: -3.5,
    swap_currency: 0,
    sl: null,
    tp: 1.12,
    breakeven: 1.1,
    breakevenMax: null,
    breakevenMin: null,
    is_master: true,
    equity_market: null,
    broker_name: 'Acme',
    img_path: '',
    server: 'Acme-Live',
    server_name: 'Acme Live',
    login: '1001',
    currency: 'EUR',
    exec_duration_ms: 12,
    avgMae: null,
    medianMae: null,
    avgMfe: null,
    medianMfe: null,
    legs: 1,
    ...over,
  };
}

/** What a client holds after a snapshot of `before` (version 1) and the delta to `after` (version 2), through the wire's text. */
function across(before: Position[], after: Position[]): { rows: Position[] | null; delta: LiveDelta } {
  const snap = decodeServerMessage(JSON.parse(snapshotText(1, encodeRows(before), 1)));
  const delta = decodeServerMessage(JSON.parse(deltaText(2, 1, 2, encodeRows(before), encodeRows(after))));
  if (snap?.type !== 'snapshot' || delta?.type !== 'delta') throw new Error('not a snapshot and a delta');
  return { rows: applyDelta(snap.positionsAggregate, snap.version ?? null, delta), delta };
}

/** The rows a full snapshot of `rows` shows a client. */
function shown(rows: Position[]): Position[] {
  const snap = decodeServerMessage(JSON.parse(snapshotText(2, encodeRows(rows), 2)));
  if (snap?.type !== 'snapshot') throw new Error('not a snapshot');
  return snap.positionsAggregate;
}

describe('live deltas', () => {
  it('carry only the fields that changed, and give what the snapshot shows', () => {
    const before = [row('EURUSD'), row('GBPUSD')];
    const after = [row('EURUSD', { price_current: 1.1015, profit: 150, profit_currency: 150 }), row('GBPUSD')];
    const { rows, delta } = across(before, after);
    expect(delta.changes).toEqual([[0, { price_current: 1.1015, profit: 150, profit_currency: 150 }]]);
    expect(rows).toEqual(shown(after));
  });

  it('compare figures as the wire rounds them: a change under a cent is no change', () => {
    const { delta } = across([row('EURUSD', { profit: 120.001 })], [row('EURUSD', { profit: 120.004 })]);
    expect(delta.changes).toEqual([]);
  });

  it('send a row whole where the index is new, and cut the rows past the new length', () => {
    const grown = across([row('EURUSD')], [row('EURUSD'), row('USDJPY', { price_open: 150.1 })]);
    expect(grown.delta.changes).toEqual([[1, expect.objectContaining({ u_symbol: 'USDJPY', legs: 1 })]]);
    expect(grown.rows).toEqual(shown([row('EURUSD'), row('USDJPY', { price_open: 150.1 })]));
    const shrunk = across([row('EURUSD'), row('USDJPY')], [row('EURUSD')]);
    expect(shrunk.delta).toMatchObject({ length: 1, changes: [] });
    expect(shrunk.rows).toEqual(shown([row('EURUSD')]));
  });

  it('a null that was a figure, and a figure that was null, travel as changes', () => {
    const { rows, delta } = across([row('EURUSD', { sl: 1.09, tp: null })], [row('EURUSD', { sl: null, tp: 1.13 })]);
    expect(delta.changes).toEqual([[0, { sl: null, tp: 1.13 }]]);
    expect(rows).toEqual(shown([row('EURUSD', { sl: null, tp: 1.13 })]));
  });

  it('do not apply to another version than their base (a message was missed)', () => {
    const { delta } = across([row('EURUSD')], [row('EURUSD', { profit: 1 })]);
    expect(applyDelta([row('EURUSD')], 7, delta)).toBeNull();
    expect(applyDelta([row('EURUSD')], null, delta)).toBeNull();
  });

  it('do not apply when a new index comes without its whole row', () => {
    const broken: LiveDelta = { type: 'delta', timestamp: 2, version: 2, base: 1, length: 2, changes: [[1, { profit: 5 }]] };
    expect(applyDelta([row('EURUSD')], 1, broken)).toBeNull();
    const hole: LiveDelta = { type: 'delta', timestamp: 2, version: 2, base: 1, length: 3, changes: [[2, row('X')]] };
    expect(applyDelta([row('EURUSD')], 1, hole)).toBeNull();
  });

  it('any sequence of snapshots, sent as deltas, shows at each step exactly what its full snapshot shows', () => {
    const symbols = ['EURUSD', 'GBPUSD', 'USDJPY', 'XAUUSD', 'AAPL'];
    const arbRow = fc.record({
      symbol: fc.constantFrom(...symbols),
      profit: fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.integer({ min: -100, max: 100 })),
      price: fc.double({ min: 0.5, max: 2, noNaN: true }),
      sl: fc.option(fc.double({ min: 0.5, max: 2, noNaN: true })),
      quantity: fc.double({ min: 0.01, max: 50, noNaN: true }),
      legs: fc.integer({ min: 1, max: 9 }),
    }).map((r) => row(r.symbol, { profit: r.profit, profit_currency: r.profit, price_current: r.price, sl: r.sl, quantity: r.quantity, legs: r.legs }));
    fc.assert(
      fc.property(fc.array(fc.array(arbRow, { maxLength: 8 }), { minLength: 2, maxLength: 6 }), (steps) => {
        let held = shown(steps[0]!);
        let version = 1;
        for (let i = 1; i < steps.length; i++) {
          const text = deltaText(i + 1, version, version + 1, encodeRows(steps[i - 1]!), encodeRows(steps[i]!));
          const delta = decodeServerMessage(JSON.parse(text));
          if (delta?.type !== 'delta') return false;
          const next = applyDelta(held, version, delta);
          expect(next).toEqual(shown(steps[i]!));
          held = next!;
          version++;
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });
});
