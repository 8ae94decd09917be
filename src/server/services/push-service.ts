/**
 * Web Push for the alerts that matter: the VAPID identity, the callers' subscriptions and the kinds
 * they receive. The routes call it; the dispatcher (src/server/push/dispatcher.ts) delivers.
 */
import type { Database } from '#server/db/database.ts';
import {
  countSubscriptions,
  deleteSubscription,
  pushKindsOf,
  saveSubscription,
  setPushKinds,
  vapidKeys,
} from '#server/db/push-repo.ts';
import { badRequest } from '#server/http/errors.ts';
import { PUSH_KINDS, type PushKind } from '#shared/domain/push-alerts.ts';
import { isAllowedPushEndpoint } from '#server/push/rules.ts';
import { generateVapidKeys, type VapidIdentity } from '#server/push/sender.ts';

export interface PushConfig {
  /** Origins of the push services the server may post to (see src/server/push/rules.ts DEFAULT_PUSH_SERVICE_ORIGINS). */
  serviceOrigins: readonly string[];
  /** The VAPID `sub`: a mailto: or https: contact the push services can reach the operator at. */
  subject: string;
  /** Given keys; unset: generated on first start and kept in the database, shared by every instance. */
  keys?: { publicKey: string; privateKey: string };
}

export interface PushPreferencesView {
  kinds: PushKind[];
  devices: number;
}

const chosen = (kinds: readonly string[] | null): PushKind[] =>
  kinds === null ? [...PUSH_KINDS] : PUSH_KINDS.filter((k) => kinds.includes(k));

export class PushService {
  private identity: Promise<VapidIdentity> | undefined;

  constructor(
    private readonly db: Database,
    readonly config: PushConfig,
  ) {}

  /** This installation's VAPID identity (the configured keys, or the stored ones, made on first use). */
  vapid(): Promise<VapidIdentity> {
    this.identity ??= (async () => {
      const keys = this.config.keys ?? (await vapidKeys(this.db, generateVapidKeys));
      return { subject: this.config.subject, ...keys };
    })().catch((err: unknown) => {
      this.identity = undefined;
      throw err;
    });
    return this.identity;
  }

  /** Keeps this device's subscription for the caller; refused (400) on a push service outside the allow-list. */
  async subscribe(userId: number, subscription: { endpoint: string; keys: { p256dh: string; auth: string } }): Promise<PushPreferencesView> {
    if (!isAllowedPushEndpoint(subscription.endpoint, this.config.serviceOrigins)) {
      throw badRequest(`Push service not allowed: ${new URL(subscription.endpoint).origin}`);
    }
    await saveSubscription(this.db, userId, { endpoint: subscription.endpoint, ...subscription.keys });
    return this.preferences(userId);
  }

  /** Forgets this device's subscription of the caller (nothing to forget is not an error). */
  async unsubscribe(userId: number, endpoint: string): Promise<void> {
    await deleteSubscription(this.db, userId, endpoint);
  }

  async preferences(userId: number): Promise<PushPreferencesView> {
    return { kinds: chosen(await pushKindsOf(this.db, userId)), devices: await countSubscriptions(this.db, userId) };
  }

  async setPreferences(userId: number, kinds: readonly PushKind[]): Promise<PushPreferencesView> {
    await setPushKinds(this.db, userId, PUSH_KINDS.filter((k) => kinds.includes(k)));
    return this.preferences(userId);
  }
}
