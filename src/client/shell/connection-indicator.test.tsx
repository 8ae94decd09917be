// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { registerFeed } from '#client/live/connection-registry.ts';
import { ConnectionIndicator } from './connection-indicator.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the connection indicator', () => {
  it('says since when the live data is stale, and drops it once live again', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T14:07:05Z'));
    const feed = registerFeed();
    act(() => feed.report('live'));
    render(<ConnectionIndicator />);
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('Live');
    vi.setSystemTime(new Date('2026-11-26T14:07:09Z'));
    act(() => feed.report('reconnecting'));
    // The clock is the user's; the test runs in UTC.
    expect(status.textContent).toBe('Reconnecting… since 14:07:09');
    expect(status.getAttribute('title')).toBe('Live feed reconnecting since 14:07:09');
    vi.setSystemTime(new Date('2026-11-26T14:07:30Z'));
    act(() => feed.report('offline'));
    expect(status.textContent).toBe('Offline since 14:07:09');
    act(() => feed.report('live'));
    expect(status.textContent).toBe('Live');
    act(() => feed.unregister());
  });
});

// The Summary's bridge line, while the connection is lost.
describe('the bridge line without a connection', () => {
  it('says the connection is lost and when its figures are from, instead of a green all-clear', async () => {
    const { BridgeHealthLine } = await import('#client/features/summary/components/bridge-health-line.tsx');
    const { copyQueries } = await import('#client/api/queries/copy.ts');
    const { RouterProvider, createRouter, createRootRoute, createMemoryHistory } = await import('@tanstack/react-router');
    // No server here: a refetch waits for ever instead of failing.
    vi.stubGlobal('fetch', () => new Promise(() => undefined));
    const client = new QueryClient();
    const savedAt = Date.UTC(2026, 10, 26, 14, 5, 0);
    client.setQueryData(copyQueries.health('Global FX').queryKey, [
      { account_id: 'a', account_name: 'Follower 1', state: 'live', command_success_pct: null },
    ] as never, { updatedAt: savedAt });
    const feed = registerFeed();
    act(() => feed.report('live'));
    const router = createRouter({
      routeTree: createRootRoute({ component: () => <BridgeHealthLine portfolio="Global FX" /> }),
      history: createMemoryHistory(),
    });
    render(
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    const line = await screen.findByLabelText('Bridge health');
    expect(line.textContent).toContain('Bridge: all 1 accounts up to date');
    expect(line.className).toContain('health-live');
    act(() => feed.report('reconnecting'));
    expect(line.textContent).toContain('Connection lost · as of 14:05:00: Bridge: all 1 accounts up to date');
    expect(line.className).toContain('health-stale');
    act(() => feed.unregister());
  });
});
