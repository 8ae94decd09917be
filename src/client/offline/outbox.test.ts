import { describe, expect, it } from 'vitest';
import type { CopyRule } from '#shared/contract/copy-rules.ts';
import type { Position } from '#shared/contract/positions.ts';
import { ApiError } from '#client/api/http.ts';
import { position as livePosition } from '#client/live/fake-web-socket.ts';
import {
  addToOutbox,
  createAllowedPairsEntry,
  createTpSlEntry,
  currentOf,
  entryChange,
  entryLabel,
  expiredMessage,
  failedSendOutcome,
  formatDuration,
  freshNeeds,
  isExpired,
  keepAfterFailure,
  OUTBOX_EXPIRY_MS,
  pairsDelta,
  parseStoredOutbox,
  pendingForMaster,
  pendingForPosition,
  refusedMessage,
  reviewEntry,
  samePairs,
  samePrice,
  targetOf,
  withoutKeys,
  withoutTarget,
  type CurrentState,
} from './outbox.ts';

const T0 = Date.UTC(2026, 2, 5, 14, 7);
const MIN = 60_000;

/** The shared live row, as the AMC master's EURUSD Buy with a TP and an SL. */
function position(over: Partial<Position> = {}): Position {
  return {
    ...livePosition,
    account_name: 'AMC FX Master',
    account_nameBis: 'AMC FX Master',
    teiko_category: 'AMC',
    price_open: 1.085,
    price_current: 1.0862,
    profit: 120,
    profit_currency: 110,
    sl: 1.08,
    tp: 1.1,
    breakeven: 1.0851,
    broker_name: 'Avatrade',
    ...over,
  };
}

const tpSlRequest = {
  category: 'Forex' as const,
  symbol: 'EURUSD',
  direction: 'long' as const,
  currency: 'USD',
  portfolio: 'AMC' as const,
  take_profit: 1.12,
  stop_loss: 1.07,
};

function rule(over: Partial<CopyRule> = {}): CopyRule {
  return { master_id: 'm-1', market_type: 'Forex', allowed_pairs: ['EURUSD', 'USDJPY'], account_name: 'AMC FX Master', broker_name: 'Avatrade', ...over };
}

const tpSlEntry = (key = 'k-tpsl') => createTpSlEntry(tpSlRequest, position(), T0, key);
const pairsEntry = (pairs: string[] = ['EURUSD', 'USDJPY', 'GBPUSD'], key = 'k-pairs') =>
  createAllowedPairsEntry({ master_id: 'm-1', new_allowed_pairs: pairs }, rule(), T0, key);

describe('what a change made offline keeps', () => {
  it('a TP/SL edit keeps its Idempotency-Key, the request, the position as seen, when it was made and its expiry of 15 minutes', () => {
    const entry = tpSlEntry();
    expect(entry).toEqual({
      kind: 'tp-sl',
      key: 'k-tpsl',
      created_at: T0,
      expires_at: T0 + 15 * MIN,
      request: tpSlRequest,
      seen: { position_key: 'AMC FX Master|EURUSD|Buy', account_name: 'AMC FX Master', u_symbol: 'EURUSD', type: 'Buy', sl: 1.08, tp: 1.1, price_current: 1.0862 },
    });
  });

  it('a pairs change keeps the pairs the user saw and expires after 24 hours', () => {
    const entry = pairsEntry();
    expect(entry.seen).toEqual({ master_id: 'm-1', account_name: 'AMC FX Master', allowed_pairs: ['EURUSD', 'USDJPY'] });
    expect(entry.expires_at - entry.created_at).toBe(24 * 60 * MIN);
  });

  it('each change gets a fresh UUID as its Idempotency-Key unless one is given', () => {
    const a = createTpSlEntry(tpSlRequest, position(), T0);
    const b = createTpSlEntry(tpSlRequest, position(), T0);
    expect(a.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.key).not.toBe(b.key);
  });

  it('the expiries are 15 minutes for TP/SL and 24 hours for copy rules', () => {
    expect(OUTBOX_EXPIRY_MS).toEqual({ 'tp-sl': 900_000, 'allowed-pairs': 86_400_000 });
  });

  it('a request the server would refuse is not kept (it fails the same schema)', () => {
    expect(() => createTpSlEntry({ ...tpSlRequest, stop_loss: -1 }, position(), T0)).toThrow();
  });

  it('stored entries read back as they were; a value of another shape is left out', () => {
    const stored: unknown = JSON.parse(JSON.stringify([tpSlEntry(), pairsEntry(), { kind: 'close', key: 'x' }, 'junk']));
    expect(parseStoredOutbox(stored)).toEqual([tpSlEntry(), pairsEntry()]);
    expect(parseStoredOutbox(undefined)).toEqual([]);
    expect(parseStoredOutbox({ not: 'a list' })).toEqual([]);
  });
});

