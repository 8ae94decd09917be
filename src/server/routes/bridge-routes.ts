import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '#shared/contract/endpoints.ts';
import { ErrorResponse } from '#shared/contract/common.ts';
import { callerOf, requirePermission } from '#server/auth/guard.ts';
import { insertAlerts } from '#server/db/alerts-repo.ts';
import { audit } from '#server/db/audit-repo.ts';
import { readBridgeState, switchBridge } from '#server/db/bridge-repo.ts';
import type { Database } from '#server/db/database.ts';

/** Switches the bridge, records an alert and an audit row in one transaction. Returns false when already so. */
export async function setBridgeState(db: Database, running: boolean, userId: number, username: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const now = new Date();
    if (!(await switchBridge(tx, running, now))) return false;
    await insertAlerts(tx, [
      {
        type: 'bridge',
        message: running ? `Data bridge started by ${username}: copying resumed.` : `Data bridge stopped by ${username}: copying paused.`,
        at: now.getTime() / 1000,
        accountId: null,
      },
    ]);
    await audit(tx, userId, running ? 'bridge.start' : 'bridge.stop', {});
    return true;
  });
}

export const bridgeRoutes: FastifyPluginAsyncZod<{ db: Database; onChange?: (running: boolean) => Promise<void> }> = async (
  app,
  { db, onChange },
) => {
  const errors = { 401: ErrorResponse, 403: ErrorResponse };

  app.get(endpoints.bridgeStatus.path, { schema: { response: { 200: endpoints.bridgeStatus.response, ...errors } } }, async () => {
    const state = await readBridgeState(db);
    return { data: { running: state.running, changed_at: Math.floor(state.changedAt.getTime() / 1000) } };
  });

  for (const [endpoint, running] of [
    [endpoints.bridgeStart, true],
    [endpoints.bridgeStop, false],
  ] as const) {
    app.post(
      endpoint.path,
      { preValidation: requirePermission('write'), schema: { response: { 200: endpoint.response, ...errors } } },
      async (request) => {
        const user = callerOf(request);
        const changed = await setBridgeState(db, running, user.id, user.username);
        if (changed) await onChange?.(running);
        const state = running ? 'started' : 'stopped';
        return { message: changed ? `Bridge ${state}.` : `Bridge already ${state}.` };
      },
    );
  }
};
