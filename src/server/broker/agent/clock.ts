/** How long a command may wait for its agent, and be run by its terminal: past it, it is never run. */
export const COMMAND_TTL_MS = 30_000;

/**
 * An agent's clock as its status shows it, from its last batch (server clock − agent clock, seconds):
 * 'ok' within 2 s, else how far ahead or behind, FLAGGED once it is far enough ahead for its terminal
 * to take the server's orders as expired (a third of their life: a copy order would expire in transit).
 */
export function clockStatus(skewS: number | null, ttlMs = COMMAND_TTL_MS): string {
  if (skewS === null) return '-';
  const off = Math.round(Math.abs(skewS));
  if (off <= 2) return 'ok';
  const ahead = skewS < 0;
  const text = `${off} s ${ahead ? 'ahead' : 'behind'}`;
  return ahead && off >= ttlMs / 3000 ? `${text} (FLAGGED: orders, valid ${ttlMs / 1000} s, expire before its terminal runs them)` : text;
}
