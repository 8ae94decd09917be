import { startTransition, useEffect, useState } from 'react';

/**
 * A count that climbs from `from` to `target` by `step`, one transition per task, each started once
 * the previous step is on screen. What the first render shows appears at once; the rest follows in
 * short tasks (React renders a transition in slices and yields to the browser between them, and
 * each commit and layout stays small) instead of one long task that holds a phone's first paint and
 * input back. When `target` grows later, the count climbs again from where it is.
 */
export function useSteppedCount(target: number, step: number, from: number): number {
  const [count, setCount] = useState(from);
  useEffect(() => {
    if (count >= target) return;
    const timer = setTimeout(() => startTransition(() => setCount((n) => Math.min(target, n + step))), 0);
    return () => clearTimeout(timer);
  }, [count, target, step]);
  return Math.min(count, target);
}

/** Mounts a long screen in steps: 0 on the first render, then 1, 2, … up to `steps` (see useSteppedCount). */
export function useStagedMount(steps: number): number {
  return useSteppedCount(steps, 1, 0);
}

/**
 * false, then true once `ms` have passed since the first render: how long a screen waits for a
 * feed's first answer before it draws what lies below it anyway.
 */
export function useElapsed(ms: number): boolean {
  const [elapsed, setElapsed] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setElapsed(true), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return elapsed;
}
