import { randomUUID } from 'node:crypto';
import type { CopyEngine } from '#server/copy/copy-engine.ts';
import type { AuditEntry, CopyOrders } from '#server/copy/orders.ts';
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
  LeaderUnconfirmed,
  MarketPaused,
  NoLeader,
  OutcomeUnknown,
  ShuttingDown,
  type BrokerErrorWire,
} from '#server/broker/errors.ts';
import type { Bus } from './bus.ts';
import { channels, type OrderReply } from './channels.ts';
import type { ClusterMarket } from './cluster-market.ts';

type Request =
  | { op: 'close'; ids: number[]; audit: AuditEntry }
  | { op: 'modifyStops'; ids: number[]; tp: number | null; sl: number | null; audit: AuditEntry }
  | { op: 'reloadRules' }
  | { op: 'syncBridge' }
  | { op: 'ping' };

/** The leader's answer (its wire form: channels.ts's OrderReply). */
type Reply = OrderReply & { error?: BrokerErrorWire };

const REQUESTS = channels.ordersRequest;
const REPLIES = channels.ordersReply;
/** A leader silent this long is taken for gone: orders answer 503 at once rather than wait. */
const LEADER_SILENT_MS = 5_000;
/** How long a change waits for the leader to say it is there before nothing is written (503). */
const PING_TIMEOUT_MS = 2_000;

/**
 * What the routes ask of the copy engine (closes and TP/SL edits carried to the copies, the rules,
 * the bridge), wherever it runs: in this process when it leads, else sent over the bus to the
 * leader, whose answer (or refusal, with its status and message) comes back the same way.
 */
export class ClusterOrders implements CopyOrders {
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

  /**
   * A change the copy engine must act on (its rules, relations, guards; the bridge): refused before
   * anything is written while the instance that copies is out of reach (NoLeader: nothing changed,
   * the request may be sent again), then written, then told. A change written but not confirmed is
   * LeaderUnconfirmed: the engine reads the database again every few seconds, so it applies the
   * change all the same once it reaches the database; sending the request again confirms it.
   */
  async change<T>(what: string, write: () => Promise<T>, tell: 'rules' | 'bridge' = 'rules'): Promise<T> {
    await this.reachLeader();
    const result = await write();
    try {
      await this.send({ op: tell === 'rules' ? 'reloadRules' : 'syncBridge' });
    } catch (err) {
      const why = err instanceof BrokerError ? ` (${err.message.replace(/\.$/, '')})` : '';
      throw new LeaderUnconfirmed(
        `${what} is saved, but the instance that copies has not confirmed it${why}. It applies the saved state within 5 seconds of reaching the database; send the request again to confirm.`,
      );
    }
    return result;
  }

  /** Whether the instance that copies answers (this one, alone or leading, always does); NoLeader otherwise. */
  private async reachLeader(): Promise<void> {
    try {
      await this.send({ op: 'ping' }, PING_TIMEOUT_MS);
    } catch (err) {
      if (err instanceof MarketPaused) throw err;
      throw new NoLeader('The instance that copies cannot be reached from this server at the moment: nothing was changed. Try again in a few seconds.');
    }
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
      case 'syncBridge':
        await this.copier.syncBridge();
        return 0;
      case 'ping':
        return 0;
    }
  }

  private async send(request: Request, timeoutMs = this.replyTimeoutMs): Promise<number> {
    // One instance alone (or the leader) carries it out itself; a paused market refuses (MarketPaused).
    if (this.market.isLeader || !this.bus.shared) return this.run(request);
    // An order to a leader unheard for a while is refused at once; a change asks the leader itself
    // (its ping has its own short wait), as the snapshots may not have resumed yet after a reconnection.
    const order = request.op === 'close' || request.op === 'modifyStops';
    if (order && this.market.silenceMs > LEADER_SILENT_MS) {
      throw new NoLeader();
    }
    const id = randomUUID();
    const reply = await new Promise<Reply>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        const late = new OutcomeUnknown('The instance that runs the market has not answered in time: the outcome is unknown. The order will not be sent again.');
        resolve({ id, to: '', ok: false, error: brokerErrorToWire(late) });
      }, timeoutMs);
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
