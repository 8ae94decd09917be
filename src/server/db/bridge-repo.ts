import type { Queryable } from './database.ts';

export interface BridgeState {
  running: boolean;
  changedAt: Date;
}

export async function readBridgeState(q: Queryable): Promise<BridgeState> {
  const rows = await q.query<{ running: boolean; changed_at: Date }>('SELECT running, changed_at FROM bridge_state WHERE id = 1');
  const row = rows[0];
  // A database that never had the bridge switched starts with it on.
  return row ? { running: row.running, changedAt: row.changed_at } : { running: true, changedAt: new Date(0) };
}

/**
 * Switches the bridge at `at`, holding its row locked to the end of the caller's transaction (two
 * switches at once: the second sees the first's state). Returns false when it already was so.
 */
export async function switchBridge(tx: Queryable, running: boolean, at: Date): Promise<boolean> {
  const before = await tx.query<{ running: boolean }>('SELECT running FROM bridge_state WHERE id = 1 FOR UPDATE');
  if (before[0]?.running === running) return false;
  await tx.query(
    `INSERT INTO bridge_state (id, running, changed_at) VALUES (1, $1, $2)
     ON CONFLICT (id) DO UPDATE SET running = EXCLUDED.running, changed_at = EXCLUDED.changed_at`,
    [running, at],
  );
  return true;
}

/** Records the bridge's first state (`at` in epoch seconds); a state already recorded is kept. */
export async function initBridgeState(q: Queryable, running: boolean, at: number): Promise<void> {
  await q.query('INSERT INTO bridge_state (id, running, changed_at) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING', [
    running,
    new Date(at * 1000),
  ]);
}
