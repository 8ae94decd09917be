import { useEffect, useRef, type KeyboardEvent as ReactKeyboardEvent, type RefObject } from 'react';

/**
 * Open overlays (modals, sheets, dropdowns) in opening order. Only the topmost one reacts to
 * Escape, so Escape in a dropdown inside a modal closes the dropdown and leaves the modal open.
 */
const layers: symbol[] = [];
let scrollLocks = 0;
let savedOverflow = '';

/** Calls `onEscape` when Escape is pressed anywhere while `active` and this layer is the topmost one. */
export function useEscapeLayer(active: boolean, onEscape: () => void): void {
  const latest = useRef(onEscape);
  useEffect(() => {
    latest.current = onEscape;
  });
  useEffect(() => {
    if (!active) return;
    const token = Symbol('layer');
    layers.push(token);
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || layers.at(-1) !== token) return;
      event.preventDefault();
      latest.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      const index = layers.indexOf(token);
      if (index >= 0) layers.splice(index, 1);
    };
  }, [active]);
}

/** Stops the page behind an open modal from scrolling; nested locks are counted. */
export function useScrollLock(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    if (scrollLocks === 0) {
      savedOverflow = document.body.style.overflow;
      document.body.style.overflow = 'hidden';
    }
    scrollLocks += 1;
    return () => {
      scrollLocks -= 1;
      if (scrollLocks === 0) document.body.style.overflow = savedOverflow;
    };
  }, [active]);
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The keyboard-focusable elements inside `root`, in DOM order. */
export function focusableIn(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => !el.hidden);
}

/**
 * While `active`, moves focus into `container` (its `[data-autofocus]` element, else the
 * container itself) and gives it back to the previously focused element afterwards.
 */
export function useFocusInside(active: boolean, container: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (!active) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const root = container.current;
    const target = root?.querySelector<HTMLElement>('[data-autofocus]') ?? root;
    target?.focus({ preventScroll: true });
    return () => {
      if (previous?.isConnected) previous.focus({ preventScroll: true });
    };
  }, [active, container]);
}

/** Keeps Tab and Shift+Tab cycling inside a dialog (a keydown handler for its root). */
export function trapTab(event: ReactKeyboardEvent<HTMLElement>): void {
  if (event.key !== 'Tab') return;
  const items = focusableIn(event.currentTarget);
  const first = items[0];
  const last = items.at(-1);
  if (first === undefined || last === undefined) {
    event.preventDefault();
    return;
  }
  const current = document.activeElement;
  if (event.shiftKey && (current === first || current === event.currentTarget)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && current === last) {
    event.preventDefault();
    first.focus();
  }
}
