import { useEffect, useRef } from 'react';
import { useRouterState } from '@tanstack/react-router';
import './skip-link.css';

/** The first thing a keyboard reaches: straight to the screen, past the bar's links and menus. */
export function SkipLink() {
  return (
    <a className="skip-link" href="#main">
      Skip to content
    </a>
  );
}

/** How long after a navigation focus is kept on the new screen's heading while the screen draws. */
const HEADING_WAIT_MS = 2_000;

/** The screen's heading: where focus goes after a navigation. */
function target(): HTMLElement | null {
  return document.querySelector<HTMLElement>('#main h1');
}

/**
 * After a navigation (a menu link, the brand, Back), focus moves to the new screen's heading, so a
 * keyboard or screen-reader user starts there instead of on <body>; the first screen is left alone.
 * The old screen's heading may still be there for a frame, and a lazy screen draws its own a moment
 * later: for a short while, focus that lands on <body> (its heading replaced) goes to the heading
 * now on screen, until the user moves it elsewhere.
 */
export function FocusOnNavigation() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    let stopped = false;
    let focused: HTMLElement | null = null;
    const started = performance.now();
    const attempt = () => {
      if (stopped) return;
      const active = document.activeElement;
      // The user went somewhere else: leave focus there.
      if (focused !== null && active !== focused && active !== null && active !== document.body) return;
      const heading = target();
      if (heading && heading !== active) {
        if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
        heading.focus();
        focused = heading;
      }
      if (performance.now() - started < HEADING_WAIT_MS) requestAnimationFrame(attempt);
    };
    requestAnimationFrame(attempt);
    return () => {
      stopped = true;
    };
  }, [pathname]);
  return null;
}
