import type { Queryable } from './database.ts';

/** A broker connection's own state between runs (the simulator's prices and random state), by key. */
export async function readMarketState<T>(q: Queryable, key: string): Promise<T | undefined> {
  const rows = await q.query<{ value: T }>('SELECT value FROM market_state WHERE key = $1', [key]);
  return rows[0]?.value;
}

export async function writeMarketState(q: Queryable, key: string, value: unknown): Promise<void> {
  await q.query(
    'INSERT INTO market_state (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
    [key, JSON.stringify(value)],
  );
}

/** Serialises first starts of several processes on one database (held to the transaction's end). */
export async function lockFirstStart(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(724302)');
}
