/**
 * Delivers new alerts to the phones of the users who may see them, from the leader only. Every
 * second it reads the alerts recorded since its cursor (whichever instance recorded them) and queues
 * one message per alert and subscribed device; the posts then go out on their own, each device
 * independently of every other (docs/push.md, "Delivery"):
 *
 * - one post at a time per device, in the order of its alerts, each with a deadline (`postTimeoutMs`);
 * - at most `concurrency` posts in flight in all; a device known to be slow (its last post failed,
 *   timed out or took longer than `slowMs`) posts only within `slowConcurrency` of them, and at most
 *   `slowPerUser` of one user's, so the devices that answer keep the rest;
 * - the users taken in turn, so one user's devices never all come before another's;
 * - a device's queue holds at most `queuePerDevice` messages (the oldest dropped), and a message
 *   older than `maxAgeS` when its turn comes is not posted;
 * - a device whose push service says it is gone (404, 410) or whose keys cannot encrypt is forgotten
 *   at once; one that failed `dropAfterFailures` posts in a row, over at least `dropAfterS`, too.
 *
 * The cursor kept in the database stays before the oldest message still waiting for a device that
 * is not slow: a crash or a new leader posts those again (the topic and the notification's tag keep
 * one of two on the phone), and does not wait for or repeat what the slow devices had queued.
 */
import type { Database } from '#server/db/database.ts';
import { alertTextFor } from '#server/db/alerts-repo.ts';
import {
  advancePushCursor,
  alertsToPush,
  anySubscription,
  dropSubscription,
  markSent,
  recipients,
  recordFailure,
  subscriptionIds,
  type Recipient,
} from '#server/db/push-repo.ts';
import { noticeOf, urgencyOf } from '#shared/domain/push-alerts.ts';
import type { DispatcherOptions } from '#server/config.ts';
import { usableKeys } from './keys.ts';
import { pushFor } from './rules.ts';
import { sendPush, type PushOptions, type PushOutcome, type PushTarget, type VapidIdentity } from './sender.ts';

/** Where the dispatcher gets this installation's VAPID identity (the push service). */
export interface VapidSource {
  vapid(): Promise<VapidIdentity>;
}

export const DEFAULT_DISPATCHER: DispatcherOptions = {
  intervalMs: 1_000,
  ttlS: 600,
  maxAgeS: 600,
  concurrency: 32,
  slowConcurrency: 8,
  slowPerUser: 2,
  postTimeoutMs: 10_000,
  slowMs: 2_000,
  dropAfterFailures: 5,
  dropAfterS: 1_800,
  queuePerDevice: 20,
  now: Date.now,
};

const BATCH = 100;

export interface DispatchLog {
  warn(obj: object, msg: string): void;
}

interface Message {
  alertId: number;
  /** When the alert was recorded (epoch seconds). */
  at: number;
  payload: string;
  options: Pick<PushOptions, 'urgency' | 'topic'>;
}

interface Device {
  id: number;
  userId: number;
  target: PushTarget;
  queue: Message[];
  /** The message being posted. */
  posting: Message | undefined;
  /** In the ready line. */
  waiting: boolean;
  /** Its last post failed or was slow: it posts within the slow lane. */
  slow: boolean;
  /** Failed posts in a row, as last known. */
  failures: number;
  /** Forgotten (gone, unusable, failing): whatever it still had queued is not posted. */
  dropped: boolean;
}

