import { randomUUID } from 'node:crypto';
import type { CopyEngine } from '#server/copy/copy-engine.ts';
import { audit } from '#server/db/audit-repo.ts';
import { isDatabaseUnavailable } from '#server/db/database.ts';
import { queryableOf } from '#server/db/write-context.ts';
import type { WriteContext } from '#server/broker/port.ts';
import {
  BrokerError,
  brokerErrorFromWire,
  brokerErrorToWire,
  LeaderDatabaseUnavailable,
  LeaderFailed,
  NoLeader,
  OutcomeUnknown,
  ShuttingDown,
  type BrokerErrorWire,
} from '#server/broker/errors.ts';
import type { Bus } from './bus.ts';
import { channels, type OrderReply } from './channels.ts';
import type { ClusterMarket } from './cluster-market.ts';

/** The audit row written in the order's own transaction, on whichever instance carries it out. */
export interface AuditEntry {
  userId: number;
  action: string;
  details: Record<string, unknown>;
}

type Request =
  | { op: 'close'; ids: number[]; audit: AuditEntry }
  | { op: 'modifyStops'; ids: number[]; tp: number | null; sl: number | null; audit: AuditEntry }
  | { op: 'reloadRules' }
  | { op: 'setCopying'; running: boolean };

/** The leader's answer (its wire form: channels.ts's OrderReply). */
type Reply = OrderReply & { error?: BrokerErrorWire };

const REQUESTS = channels.ordersRequest;
const REPLIES = channels.ordersReply;
/** A leader silent this long is taken for gone: orders answer 503 at once rather than wait. */
const LEADER_SILENT_MS = 5_000;

/**
 * What the routes ask of the copy engine (closes and TP/SL edits carried to the copies, the rules,
 * the bridge), wherever it runs: in this process when it leads, else sent over the bus to the
 * leader, whose answer (or refusal, with its status and message) comes back the same way.
 */
export class ClusterOrders {
  private readonly pending = new Map<string, { resolve: (r: Reply) => void; timer: NodeJS.Timeout }>();

  constructor(
    private readonly copier: CopyEngine,
    private readonly market: ClusterMarket,
    private readonly bus: Bus,
    /** How long a follower waits for the leader's answer (longer than the leader waits for a terminal). */
    private readonly replyTimeoutMs: number,
  ) {
    bus.subscribe(REQUESTS, async (envelope) => {
      if (!this.market.isLeader || envelope.from === this.bus.id) return;
      const reply: Reply = { id: envelope.id, to: envelope.from, ok: true };
      try {
        reply.value = await this.run(envelope.request);
      } catch (err) {
        reply.ok = false;
        const known = err instanceof BrokerError ? err : isDatabaseUnavailable(err) ? new LeaderDatabaseUnavailable() : new LeaderFailed();
        reply.error = brokerErrorToWire(known);
      }
      await this.bus.publish(REPLIES, reply, { remoteOnly: true });
    });
    bus.subscribe(REPLIES, (reply) => {
      if (reply.to !== this.bus.id) return;
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      clearTimeout(waiting.timer);
      this.pending.delete(reply.id);
      waiting.resolve(reply);
    });
  }

  close(ids: readonly number[], entry: AuditEntry): Promise<number> {
    return this.send({ op: 'close', ids: [...ids], audit: entry });
  }

  modifyStops(ids: readonly number[], tp: number | null, sl: number | null, entry: AuditEntry): Promise<number> {
    return this.send({ op: 'modifyStops', ids: [...ids], tp, sl, audit: entry });
  }

  async reloadRules(): Promise<void> {
    await this.send({ op: 'reloadRules' });
  }

  async setCopying(running: boolean): Promise<void> {
    await this.send({ op: 'setCopying', running });
  }

  private async run(request: Request): Promise<number> {
    const inTx = (entry: AuditEntry) => (ctx: WriteContext) => audit(queryableOf(ctx), entry.userId, entry.action, entry.details);
    switch (request.op) {
      case 'close':
        return this.copier.close(request.ids, inTx(request.audit));
      case 'modifyStops':
        return this.copier.modifyStops(request.ids, request.tp, request.sl, inTx(request.audit));
      case 'reloadRules':
        await this.copier.reloadRules();
        return 0;
      case 'setCopying':
        this.copier.setCopying(request.running);
        return 0;
    }
  }

  private async send(request: Request): Promise<number> {
    // One instance alone (or the leader) carries it out itself; a paused market refuses (MarketPaused).
    if (this.market.isLeader || !this.bus.shared) return this.run(request);
    if (this.market.silenceMs > LEADER_SILENT_MS) {
      throw new NoLeader();
    }
    const id = randomUUID();
    const reply = await new Promise<Reply>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        const late = new OutcomeUnknown('The instance that runs the market has not answered in time: the outcome is unknown. The order will not be sent again.');
        resolve({ id, to: '', ok: false, error: brokerErrorToWire(late) });
      }, this.replyTimeoutMs);
      this.pending.set(id, { resolve, timer });
      this.bus.publish(REQUESTS, { id, from: this.bus.id, request }, { remoteOnly: true }).catch(() => undefined);
    });
    if (!reply.ok) throw brokerErrorFromWire(reply.error ?? { message: 'The order failed.' });
    return reply.value ?? 0;
  }

  /** Stops waiting for answers (the server closes). */
  dispose(): void {
    for (const [id, { timer, resolve }] of this.pending) {
      clearTimeout(timer);
      resolve({ id, to: '', ok: false, error: brokerErrorToWire(new ShuttingDown()) });
    }
    this.pending.clear();
  }
}
