// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { TOAST_MS } from '#shared/domain/constants.ts';
import { ToastProvider, useToast } from './toast.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function SaveButton() {
  const toast = useToast();
  return (
    <>
      <button type="button" onClick={() => toast.show('Position updated', 'success')}>
        Save
      </button>
      <button type="button" onClick={() => toast.show('Close failed', 'error')}>
        Fail
      </button>
    </>
  );
}

describe('Toast', () => {
  it('shows a message that disappears after 5 s', () => {
    vi.useFakeTimers();
    render(
      <ToastProvider>
        <SaveButton />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('status').textContent).toContain('Position updated');
    act(() => {
      vi.advanceTimersByTime(TOAST_MS - 1);
    });
    expect(screen.queryByRole('status')).not.toBeNull();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('marks errors and can be dismissed early', () => {
    render(
      <ToastProvider>
        <SaveButton />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Fail' }));
    const toast = screen.getByRole('status');
    expect(toast.textContent).toContain('Close failed');
    expect(toast.getAttribute('aria-live')).toBe('assertive');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('refuses to work outside a provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<SaveButton />)).toThrow(/ToastProvider/);
  });
});
