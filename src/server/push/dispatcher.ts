/**
 * Delivers new alerts to the phones of the users who may see them, from the leader only: every
 * second it reads the alerts recorded since its cursor (whichever instance recorded them), posts one
 * notification per alert and subscribed device, drops the subscriptions a push service says are gone,
 * and moves the cursor. A crash between a post and the cursor's move posts again after the restart;
 * the topic makes the push service and the phone keep one notification of the two.
 */
import type { Database } from '#server/db/database.ts';
import { advancePushCursor, alertsToPush, anySubscription, dropSubscription, markSent, recipients } from '#server/db/push-repo.ts';
import { noticeOf, urgencyOf } from '#shared/domain/push-alerts.ts';
import type { PushService } from '#server/services/push-service.ts';
import { pushFor } from './rules.ts';
import { sendPush } from './sender.ts';

export interface DispatcherOptions {
  intervalMs: number;
  /** How long a push service keeps a notification for a phone that is off (seconds). */
  ttlS: number;
  /** Alerts older than this when first seen (a long outage, a restored backup) are not pushed (seconds). */
  maxAgeS: number;
  /** Posts in flight at once. */
  concurrency: number;
  now: () => number;
}

export const DEFAULT_DISPATCHER: DispatcherOptions = { intervalMs: 1_000, ttlS: 600, maxAgeS: 600, concurrency: 8, now: Date.now };

const BATCH = 100;

export interface DispatchLog {
  warn(obj: object, msg: string): void;
}

export class PushDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly push: PushService,
    private readonly leading: () => boolean,
    private readonly log: DispatchLog,
    private readonly options: DispatcherOptions = DEFAULT_DISPATCHER,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.options.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One round (never two at once): what tests call instead of waiting for the timer. */
  tick(): Promise<void> {
    if (!this.leading()) return Promise.resolve();
    this.running ??= this.round()
      .catch((err: unknown) => this.log.warn({ err }, 'push delivery failed; it is tried again'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private async round(): Promise<void> {
    // No device subscribed: nothing to read (a device subscribing later starts from its own moment).
    if (!(await anySubscription(this.db))) return;
    for (;;) {
      const { alerts } = await alertsToPush(this.db, BATCH);
      if (alerts.length === 0) return;
      const users = await recipients(this.db);
      const nowS = this.options.now() / 1000;
      const posts: (() => Promise<void>)[] = [];
      const sent: number[] = [];
      for (const alert of alerts) {
        if (nowS - alert.at > this.options.maxAgeS) continue;
        for (const user of users) {
          if (alert.id <= user.fromAlertId) continue;
          const kind = pushFor(alert, user);
          if (kind === null) continue;
          const notice = noticeOf({ ...alert, type: kind });
          posts.push(async () => {
            const vapid = await this.push.vapid();
            const outcome = await sendPush(vapid, user, JSON.stringify(notice), {
              ttlS: this.options.ttlS,
              urgency: urgencyOf(kind),
              topic: notice.tag,
            });
            if (outcome.kind === 'gone') await dropSubscription(this.db, user.id);
            else if (outcome.kind === 'delivered') sent.push(user.id);
            else this.log.warn({ endpoint: new URL(user.endpoint).origin, reason: outcome.reason }, 'a push was not delivered');
          });
        }
      }
      await runLimited(posts, this.options.concurrency);
      await markSent(this.db, [...new Set(sent)]);
      await advancePushCursor(this.db, alerts.at(-1)!.id);
      if (alerts.length < BATCH) return;
    }
  }
}

async function runLimited(tasks: readonly (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}
