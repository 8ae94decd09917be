/**
 * Web Push for the alerts that matter: the VAPID identity, the callers' subscriptions and the kinds
 * they receive. The routes call it; the dispatcher (src/server/push/dispatcher.ts) delivers.
 */
import type { Database } from '#server/db/database.ts';
import {
  countSubscriptions,
  deleteSubscription,
  MAX_DEVICES_PER_USER,
  pushKindsOf,
  saveSubscription,
  setPushKinds,
  vapidKeys,
} from '#server/db/push-repo.ts';
import { badRequest } from '#server/http/errors.ts';
import { PUSH_KINDS, type PushKind } from '#shared/domain/push-alerts.ts';
import type { PushConfig } from '#server/config.ts';
import { isAuthSecret, isP256Point } from '#server/push/keys.ts';
import { isAllowedPushEndpoint } from '#server/push/rules.ts';
import { generateVapidKeys, type VapidIdentity } from '#server/push/sender.ts';

export interface PushPreferencesView {
  kinds: PushKind[];
  devices: number;
}

export interface SubscribedView extends PushPreferencesView {
  /** How many of the caller's devices were dropped for this one (the least recently subscribed, beyond the limit). */
  dropped: number;
  /** The limit: devices one user may have subscribed at once. */
  maxDevices: number;
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

  /**
   * Keeps this device's subscription for the caller, as their most recent (beyond MAX_DEVICES_PER_USER
   * the least recently subscribed is dropped); refused (400) on a push service outside the allow-list
   * or a key that is not a point of P-256 (the request's schema checked the rest).
   */
  async subscribe(userId: number, subscription: { endpoint: string; keys: { p256dh: string; auth: string } }): Promise<SubscribedView> {
    if (!isAllowedPushEndpoint(subscription.endpoint, this.config.serviceOrigins)) {
      throw badRequest(`Push service not allowed: ${new URL(subscription.endpoint).origin}`);
    }
    if (!isP256Point(subscription.keys.p256dh)) throw badRequest('keys.p256dh is not a P-256 public key (not a point on the curve)');
    if (!isAuthSecret(subscription.keys.auth)) throw badRequest('keys.auth must be a 16-byte secret in base64url');
    const { dropped } = await saveSubscription(this.db, userId, { endpoint: subscription.endpoint, ...subscription.keys });
    return { ...(await this.preferences(userId)), dropped, maxDevices: MAX_DEVICES_PER_USER };
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