describe('adding to the outbox', () => {
  it('a newer change of the same target replaces the older one but keeps what the user saw first', () => {
    const first = tpSlEntry('k1');
    const second = createTpSlEntry({ ...tpSlRequest, stop_loss: 1.06 }, position({ sl: 1.07, tp: 1.12 }), T0 + MIN, 'k2');
    const outbox = addToOutbox(addToOutbox([], first), second);
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ key: 'k2', created_at: T0 + MIN, request: { stop_loss: 1.06 }, seen: { sl: 1.08, tp: 1.1 } });
  });

  it('changes of different targets are kept side by side', () => {
    const other = createTpSlEntry({ ...tpSlRequest, symbol: 'USDJPY', take_profit: 160, stop_loss: 140 }, position({ u_symbol: 'USDJPY' }), T0, 'k3');
    const outbox = [tpSlEntry(), pairsEntry(), other].reduce(addToOutbox, []);
    expect(outbox.map((e) => e.key)).toEqual(['k-tpsl', 'k-pairs', 'k3']);
  });

  it('the target of a TP/SL edit is its portfolio, symbol, direction and currency; of a pairs change its master', () => {
    expect(targetOf(tpSlEntry())).toBe('tp-sl|AMC|Forex|EURUSD|long|USD');
    expect(targetOf(pairsEntry())).toBe('allowed-pairs|m-1');
  });

  it('entries leave by key, or by target when a change sent online supersedes them', () => {
    const outbox = [tpSlEntry(), pairsEntry()];
    expect(withoutKeys(outbox, ['k-pairs']).map((e) => e.key)).toEqual(['k-tpsl']);
    expect(withoutTarget(outbox, 'tp-sl|AMC|Forex|EURUSD|long|USD').map((e) => e.key)).toEqual(['k-pairs']);
  });
});

describe('expiry', () => {
  it('a change is live until its expiry and expired from that moment', () => {
    const entry = tpSlEntry();
    expect(isExpired(entry, T0 + 15 * MIN - 1)).toBe(false);
    expect(isExpired(entry, T0 + 15 * MIN)).toBe(true);
  });

  it('the expired message says why, with the time a change is kept', () => {
    expect(expiredMessage(tpSlEntry())).toBe('TP/SL of EURUSD Buy (AMC FX Master) not sent: it expired (changes made offline are kept 15 min).');
    expect(expiredMessage(pairsEntry())).toBe('Pairs of AMC FX Master not sent: it expired (changes made offline are kept 24 h).');
  });

  it('durations read in minutes under an hour, in hours above', () => {
    expect(formatDuration(15 * MIN)).toBe('15 min');
    expect(formatDuration(24 * 60 * MIN)).toBe('24 h');
    expect(formatDuration(90 * MIN)).toBe('1 h 30 min');
  });
});

