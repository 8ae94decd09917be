// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { MotionGlobalConfig } from 'framer-motion';
import type { Position } from '#shared/contract/positions.ts';
import { position } from '#client/live/fake-web-socket.ts';
import { sessionStore } from '#client/auth/session-store.ts';
import { outbox } from '#client/offline/outbox-store.ts';
import { ToastProvider } from '#client/ui/toast.tsx';
import { ClosePositionModal, EditPositionModal, KEPT_FOR_RETRY, tpSlSavedText } from './position-modals.tsx';

const eurgbp: Position = { ...position, u_symbol: 'EURGBP', price_open: 0.8564, price_current: 0.857, sl: 0.8521, tp: 0.8601, currency: 'GBP' };

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return (
    <QueryClientProvider client={client}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  );
}

beforeEach(() => {
  MotionGlobalConfig.skipAnimations = true;
  sessionStore.save({ api_key: 'k', portfolio_auth: ['SMA'], status: 'ok', restrictions: ['write'] });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  outbox.reset();
  sessionStore.clear();
});

describe('Close dialog', () => {
  it('opens with focus on Cancel, not on Confirm close: Enter, Enter closes nothing', async () => {
    const calls: string[] = [];
    vi.stubGlobal('fetch', (url: string) => {
      calls.push(url);
      return new Promise(() => undefined);
    });
    const onDone = vi.fn();
    render(wrap(<ClosePositionModal position={eurgbp} selected={eurgbp} portfolio="SMA" onDone={onDone} />));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' })));
    await userEvent.setup().keyboard('{Enter}');
    expect(onDone).toHaveBeenCalled();
    expect(calls.filter((u) => u.includes('close-by-symbol'))).toEqual([]);
  });
});

describe('Edit TP/SL outcome', () => {
  it('online without an answer: the spec\'s network error, the change kept for a retry, no success tick', async () => {
    vi.stubGlobal('fetch', (url: string) => (url.includes('set-tp-sl') ? Promise.reject(new TypeError('Failed to fetch')) : new Promise(() => undefined)));
    const onDone = vi.fn();
    render(wrap(<EditPositionModal position={eurgbp} selected={eurgbp} portfolio="SMA" onDone={onDone} />));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(`Network error. Please check your connection. ${KEPT_FOR_RETRY}`)).toBeTruthy();
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(document.querySelector('.ui-toast-success')).toBeNull();
    expect(outbox.entries()).toHaveLength(1);
  });

  it('starts from the levels at the instrument\'s digits, and says them so in the success toast', () => {
    render(wrap(<EditPositionModal position={eurgbp} selected={eurgbp} portfolio="SMA" onDone={() => undefined} />));
    expect(screen.getByLabelText('Stop loss (SL)')).toHaveProperty('value', '0.85210');
    expect(tpSlSavedText(eurgbp, 'SMA', { take_profit: 0.8601, stop_loss: 0.8564 })).toBe(
      'Take profit 0.86010 and stop loss 0.85640 set on EURGBP Buy in SMA.',
    );
    expect(tpSlSavedText({ u_symbol: 'USDJPY', type: 'Sell' }, 'SMA', { take_profit: 150.1, stop_loss: 152 })).toBe(
      'Take profit 150.100 and stop loss 152.000 set on USDJPY Sell in SMA.',
    );
  });
});