export class PushDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly devices = new Map<number, Device>();
  /** Devices with a message to post and none in flight, in turn. */
  private ready: Device[] = [];
  private inFlight = 0;
  private slowInFlight = 0;
  private readonly slowByUser = new Map<number, number>();
  private readonly posts = new Set<Promise<void>>();
  /** Devices that took a post since the last round (their last_sent_at, and their failures reset). */
  private delivered = new Set<number>();
  /** The newest alert this leader has queued (it reads after it). */
  private queuedThrough = 0;
  /** The cursor as this leader last wrote it. */
  private cursorWritten = 0;
  private readonly stopping = new AbortController();

  constructor(
    private readonly db: Database,
    private readonly push: VapidSource,
    private readonly leading: () => boolean,
    private readonly log: DispatchLog,
    private readonly options: DispatcherOptions = DEFAULT_DISPATCHER,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Stops reading, drops what is queued, aborts the posts in flight and waits for them to end. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.stopping.abort();
    this.forgetQueued();
    await this.running;
    await Promise.allSettled([...this.posts]);
  }

  /**
   * One round (never two at once): what tests call instead of waiting for the timer. It queues the
   * new alerts and starts their posts; it does not wait for them (see `idle`).
   */
  tick(): Promise<void> {
    if (this.stopping.signal.aborted) return Promise.resolve();
    if (!this.leading()) {
      // Another instance leads: it posts from the cursor; what this one had queued is its to post.
      this.forgetQueued();
      return Promise.resolve();
    }
    this.running ??= this.round()
      .catch((err: unknown) => this.log.warn({ err }, 'push delivery failed; it is tried again'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** Resolves once nothing is queued or in flight (tests and the bench). */
  async idle(): Promise<void> {
    while (this.posts.size > 0) await Promise.allSettled([...this.posts]);
  }

  /** Posts in flight and messages queued, now. */
  get load(): { inFlight: number; slowInFlight: number; queued: number } {
    let queued = 0;
    for (const d of this.devices.values()) queued += d.queue.length;
    return { inFlight: this.inFlight, slowInFlight: this.slowInFlight, queued };
  }

  private async round(): Promise<void> {
    await this.flushDelivered();
    // Messages still waiting (for slow devices, mostly): none for a device turned off since.
    if (this.hasQueued()) this.forgetUnsubscribed(await subscriptionIds(this.db));
    // No device subscribed: nothing to read (a device subscribing later starts from its own moment).
    if (!(await anySubscription(this.db))) {
      await this.advanceCursor();
      return;
    }
    for (;;) {
      const { alerts } = await alertsToPush(this.db, BATCH, this.queuedThrough);
      if (alerts.length === 0) break;
      const users = await recipients(this.db);
      this.forgetUnsubscribed(users.map((u) => u.id));
      const nowS = this.options.now() / 1000;
      for (const alert of alerts) {
        if (nowS - alert.at > this.options.maxAgeS) continue;
        for (const user of users) {
          if (alert.id <= user.fromAlertId) continue;
          const kind = pushFor(alert, user);
          if (kind === null) continue;
          // Its text as this user may read it (a master outside their portfolios is not named).
          const notice = noticeOf({ ...alert, message: alertTextFor(alert, user), type: kind });
          this.enqueue(user, { alertId: alert.id, at: alert.at, payload: JSON.stringify(notice), options: { urgency: urgencyOf(kind), topic: notice.tag } });
        }
      }
      this.queuedThrough = alerts.at(-1)!.id;
      this.pump();
      if (alerts.length < BATCH) break;
    }
    await this.advanceCursor();
  }

  /**
   * Moves the stored cursor up to just before the oldest message still queued or in flight for a
   * device that is not slow (everything queued, when there is none).
   */
  private async advanceCursor(): Promise<void> {
    if (this.queuedThrough === 0) return;
    let through = this.queuedThrough;
    for (const d of this.devices.values()) {
      if (d.slow || d.dropped) continue;
      const oldest = d.posting ?? d.queue[0];
      if (oldest) through = Math.min(through, oldest.alertId - 1);
    }
    // Written only when it moves: no write a second while nothing happens.
    if (through <= this.cursorWritten) return;
    await advancePushCursor(this.db, through);
    this.cursorWritten = through;
  }

  private hasQueued(): boolean {
    for (const d of this.devices.values()) if (d.queue.length > 0) return true;
    return false;
  }

  private enqueue(user: Recipient, message: Message): void {
    let device = this.devices.get(user.id);
    if (!device) {
      device = { id: user.id, userId: user.userId, target: { endpoint: user.endpoint, p256dh: user.p256dh, auth: user.auth }, queue: [], posting: undefined, waiting: false, slow: user.failures > 0, failures: user.failures, dropped: false };
      this.devices.set(user.id, device);
    }
    // The latest keys and owner (a device that subscribed again, or changed hands).
    device.target = { endpoint: user.endpoint, p256dh: user.p256dh, auth: user.auth };
    device.userId = user.userId;
    device.queue.push(message);
    if (device.queue.length > this.options.queuePerDevice) device.queue.shift();
    if (!device.posting && !device.waiting) {
      device.waiting = true;
      this.ready.push(device);
    }
  }

  /** Starts the posts the bounds allow, the ready devices in turn. */
  private pump(): void {
    if (this.stopping.signal.aborted) return;
    const o = this.options;
    for (let i = 0; i < this.ready.length && this.inFlight < o.concurrency; ) {
      const device = this.ready[i]!;
      if (device.slow && (this.slowInFlight >= o.slowConcurrency || (this.slowByUser.get(device.userId) ?? 0) >= o.slowPerUser)) {
        i++;
        continue;
      }
      this.ready.splice(i, 1);
      device.waiting = false;
      this.post(device);
    }
  }

  private post(device: Device): void {
    const nowS = this.options.now() / 1000;
    let message = device.queue.shift();
    // Found stale when its turn came (the device was slow, the queue long): not posted.
    while (message && nowS - message.at > this.options.maxAgeS) message = device.queue.shift();
    if (!message) return;
    device.posting = message;
    const slow = device.slow;
    const userId = device.userId;
    this.inFlight++;
    if (slow) {
      this.slowInFlight++;
      this.slowByUser.set(userId, (this.slowByUser.get(userId) ?? 0) + 1);
    }
    const task = this.deliver(device, message)
      .catch((err: unknown) => this.log.warn({ err }, 'a push could not be made, or its outcome not recorded'))
      .finally(() => {
        this.posts.delete(task);
        this.inFlight--;
        if (slow) {
          this.slowInFlight--;
          const left = (this.slowByUser.get(userId) ?? 1) - 1;
          if (left > 0) this.slowByUser.set(userId, left);
          else this.slowByUser.delete(userId);
        }
        device.posting = undefined;
        if (device.dropped || this.stopping.signal.aborted) device.queue.length = 0;
        if (device.queue.length > 0 && !device.waiting) {
          device.waiting = true;
          this.ready.push(device);
        }
        this.pump();
      });
    this.posts.add(task);
  }

  private async deliver(device: Device, message: Message): Promise<void> {
    if (!usableKeys(device.target)) {
      await this.drop(device, 'a subscription whose keys cannot encrypt was forgotten');
      return;
    }
    const vapid = await this.push.vapid();
    const started = performance.now();
    const outcome: PushOutcome = await sendPush(vapid, device.target, message.payload, {
      ttlS: this.options.ttlS,
      timeoutMs: this.options.postTimeoutMs,
      signal: this.stopping.signal,
      ...message.options,
    });
    const tookMs = performance.now() - started;
    switch (outcome.kind) {
      case 'delivered':
        device.slow = tookMs > this.options.slowMs;
        if (device.failures > 0) {
          device.failures = 0;
          await markSent(this.db, [device.id]);
        } else this.delivered.add(device.id);
        return;
      case 'gone':
        await this.drop(device);
        return;
      case 'failed': {
        device.slow = true;
        // A success of this device not yet recorded comes before this failure: record it first.
        if (this.delivered.delete(device.id)) await markSent(this.db, [device.id]);
        const streak = await recordFailure(this.db, device.id);
        if (!streak) {
          device.dropped = true;
          return;
        }
        device.failures = streak.failures;
        const origin = new URL(device.target.endpoint).origin;
        if (streak.failures >= this.options.dropAfterFailures && streak.failingForS >= this.options.dropAfterS) {
          await this.drop(device, 'a device whose push service kept failing was forgotten', { endpoint: origin, failures: streak.failures, reason: outcome.reason });
        } else {
          this.log.warn({ endpoint: origin, failures: streak.failures, reason: outcome.reason }, 'a push was not delivered');
        }
        return;
      }
      case 'unsent':
        this.log.warn({ reason: outcome.reason }, 'a push could not be made');
        return;
      case 'aborted':
        return;
    }
  }

  private async drop(device: Device, why?: string, detail: object = {}): Promise<void> {
    device.dropped = true;
    device.queue.length = 0;
    this.devices.delete(device.id);
    await dropSubscription(this.db, device.id);
    if (why) this.log.warn({ subscription: device.id, ...detail }, why);
  }

  private async flushDelivered(): Promise<void> {
    if (this.delivered.size === 0) return;
    const ids = [...this.delivered];
    this.delivered = new Set();
    await markSent(this.db, ids);
  }

  /** Subscriptions gone since (turned off, replaced, their user disabled): nothing more is posted to them. */
  private forgetUnsubscribed(ids: readonly number[]): void {
    const current = new Set(ids);
    for (const [id, device] of this.devices) {
      if (current.has(id)) continue;
      device.dropped = true;
      device.queue.length = 0;
      this.devices.delete(id);
    }
    this.ready = this.ready.filter((d) => !d.dropped);
  }

  private forgetQueued(): void {
    for (const device of this.devices.values()) device.queue.length = 0;
    this.ready = [];
    for (const device of this.devices.values()) device.waiting = false;
    this.queuedThrough = 0;
    this.cursorWritten = 0;
  }
}