describe('a TP/SL edit against the position as it is now', () => {
  const entry = tpSlEntry();

  it('is ready to send when the SL and TP are still those the user saw, even if the price moved', () => {
    expect(reviewEntry(entry, position({ price_current: 1.09 }), T0 + MIN)).toEqual({ verdict: 'ready' });
  });

  it('is dropped once expired, whatever the position', () => {
    expect(reviewEntry(entry, position(), T0 + 16 * MIN)).toMatchObject({ verdict: 'drop', reason: 'expired' });
    expect(reviewEntry(entry, null, T0 + 16 * MIN)).toMatchObject({ verdict: 'drop', reason: 'expired' });
  });

  it('is dropped when the position is closed or gone', () => {
    expect(reviewEntry(entry, null, T0 + MIN)).toEqual({
      verdict: 'drop',
      reason: 'gone',
      message: 'TP/SL of EURUSD Buy (AMC FX Master) not sent: the position is closed or gone.',
    });
  });

  it('is dropped when the SL changed on the server since the user saw it', () => {
    const review = reviewEntry(entry, position({ sl: 1.075 }), T0 + MIN);
    expect(review).toMatchObject({ verdict: 'drop', reason: 'changed' });
    expect(review.verdict === 'drop' && review.message).toBe(
      'TP/SL of EURUSD Buy (AMC FX Master) not sent: its SL/TP changed on the server since you edited it (you saw SL 1.08000 · TP 1.10000, now SL 1.07500 · TP 1.10000).',
    );
  });

  it('is dropped when the TP changed, or was removed, since the user saw it', () => {
    expect(reviewEntry(entry, position({ tp: 1.105 }), T0 + MIN)).toMatchObject({ reason: 'changed' });
    expect(reviewEntry(entry, position({ tp: null }), T0 + MIN)).toMatchObject({ reason: 'changed' });
  });

  it('is dropped as already applied when the server holds the asked levels (the first attempt got through)', () => {
    expect(reviewEntry(entry, position({ sl: 1.07, tp: 1.12 }), T0 + MIN)).toEqual({
      verdict: 'drop',
      reason: 'applied',
      message: 'TP/SL of EURUSD Buy (AMC FX Master): already on the server, nothing to send.',
    });
  });

  it('prices equal to the feed’s rounding count as unchanged', () => {
    expect(samePrice(1.08, 1.08 + 1e-12)).toBe(true);
    expect(samePrice(1.08, 1.08001)).toBe(false);
    expect(samePrice(null, null)).toBe(true);
    expect(samePrice(null, 1.08)).toBe(false);
  });
});

describe('a pairs change against the rule as it is now', () => {
  const entry = pairsEntry();

  it('is ready when the allowed pairs are still those the user saw, in any order', () => {
    expect(reviewEntry(entry, rule({ allowed_pairs: ['USDJPY', 'EURUSD'] }), T0 + 60 * MIN)).toEqual({ verdict: 'ready' });
  });

  it('is dropped once expired after 24 hours', () => {
    expect(reviewEntry(entry, rule(), T0 + 24 * 60 * MIN)).toMatchObject({ verdict: 'drop', reason: 'expired' });
  });

  it('is dropped when the master’s rule is gone', () => {
    expect(reviewEntry(entry, null, T0 + MIN)).toMatchObject({ verdict: 'drop', reason: 'gone', message: 'Pairs of AMC FX Master not sent: the master’s copy rule is gone.' });
  });

  it('is dropped when the allowed pairs changed since the user saw them', () => {
    expect(reviewEntry(entry, rule({ allowed_pairs: ['EURUSD'] }), T0 + MIN)).toEqual({
      verdict: 'drop',
      reason: 'changed',
      message: 'Pairs of AMC FX Master not sent: its allowed pairs changed since you edited them (you saw EURUSD, USDJPY, now EURUSD).',
    });
  });

  it('is dropped as already applied when the rule already holds the asked pairs', () => {
    expect(reviewEntry(entry, rule({ allowed_pairs: ['GBPUSD', 'EURUSD', 'USDJPY'] }), T0 + MIN)).toMatchObject({ reason: 'applied' });
  });

  it('the review says what the change adds and removes against the pairs now', () => {
    expect(pairsDelta(['EURUSD', 'USDJPY'], ['USDJPY', 'AUDCAD'])).toBe('adds AUDCAD · removes EURUSD');
    expect(pairsDelta(['EURUSD'], ['EURUSD', 'AUDCAD', 'CADJPY'])).toBe('adds AUDCAD, CADJPY');
    expect(pairsDelta(['EURUSD'], ['EURUSD'])).toBe('no difference');
  });

  it('pairs compare as sets', () => {
    expect(samePairs(['A', 'B'], ['B', 'A'])).toBe(true);
    expect(samePairs(['A'], ['A', 'B'])).toBe(false);
    expect(samePairs([], [])).toBe(true);
  });
});

