// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { TOOLTIP_DELAY_MS } from '#shared/domain/constants.ts';
import { Tooltip } from './tooltip.tsx';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function renderTooltip() {
  render(
    <Tooltip description="Entry price of the position" example="1.08350">
      <button type="button">EP</button>
    </Tooltip>,
  );
  return screen.getByRole('button', { name: 'EP' });
}

describe('Tooltip', () => {
  it('appears only after 700 ms of hover and hides when the pointer leaves', () => {
    const button = renderTooltip();
    fireEvent.pointerEnter(button.parentElement as Element, { pointerType: 'mouse' });
    act(() => {
      vi.advanceTimersByTime(TOOLTIP_DELAY_MS - 1);
    });
    expect(screen.queryByRole('tooltip')).toBeNull();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    const tooltip = screen.getByRole('tooltip');
    expect(tooltip.textContent).toContain('Entry price of the position');
    expect(tooltip.textContent).toContain('1.08350');
    expect(button.getAttribute('aria-describedby')).toBe(tooltip.id);

    fireEvent.pointerLeave(button.parentElement as Element, { pointerType: 'mouse' });
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('shows on keyboard focus and hides on Escape', () => {
    const button = renderTooltip();
    act(() => {
      button.focus();
    });
    act(() => {
      vi.advanceTimersByTime(699);
    });
    expect(screen.queryByRole('tooltip')).toBeNull();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByRole('tooltip')).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('never shows when the pointer leaves before the delay', () => {
    const button = renderTooltip();
    fireEvent.pointerEnter(button.parentElement as Element, { pointerType: 'mouse' });
    act(() => {
      vi.advanceTimersByTime(400);
    });
    fireEvent.pointerLeave(button.parentElement as Element, { pointerType: 'mouse' });
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});
