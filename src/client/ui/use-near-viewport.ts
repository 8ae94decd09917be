import { useInView } from 'react-intersection-observer';

/**
 * Whether an element has come near the viewport (within `margin` above or below it, a CSS length
 * or percentage of the viewport's height) at least once: a panel far below the fold draws or
 * fetches its content only then. Where IntersectionObserver is missing, it counts as near.
 */
export function useNearViewport(margin: string): { ref: (node?: Element | null) => void; near: boolean } {
  const { ref, inView } = useInView({ rootMargin: `${margin} 0px`, triggerOnce: true, fallbackInView: true });
  return { ref, near: inView };
}
