import type { Queryable } from './database.ts';

const DB_CHECK_TIMEOUT_MS = 2_000;

/** Runs SELECT 1; fails after `timeoutMs` (a hung connection must not hang the probe). */
export async function checkDatabase(q: Queryable, timeoutMs = DB_CHECK_TIMEOUT_MS): Promise<{ ok: boolean; message?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to SELECT 1 within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([q.query('SELECT 1'), timeout]);
    return { ok: true };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}
