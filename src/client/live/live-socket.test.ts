// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Position } from '#shared/contract/positions.ts';
import { ApiError } from '#client/api/http.ts';
import { FakeWebSocket, position } from './fake-web-socket.ts';
import {
  createLiveSocket,
  onConnectivityRegained,
  parseLiveMessage,
  replaceNonFiniteTokens,
  type LiveSocketOptions,
  type LiveStatus,
} from './live-socket.ts';


const snapshot = (rows: Position[] = [position], timestamp = 1) =>
  JSON.stringify({ type: 'snapshot', timestamp, positionsAggregate: rows });

function setup(overrides: Partial<LiveSocketOptions> = {}) {
  let ticketCount = 0;
  const fetchTicket = vi.fn(() => Promise.resolve(`ticket-${++ticketCount}`));
  const statuses: [LiveStatus, string | null][] = [];
  const onMessage = vi.fn();
  const socket = createLiveSocket({
    path: '/ws/brokers/live-positions-aggregate',
    params: { portfolio: 'Global FX', account: undefined },
    maxAttempts: 10,
    onMessage,
    onStatus: (status, error) => statuses.push([status, error]),
    fetchTicket,
    WebSocketImpl: FakeWebSocket.asCtor(),
    baseUrl: 'ws://test',
    ...overrides,
  });
  const lastStatus = () => statuses.at(-1);
  return { socket, fetchTicket, statuses, lastStatus, onMessage };
}

