/** Web Push: the server's VAPID key, a browser's subscription, and the kinds of alert a user receives. */
import { z } from 'zod';
import { PUSH_KINDS } from '#shared/domain/push-alerts.ts';

export const PushKind = z.enum(PUSH_KINDS);

/** base64url without padding, as PushSubscription.toJSON() writes keys. */
const Base64Url = (bytes: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'must be base64url')
    .refine((v) => Math.floor((v.length * 3) / 4) === bytes, `must encode ${bytes} bytes`);

/** GET /api/push/vapid-public-key: the applicationServerKey a browser subscribes with. */
export const VapidKeyResponse = z.object({ public_key: z.string() });

/** POST /api/push/subscriptions: a browser's PushSubscription.toJSON(), and optionally the kinds wanted. */
export const PushSubscriptionBody = z.object({
  endpoint: z.string().url().max(1000),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    /** The browser's P-256 public key, uncompressed (65 bytes). */
    p256dh: Base64Url(65),
    /** The shared authentication secret (16 bytes). */
    auth: Base64Url(16),
  }),
});

/** DELETE /api/push/subscriptions: the endpoint to forget (this device's). */
export const PushUnsubscribeBody = z.object({ endpoint: z.string().url().max(1000) });

/** GET and PUT /api/push/preferences: the kinds of alert pushed to every device of the caller. */
export const PushPreferences = z.object({ kinds: z.array(PushKind).max(PUSH_KINDS.length) });
export const PushPreferencesResponse = z.object({
  kinds: z.array(PushKind),
  /** How many devices of the caller receive pushes. */
  devices: z.number().int(),
});
export const PushSubscribedResponse = z.object({ message: z.string(), data: PushPreferencesResponse });
