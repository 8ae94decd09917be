// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket, position } from './fake-web-socket.ts';
import { createLiveSocket, WS_SILENT, type LiveSocketOptions, type LiveStatus } from './live-socket.ts';
import {
  createProbeLoop,
  noteServerReached,
  noteServerUnreachable,
  onServerRegained,
  PROBE_FAST_FOR_MS,
  PROBE_FAST_MS,
  PROBE_SLOW_MS,
} from './reachability.ts';

// How a dropped feed comes back on a flaky network: a socket that went silent is replaced, and the
// server answering again after being unreachable cuts the backoff short.

const snapshot = JSON.stringify({ type: 'snapshot', timestamp: 1, positionsAggregate: [position] });

function setup(overrides: Partial<LiveSocketOptions> = {}) {
  const statuses: [LiveStatus, string | null, boolean][] = [];
  let tickets = 0;
  const socket = createLiveSocket({
    path: '/ws/brokers/live-positions-aggregate',
    params: { portfolio: 'Global FX' },
    maxAttempts: 10,
    onMessage: () => undefined,
    onStatus: (status, error, waiting) => statuses.push([status, error, waiting]),
    fetchTicket: () => Promise.resolve(`t${++tickets}`),
    WebSocketImpl: FakeWebSocket.asCtor(),
    baseUrl: 'ws://test',
    heartbeat: { idleMs: 10_000, timeoutMs: 5_000 },
    ...overrides,
  });
  return { socket, statuses, last: () => statuses.at(-1) };
}

const settle = () => vi.advanceTimersByTimeAsync(0);

describe('a feed on a flaky network', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeWebSocket.reset();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('pings an open feed after 10 s of silence and keeps it while it answers', async () => {
    const { last } = setup();
    await settle();
    const ws = FakeWebSocket.last();
    ws.open();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(ws.sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(ws.sent).toEqual(['{"type":"ping"}']);
    await vi.advanceTimersByTimeAsync(4_000);
    ws.receive('{"type":"pong"}');
    await vi.advanceTimersByTimeAsync(6_000);
    expect(last()?.[0]).toBe('live');
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('replaces an open feed that answers nothing, not even its ping, within 15 s', async () => {
    const { last } = setup();
    await settle();
    FakeWebSocket.last().open();
    FakeWebSocket.last().receive(snapshot);
    await vi.advanceTimersByTimeAsync(14_999);
    expect(last()?.[0]).toBe('live');
    await vi.advanceTimersByTimeAsync(1);
    expect(last()).toEqual(['reconnecting', WS_SILENT, true]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(FakeWebSocket.instances).toHaveLength(2);
  });

  it('cuts the backoff short when told the server is reached, dropping a connect begun while it was not', async () => {
    const { socket } = setup();
    await settle();
    FakeWebSocket.last().open();
    // Four drops: the next retry would wait 16 s.
    for (const wait of [1_000, 2_000, 4_000, 8_000]) {
      FakeWebSocket.last().serverClose(1006);
      await vi.advanceTimersByTimeAsync(wait);
    }
    expect(FakeWebSocket.instances).toHaveLength(5);
    const opening = FakeWebSocket.last();
    // Without abandonPending an opening socket is left alone.
    socket.reconnectNow();
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(5);
    socket.reconnectNow({ abandonPending: true });
    await settle();
    expect(opening.closedWith).toBe(1000);
    expect(FakeWebSocket.instances).toHaveLength(6);
    FakeWebSocket.last().open();
    // An open socket is never dropped by it.
    socket.reconnectNow({ abandonPending: true });
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(6);
  });

  it('says a feed refused for good is not waiting for the network', async () => {
    const { last } = setup();
    await settle();
    FakeWebSocket.last().serverClose(4403, 'Portfolio not authorised');
    expect(last()).toEqual(['offline', 'WebSocket closed: 4403 Portfolio not authorised', false]);
  });
});

describe('the server regained', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is announced only after the server was unreachable, once per outage', () => {
    const heard = vi.fn();
    const stop = onServerRegained(heard);
    noteServerReached();
    expect(heard).not.toHaveBeenCalled();
    noteServerUnreachable();
    noteServerUnreachable();
    noteServerReached();
    noteServerReached();
    expect(heard).toHaveBeenCalledTimes(1);
    stop();
  });

  it('is probed every second while a feed is down, every 5 s after a minute, and not at all once none is', async () => {
    let down = true;
    let answers = false;
    const probe = vi.fn(() => Promise.resolve(answers));
    const heard = vi.fn();
    const stop = onServerRegained(heard);
    const loop = createProbeLoop(() => down, probe);
    loop.wake();
    loop.wake();
    await vi.advanceTimersByTimeAsync(PROBE_FAST_MS * 3);
    expect(probe).toHaveBeenCalledTimes(3);
    answers = true;
    await vi.advanceTimersByTimeAsync(PROBE_FAST_MS);
    expect(heard).toHaveBeenCalledTimes(1);
    answers = false;
    await vi.advanceTimersByTimeAsync(PROBE_FAST_FOR_MS);
    const atSlowPace = probe.mock.calls.length;
    await vi.advanceTimersByTimeAsync(PROBE_SLOW_MS);
    expect(probe.mock.calls.length).toBe(atSlowPace + 1);
    down = false;
    await vi.advanceTimersByTimeAsync(PROBE_SLOW_MS * 4);
    expect(probe.mock.calls.length).toBe(atSlowPace + 1);
    loop.stop();
    stop();
  });
});