/** Lets the ticket promise settle so the socket gets created. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('live socket (docs/product.md#calls–9)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeWebSocket.reset();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fetches a ticket, then opens the feed with it and the params', async () => {
    const { fetchTicket, lastStatus, onMessage } = setup();
    expect(lastStatus()).toEqual(['connecting', null]);
    await settle();
    expect(fetchTicket).toHaveBeenCalledTimes(1);
    const ws = FakeWebSocket.last();
    expect(ws.url.pathname).toBe('/ws/brokers/live-positions-aggregate');
    expect(ws.url.searchParams.get('portfolio')).toBe('Global FX');
    expect(ws.url.searchParams.has('account')).toBe(false);
    expect(ws.url.searchParams.get('token')).toBe('ticket-1');
    ws.open();
    expect(lastStatus()).toEqual(['live', null]);
    ws.receive(snapshot([position], 42));
    expect(onMessage).toHaveBeenCalledWith([position], 42);
  });

  it('asks for deltas and shows the rows they add up to; a delta it cannot apply asks for one resync', async () => {
    const { onMessage } = setup();
    await settle();
    const ws = FakeWebSocket.last();
    expect(ws.url.searchParams.get('updates')).toBe('delta');
    ws.open();
    const eur = { ...position, u_symbol: 'EURUSD' };
    ws.receive(JSON.stringify({ type: 'snapshot', timestamp: 1, version: 5, positionsAggregate: [position] }));
    ws.receive(JSON.stringify({ type: 'delta', timestamp: 2, version: 6, base: 5, length: 2, changes: [[0, { profit: 77 }], [1, eur]] }));
    expect(onMessage).toHaveBeenLastCalledWith([{ ...position, profit: 77 }, eur], 2);
    // A missed version (7): the delta to 8 does not apply, the rows stay, one resync is asked for.
    ws.receive(JSON.stringify({ type: 'delta', timestamp: 4, version: 8, base: 7, length: 1, changes: [] }));
    ws.receive(JSON.stringify({ type: 'delta', timestamp: 5, version: 9, base: 8, length: 1, changes: [] }));
    expect(onMessage).toHaveBeenCalledTimes(2);
    expect(ws.sent.filter((m) => m === '{"type":"resync"}')).toHaveLength(1);
    ws.receive(JSON.stringify({ type: 'snapshot', timestamp: 5, version: 9, positionsAggregate: [eur] }));
    ws.receive(JSON.stringify({ type: 'delta', timestamp: 6, version: 10, base: 9, length: 1, changes: [[0, { sl: 1.05 }]] }));
    expect(onMessage).toHaveBeenLastCalledWith([{ ...eur, sl: 1.05 }], 6);
  });

  it('fetches a fresh ticket before every reconnect', async () => {
    const { fetchTicket } = setup();
    await settle();
    FakeWebSocket.last().open();
    FakeWebSocket.last().serverClose(1006);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetchTicket).toHaveBeenCalledTimes(2);
    expect(FakeWebSocket.instances).toHaveLength(2);
    expect(FakeWebSocket.last().url.searchParams.get('token')).toBe('ticket-2');
  });

  it('waits 1000 ms × 2^attempt between reconnects, capped at 30 s', async () => {
    setup();
    await settle();
    const expected = [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000, 30000];
    for (const delay of expected) {
      const before = FakeWebSocket.instances.length;
      FakeWebSocket.last().serverClose(1006, 'gone');
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(FakeWebSocket.instances).toHaveLength(before);
      await vi.advanceTimersByTimeAsync(1);
      expect(FakeWebSocket.instances).toHaveLength(before + 1);
    }
  });

  it('gives up after maxAttempts reconnects and reports offline with the close reason', async () => {
    const { lastStatus } = setup({ maxAttempts: 2 });
    await settle();
    FakeWebSocket.last().serverClose(1006, 'gone');
    expect(lastStatus()).toEqual(['reconnecting', 'WebSocket closed: 1006 gone']);
    await vi.advanceTimersByTimeAsync(1000);
    FakeWebSocket.last().serverClose(1006, 'gone');
    await vi.advanceTimersByTimeAsync(2000);
    FakeWebSocket.last().serverClose(1011, 'boom');
    expect(lastStatus()).toEqual(['offline', 'WebSocket closed: 1011 boom']);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(FakeWebSocket.instances).toHaveLength(3);
  });

  it('retries once by default (DEFAULT_ATTEMPTS)', async () => {
    setup({ maxAttempts: undefined });
    await settle();
    FakeWebSocket.last().serverClose(1006);
    await vi.advanceTimersByTimeAsync(1000);
    FakeWebSocket.last().serverClose(1006);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeWebSocket.instances).toHaveLength(2);
  });

  it('does not reconnect after a normal close', async () => {
    const { lastStatus } = setup();
    await settle();
    FakeWebSocket.last().open();
    FakeWebSocket.last().serverClose(1000);
    expect(lastStatus()).toEqual(['closed', null]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it.each([4401, 4403, 4404])('does not reconnect after close code %i', async (code) => {
    const { lastStatus, fetchTicket } = setup();
    await settle();
    FakeWebSocket.last().serverClose(code, 'refused');
    expect(lastStatus()).toEqual(['offline', `WebSocket closed: ${code} refused`]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(fetchTicket).toHaveBeenCalledTimes(1);
  });

  it('reports a socket error, then retries on the close that follows', async () => {
    const { lastStatus } = setup();
    await settle();
    FakeWebSocket.last().fail();
    expect(lastStatus()).toEqual(['connecting', 'WebSocket error']);
    FakeWebSocket.last().serverClose(1006);
    expect(lastStatus()).toEqual(['reconnecting', 'WebSocket closed: 1006 ']);
  });

  it('reports "No authentication token found" without a session, and never opens a socket', async () => {
    const { lastStatus } = setup({ fetchTicket: () => Promise.resolve(null) });
    await settle();
    expect(lastStatus()).toEqual(['offline', 'No authentication token found']);
    expect(FakeWebSocket.instances).toHaveLength(0);
  });

  it('retries a failed ticket request, but not a refused session', async () => {
    const fetchTicket = vi
      .fn<(signal: AbortSignal) => Promise<string | null>>()
      .mockRejectedValueOnce(new ApiError(0, 'Network error. Please check your connection.'))
      .mockRejectedValueOnce(new ApiError(401, 'Unauthorized'));
    const { lastStatus } = setup({ fetchTicket });
    await settle();
    expect(lastStatus()).toEqual(['reconnecting', 'Network error. Please check your connection.']);
    await vi.advanceTimersByTimeAsync(1000);
    expect(lastStatus()).toEqual(['offline', 'Unauthorized']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchTicket).toHaveBeenCalledTimes(2);
  });

  it('abandons a connect that is not open after 15 s and retries', async () => {
    const { lastStatus } = setup();
    await settle();
    const first = FakeWebSocket.last();
    await vi.advanceTimersByTimeAsync(14_999);
    expect(first.closedWith).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(first.closedWith).toBe(1000);
    expect(lastStatus()).toEqual(['reconnecting', 'WebSocket error']);
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeWebSocket.instances).toHaveLength(2);
  });

  it('does not time out a socket that opened', async () => {
    setup();
    await settle();
    FakeWebSocket.last().open();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeWebSocket.last().closedWith).toBeUndefined();
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('reconnectNow resets the attempts and reconnects at once', async () => {
    const { socket, lastStatus, fetchTicket } = setup({ maxAttempts: 1 });
    await settle();
    FakeWebSocket.last().serverClose(1006);
    await vi.advanceTimersByTimeAsync(1000);
    FakeWebSocket.last().serverClose(1006);
    expect(lastStatus()?.[0]).toBe('offline');
    socket.reconnectNow();
    await settle();
    expect(fetchTicket).toHaveBeenCalledTimes(3);
    expect(FakeWebSocket.instances).toHaveLength(3);
    // The allowance is whole again: one more retry, after the first delay.
    FakeWebSocket.last().serverClose(1006);
    expect(lastStatus()?.[0]).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeWebSocket.instances).toHaveLength(4);
  });

  it('reconnectNow skips the backoff wait', async () => {
    const { socket } = setup();
    await settle();
    for (let i = 0; i < 4; i++) {
      FakeWebSocket.last().serverClose(1006);
      await vi.runOnlyPendingTimersAsync();
    }
    FakeWebSocket.last().serverClose(1006); // next retry would wait 16 s
    socket.reconnectNow();
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(6);
    FakeWebSocket.last().open();
    // The pending backoff timer was cancelled.
    await vi.advanceTimersByTimeAsync(16_000);
    expect(FakeWebSocket.instances).toHaveLength(6);
  });

  it('reconnectNow leaves an open feed alone', async () => {
    const { socket } = setup();
    await settle();
    FakeWebSocket.last().open();
    socket.reconnectNow();
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(FakeWebSocket.last().closedWith).toBeUndefined();
  });

  it('close() closes normally, reports closed and stops retrying', async () => {
    const { socket, lastStatus, onMessage } = setup();
    await settle();
    const ws = FakeWebSocket.last();
    ws.open();
    socket.close();
    expect(ws.closedWith).toBe(1000);
    expect(lastStatus()).toEqual(['closed', null]);
    ws.receive(snapshot());
    ws.serverClose(1006);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(onMessage).not.toHaveBeenCalled();
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('close() during the ticket request never opens a socket', async () => {
    const { socket } = setup();
    socket.close();
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(0);
  });
});

describe('live messages', () => {
  it('turns NaN into null before validating', () => {
    const text = snapshot().replace('"sl":null', '"sl":NaN').replace('"avgMae":null', '"avgMae": -NaN');
    expect(() => JSON.parse(text) as unknown).toThrow();
    expect(parseLiveMessage(text)?.positions[0]?.sl).toBeNull();
    expect(parseLiveMessage(text)?.positions[0]?.avgMae).toBeNull();
  });

  it('leaves NaN inside strings alone', () => {
    expect(replaceNonFiniteTokens('{"a":"NaN \\" NaN","b":NaN,"c":[Infinity,-Infinity]}')).toBe(
      '{"a":"NaN \\" NaN","b":null,"c":[null,null]}',
    );
  });

  it('ends a string at its closing quote even after an escaped backslash, and keeps clean text as is', () => {
    const text = JSON.stringify({ path: 'C:\\', note: 'Infinity' }).replace('}', ',"x":NaN,"y":"-NaN"}');
    expect(JSON.parse(replaceNonFiniteTokens(text))).toEqual({ path: 'C:\\', note: 'Infinity', x: null, y: '-NaN' });
    const clean = '{"a":1.5,"b":"text"}';
    expect(replaceNonFiniteTokens(clean)).toBe(clean);
  });

  it('accepts a bare array of rows (broker mode) and ignores pongs and malformed messages', () => {
    expect(parseLiveMessage(JSON.stringify([position]))).toEqual({ positions: [position], timestamp: null });
    expect(parseLiveMessage('{"type":"pong"}')).toBeNull();
    expect(parseLiveMessage('{"type":"snapshot"}')).toBeNull();
    expect(parseLiveMessage('not json')).toBeNull();
    expect(parseLiveMessage(snapshot().replace('"profit":50', '"profit":NaN'))).toBeNull();
  });
});

describe('onConnectivityRegained', () => {
  it('fires when the browser is back online or the page becomes visible', () => {
    const callback = vi.fn();
    const stop = onConnectivityRegained(callback);
    window.dispatchEvent(new Event('online'));
    expect(callback).toHaveBeenCalledTimes(1);

    const visibility = vi.spyOn(document, 'visibilityState', 'get');
    visibility.mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(callback).toHaveBeenCalledTimes(1);
    visibility.mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(callback).toHaveBeenCalledTimes(2);

    stop();
    window.dispatchEvent(new Event('online'));
    expect(callback).toHaveBeenCalledTimes(2);
    visibility.mockRestore();
  });
});
