import type { SessionUser } from '#server/auth/auth-store.ts';
import { insertAlerts } from '#server/db/alerts-repo.ts';
import { audit } from '#server/db/audit-repo.ts';
import { readBridgeState, switchBridge, type BridgeState } from '#server/db/bridge-repo.ts';
import type { Database } from '#server/db/database.ts';
import type { Changes } from '#server/scale/changes.ts';
import type { CopyOrders } from '#server/copy/orders.ts';

/** Switches the bridge, records an alert and an audit row in one transaction. Returns false when already so. */
async function setBridgeState(db: Database, running: boolean, userId: number, username: string): Promise<boolean> {
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

export interface BridgeDeps {
  db: Database;
  /** The generation of cached answers: the bridge's alert is in the alerts' answers. */
  changes: Changes;
  /** Where copying runs (the leader, told through the bus): a switch is answered once it applied it. */
  copying: Pick<CopyOrders, 'change'>;
}

/** The data bridge (docs/copying.md): on, copying to the followers; off, paused. */
export class BridgeService {
  constructor(private readonly deps: BridgeDeps) {}

  async status(): Promise<BridgeState> {
    return readBridgeState(this.deps.db);
  }

  /**
   * Starts or stops the bridge as this user; false when it already was so. Answered once the
   * instance that copies has applied it (NoLeader before anything is written when it is out of
   * reach; LeaderUnconfirmed when it was written but not confirmed), a repeated request included.
   */
  async switch(user: SessionUser, running: boolean): Promise<boolean> {
    const { db, changes, copying } = this.deps;
    return copying.change(
      running ? 'The bridge start' : 'The bridge stop',
      async () => {
        const changed = await setBridgeState(db, running, user.id, user.username);
        // The bridge's alert is in the alerts' cached answers.
        if (changed) changes.bump();
        return changed;
      },
      'bridge',
    );
  }
}
