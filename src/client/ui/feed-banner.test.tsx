// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { FeedBanner, formatUpdateAge } from './feed-banner.tsx';

afterEach(cleanup);

describe('formatUpdateAge', () => {
  it('reads in seconds under a minute, then minutes, then hours', () => {
    expect(formatUpdateAge(12.7)).toBe('Last update 12 s ago');
    expect(formatUpdateAge(0)).toBe('Last update 0 s ago');
    expect(formatUpdateAge(-0.4)).toBe('Last update 0 s ago');
    expect(formatUpdateAge(59.9)).toBe('Last update 59 s ago');
    expect(formatUpdateAge(60)).toBe('Last update 1 min ago');
    expect(formatUpdateAge(3599)).toBe('Last update 59 min ago');
    expect(formatUpdateAge(7200)).toBe('Last update 2 h ago');
    expect(formatUpdateAge(null)).toBe('No update received yet');
  });
});

describe('FeedBanner', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows the spec message and the age of the last rows, ticking every second', () => {
    let now = 100_000;
    render(<FeedBanner message="WebSocket closed: 4000 Server restarting" lastUpdate={() => 88_000} onRetry={() => undefined} now={() => now} />);
    expect(screen.getByRole('status').textContent).toBe('WebSocket closed: 4000 Server restarting');
    expect(screen.getByTestId('feed-age').textContent).toBe('Last update 12 s ago');
    act(() => {
      now += 1000;
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getByTestId('feed-age').textContent).toBe('Last update 13 s ago');
  });

  it('says so when no rows ever came', () => {
    render(<FeedBanner message="WebSocket error" lastUpdate={() => null} onRetry={() => undefined} />);
    expect(screen.getByTestId('feed-age').textContent).toBe('No update received yet');
  });

  it('retries on demand', () => {
    const onRetry = vi.fn();
    render(<FeedBanner message="WebSocket error" lastUpdate={() => null} onRetry={onRetry} />);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});
