import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BridgeStatusResponse } from '#shared/contract/bridge.ts';
import { ErrorResponse, MessageResponse } from '#shared/contract/common.ts';
import { callerOf, requirePermission } from '#server/auth/guard.ts';
import { audit } from '#server/audit.ts';
import type { Database } from '#server/db/database.ts';

export interface BridgeState {
  running: boolean;
  changedAt: Date;
}

export async function readBridgeState(db: Database): Promise<BridgeState> {
  const rows = await db.query<{ running: boolean; changed_at: Date }>(
    'SELECT running, changed_at FROM bridge_state WHERE id = 1',
  );
  const row = rows[0];
  // A database that never had the bridge switched starts with it on.
  return row ? { running: row.running, changedAt: row.changed_at } : { running: true, changedAt: new Date(0) };
}

/** Switches the bridge, records an alert and an audit row in one transaction. Returns false when already so. */
export async function setBridgeState(db: Database, running: boolean, userId: number, username: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const before = await tx.query<{ running: boolean }>('SELECT running FROM bridge_state WHERE id = 1 FOR UPDATE');
    if (before[0]?.running === running) return false;
    await tx.query(
      `INSERT INTO bridge_state (id, running, changed_at) VALUES (1, $1, $2)
       ON CONFLICT (id) DO UPDATE SET running = EXCLUDED.running, changed_at = EXCLUDED.changed_at`,
      [running, now],
    );
    await tx.query('INSERT INTO alerts (type, message, datetime) VALUES ($1, $2, $3)', [
      'bridge',
      running ? `Data bridge started by ${username}: copying resumed.` : `Data bridge stopped by ${username}: copying paused.`,
      now,
    ]);
    await audit(tx, userId, running ? 'bridge.start' : 'bridge.stop', {});
    return true;
  });
}

export const bridgeRoutes: FastifyPluginAsyncZod<{ db: Database; onChange?: (running: boolean) => void }> = async (
  app,
  { db, onChange },
) => {
  const errors = { 401: ErrorResponse, 403: ErrorResponse };

  app.get('/api/bridge/status', { schema: { response: { 200: BridgeStatusResponse, ...errors } } }, async () => {
    const state = await readBridgeState(db);
    return { data: { running: state.running, changed_at: Math.floor(state.changedAt.getTime() / 1000) } };
  });

  for (const [path, running] of [
    ['/api/bridge/start', true],
    ['/api/bridge/stop', false],
  ] as const) {
    app.post(
      path,
      { preHandler: requirePermission('write'), schema: { response: { 200: MessageResponse, ...errors } } },
      async (request) => {
        const user = callerOf(request);
        const changed = await setBridgeState(db, running, user.id, user.username);
        if (changed) onChange?.(running);
        const state = running ? 'started' : 'stopped';
        return { message: changed ? `Bridge ${state}.` : `Bridge already ${state}.` };
      },
    );
  }
};
