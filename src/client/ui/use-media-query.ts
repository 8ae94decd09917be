import { useCallback, useSyncExternalStore } from 'react';

/** Width from which phones' bottom sheets and cards give way to panels and tables. */
export const WIDE_QUERY = '(min-width: 900px)';

function canMatch(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function';
}

/** Whether a CSS media query matches, kept in sync with the viewport; false where matchMedia is missing. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!canMatch()) return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  const getSnapshot = () => canMatch() && window.matchMedia(query).matches;
  return useSyncExternalStore(subscribe, getSnapshot, () => false);
}

/** True on screens at least 900 px wide. */
export function useIsWide(): boolean {
  return useMediaQuery(WIDE_QUERY);
}
