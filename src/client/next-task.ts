/** Resolves in a later task, after the browser has had its turn (input, rendering, network). */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