describe('failures', () => {
  it('a write that got no answer (status 0) is kept', () => {
    expect(keepAfterFailure(new ApiError(0, 'Network error. Please check your connection.'), true)).toBe(true);
  });

  it('a write made while the browser is offline is kept', () => {
    expect(keepAfterFailure(new ApiError(500, 'Boom'), false)).toBe(true);
  });

  it('an answer of the server (4xx or 5xx), or any other error, is shown and not kept', () => {
    expect(keepAfterFailure(new ApiError(400, 'stop_loss must be a positive price'), true)).toBe(false);
    expect(keepAfterFailure(new ApiError(503, 'Unavailable'), true)).toBe(false);
    expect(keepAfterFailure(new Error('Position not found.'), true)).toBe(false);
  });

  it('a confirmed send refused by the server (4xx) is dropped with its message', () => {
    expect(failedSendOutcome(new ApiError(404, 'Position not found.'))).toBe('refused');
    expect(failedSendOutcome(new ApiError(422, 'This Idempotency-Key was already used'))).toBe('refused');
    expect(refusedMessage(tpSlEntry(), 'Position not found.')).toBe('TP/SL of EURUSD Buy (AMC FX Master) not sent: the server refused it: Position not found.');
  });

  it('a confirmed send that got no answer, or a 5xx, stays for later', () => {
    expect(failedSendOutcome(new ApiError(0, 'Network error.'))).toBe('kept');
    expect(failedSendOutcome(new ApiError(502, 'Bad gateway'))).toBe('kept');
    expect(failedSendOutcome(new Error('aborted'))).toBe('kept');
  });
});

describe('matching entries with the current state', () => {
  const state: CurrentState = {
    positions: new Map([
      ['AMC', [position({ account_name: 'AMC Follower 01' }), position()]],
      ['SMA', [position({ account_name: 'SMA FX Master' })]],
    ]),
    rules: [rule({ master_id: 'm-2' }), rule()],
  };

  it('a TP/SL edit reads the row it was made on, in its own portfolio', () => {
    expect(currentOf(tpSlEntry(), state)).toMatchObject({ account_name: 'AMC FX Master', u_symbol: 'EURUSD', type: 'Buy' });
    const elsewhere = createTpSlEntry({ ...tpSlRequest, portfolio: 'SMA' }, position(), T0);
    expect(currentOf(elsewhere, state)).toBeNull();
  });

  it('a pairs change reads its master’s rule', () => {
    expect(currentOf(pairsEntry(), state)).toMatchObject({ master_id: 'm-1' });
    expect(currentOf(pairsEntry(), { ...state, rules: [] })).toBeNull();
  });

  it('a review fetches each portfolio’s positions once, and the rules only for pairs changes', () => {
    const amcAgain = createTpSlEntry({ ...tpSlRequest, symbol: 'USDJPY', take_profit: 160, stop_loss: 140 }, position({ u_symbol: 'USDJPY' }), T0);
    expect(freshNeeds([tpSlEntry(), amcAgain])).toEqual({ portfolios: ['AMC'], rules: false });
    expect(freshNeeds([tpSlEntry(), pairsEntry()])).toEqual({ portfolios: ['AMC'], rules: true });
    expect(freshNeeds([])).toEqual({ portfolios: [], rules: false });
  });

  it('a row shows the change made on it; a master the change of its pairs', () => {
    const outbox = [tpSlEntry(), pairsEntry()];
    expect(pendingForPosition(outbox, position())?.key).toBe('k-tpsl');
    expect(pendingForPosition(outbox, position({ account_name: 'AMC Follower 01' }))).toBeUndefined();
    expect(pendingForMaster(outbox, 'm-1')?.key).toBe('k-pairs');
    expect(pendingForMaster(outbox, 'm-2')).toBeUndefined();
  });

  it('a change reads in a few words', () => {
    expect(entryLabel(tpSlEntry())).toBe('TP/SL of EURUSD Buy (AMC FX Master)');
    expect(entryChange(tpSlEntry())).toBe('SL 1.07000 · TP 1.12000');
    expect(entryLabel(pairsEntry())).toBe('Pairs of AMC FX Master');
    expect(entryChange(pairsEntry([]))).toBe('none');
  });
});
