// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket, position } from './fake-web-socket.ts';
import { createElement, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lastLiveUpdate, liveSnapshotKey, retryLiveFeeds, useLivePositions, type KeptSnapshot, type UseLivePositionsOptions } from './use-live-positions.ts';

const socketOptions = {
  fetchTicket: () => Promise.resolve('ticket'),
  WebSocketImpl: FakeWebSocket.asCtor(),
  baseUrl: 'ws://test',
};

const send = (rows = [position]) =>
  act(() => FakeWebSocket.last().receive(JSON.stringify({ type: 'snapshot', timestamp: 1, positionsAggregate: rows })));

const settle = () => act(() => vi.advanceTimersByTimeAsync(0));

function renderFeed(initial: Partial<UseLivePositionsOptions> = {}) {
  const props = {
    path: '/ws/brokers/live-positions-aggregate-by',
    params: { portfolio: 'Global FX', aggregate_by: 'broker', broker_name: 'IBKR' },
    socketOptions,
    ...initial,
  } as UseLivePositionsOptions;
  return renderHook((p: UseLivePositionsOptions) => useLivePositions(p), { initialProps: props });
}

describe('useLivePositions', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeWebSocket.reset();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is null until the first message, then holds the rows', async () => {
    const { result } = renderFeed();
    expect(result.current).toEqual({ positions: null, status: 'connecting', error: null });
    await settle();
    act(() => FakeWebSocket.last().open());
    expect(result.current.status).toBe('live');
    expect(result.current.positions).toBeNull();
    send();
    expect(result.current.positions).toEqual([position]);
  });

  it('drops the rows and opens a new feed when the params change', async () => {
    const { result, rerender } = renderFeed();
    await settle();
    act(() => FakeWebSocket.last().open());
    send();
    const first = FakeWebSocket.last();
    rerender({
      path: '/ws/brokers/live-positions-aggregate-by',
      params: { portfolio: 'Global FX', aggregate_by: 'broker', broker_name: 'Exante' },
      socketOptions,
    });
    expect(result.current.positions).toBeNull();
    expect(first.closedWith).toBe(1000);
    await settle();
    expect(FakeWebSocket.last().url.searchParams.get('broker_name')).toBe('Exante');
  });

  it('keeps the feed when only the params object identity or key order changes', async () => {
    const { rerender } = renderFeed();
    await settle();
    rerender({
      path: '/ws/brokers/live-positions-aggregate-by',
      params: { broker_name: 'IBKR', aggregate_by: 'broker', portfolio: 'Global FX' },
      socketOptions,
    });
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('opens nothing while disabled and closes on unmount', async () => {
    const { result, rerender, unmount } = renderFeed({ enabled: false });
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(0);
    expect(result.current.status).toBe('closed');
    rerender({
      path: '/ws/brokers/live-positions-aggregate',
      params: { portfolio: 'Global FX' },
      socketOptions,
      enabled: true,
    });
    await settle();
    const ws = FakeWebSocket.last();
    unmount();
    expect(ws.closedWith).toBe(1000);
  });

  it('reconnects at once when the browser comes back online', async () => {
    const { result } = renderFeed();
    await settle();
    act(() => FakeWebSocket.last().serverClose(1006, 'lost'));
    expect(result.current).toEqual({ positions: null, status: 'reconnecting', error: 'WebSocket closed: 1006 lost' });
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(2);
  });
});

describe('retryLiveFeeds and lastLiveUpdate', () => {
  beforeEach(() => {
    // Feeds of earlier tests would count too: unmount them.
    cleanup();
    vi.useFakeTimers();
    FakeWebSocket.reset();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reconnects a dropped feed at once, without waiting out the backoff', async () => {
    renderFeed();
    await settle();
    act(() => FakeWebSocket.last().open());
    send();
    act(() => FakeWebSocket.last().serverClose(4000, 'Server restarting'));
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(1);
    act(() => retryLiveFeeds());
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(2);
  });

  it('tells when the rows of the dropped feed arrived', async () => {
    vi.setSystemTime(50_000);
    const { unmount } = renderFeed();
    await settle();
    expect(lastLiveUpdate()).toBeNull();
    act(() => FakeWebSocket.last().open());
    send();
    vi.setSystemTime(62_000);
    act(() => FakeWebSocket.last().serverClose(4000, 'Server restarting'));
    expect(lastLiveUpdate()).toBe(50_000);
    unmount();
    expect(lastLiveUpdate()).toBeNull();
  });

  it("keeps the feed's last snapshot in the query cache and shows it, with its time, before the next visit's first message", async () => {
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client }, children);
    const props: UseLivePositionsOptions = { path: '/ws/brokers/live-positions-aggregate-by', params: { portfolio: 'SMA', aggregate_by: 'account' }, socketOptions };
    const first = renderHook((p: UseLivePositionsOptions) => useLivePositions(p), { initialProps: props, wrapper });
    await settle();
    act(() => FakeWebSocket.last().open());
    send();
    const key = liveSnapshotKey(JSON.stringify([props.path, [['aggregate_by', 'account'], ['portfolio', 'SMA']]]));
    const kept = client.getQueryData<KeptSnapshot>(key);
    expect(kept?.positions).toEqual([position]);
    first.unmount();

    const second = renderHook((p: UseLivePositionsOptions) => useLivePositions(p), { initialProps: props, wrapper });
    expect(second.result.current.positions).toEqual([position]);
    expect(second.result.current.keptAt).toBe(kept?.at);
    await settle();
    act(() => FakeWebSocket.last().open());
    send([]);
    expect(second.result.current.positions).toEqual([]);
    expect(second.result.current.keptAt).toBeUndefined();
    second.unmount();
  });
});

