// @vitest-environment happy-dom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MotionGlobalConfig } from 'framer-motion';
import { BottomSheet, shouldCloseSheet } from './bottom-sheet.tsx';

beforeAll(() => {
  MotionGlobalConfig.skipAnimations = true;
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function useViewport(wide: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: wide,
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      }) as unknown as MediaQueryList,
  );
}

function Notifications() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Notifications
      </button>
      <BottomSheet open={open} onClose={() => setOpen(false)} title="Alerts">
        <p>No notifications available</p>
      </BottomSheet>
    </>
  );
}

describe('BottomSheet', () => {
  it.each([
    ['a phone', false, 'ui-sheet'],
    ['a wide screen', true, 'ui-side-panel'],
  ])('on %s opens as a dialog and closes on Escape', async (_name, wide, className) => {
    useViewport(wide);
    const user = userEvent.setup();
    render(<Notifications />);
    await user.click(screen.getByRole('button', { name: 'Notifications' }));
    const dialog = screen.getByRole('dialog', { name: 'Alerts' });
    expect(dialog.classList.contains(className)).toBe(true);
    expect(dialog.textContent).toContain('No notifications available');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('closes when dragged down far or flicked fast, not on a small drag', () => {
    expect(shouldCloseSheet({ offset: { x: 0, y: 140 }, velocity: { x: 0, y: 0 } })).toBe(true);
    expect(shouldCloseSheet({ offset: { x: 0, y: 30 }, velocity: { x: 0, y: 900 } })).toBe(true);
    expect(shouldCloseSheet({ offset: { x: 0, y: 40 }, velocity: { x: 0, y: 100 } })).toBe(false);
  });
});
