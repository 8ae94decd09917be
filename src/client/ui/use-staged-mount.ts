import { startTransition, useEffect, useState } from 'react';

/**
 * Mounts a long screen in steps: 0 on the first render, then 1, 2, … up to `steps`, each step a
 * transition started once the previous one is on screen. The first step shows what is at the top
 * at once; the panels below follow in their own short tasks (React renders a transition in slices
 * and yields to the browser between them) instead of one long task that holds the phone's first
 * paint and input back.
 */
export function useStagedMount(steps: number): number {
  const [stage, setStage] = useState(0);
  useEffect(() => {
    if (stage >= steps) return;
    const timer = setTimeout(() => startTransition(() => setStage((s) => Math.min(steps, s + 1))), 0);
    return () => clearTimeout(timer);
  }, [stage, steps]);
  return stage;
}
