/** Web Push: the server's VAPID key, a browser's subscription, and the kinds of alert a user receives. */
import { z } from 'zod';
import { PUSH_KINDS } from '#shared/domain/push-alerts.ts';
import { Text } from './fields.ts';

export const PushKind = z.enum(PUSH_KINDS);

const BASE64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * `bytes` bytes in base64url without padding, as PushSubscription.toJSON() writes keys, in its one
 * spelling (the last character's unused bits zero: no two texts for one key).
 */
const Base64Url = (field: string, bytes: number, what: string) => {
  const length = Math.ceil((bytes * 8) / 6);
  const unusedBits = length * 6 - bytes * 8;
  return z
    .string({ error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`) })
    .regex(/^[A-Za-z0-9_-]*$/, { message: `${field} must be base64url (A-Z, a-z, 0-9, '-' and '_', without padding)`, abort: true })
    .refine((v) => v.length === length, { message: `${field} must be ${what}: ${bytes} bytes, ${length} base64url characters`, abort: true })
    .refine((v) => (BASE64URL_ALPHABET.indexOf(v.at(-1) ?? 'A') & ((1 << unusedBits) - 1)) === 0, `${field} is not canonical base64url (its last character's unused bits are set)`);
};

const isHttpUrl = (v: string): boolean => {
  try {
    const url = new URL(v);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};

/**
 * A push service's address for one browser: an http(s) URL of at most 1000 characters, without
 * control characters (a NUL cannot be stored, and a URL parser would quietly drop one at the end).
 * Which push services are allowed is the server's allow-list (docs/push.md).
 */
const PushEndpoint = Text('endpoint', 1000).refine(isHttpUrl, 'endpoint must be an http(s) URL');

/** GET /api/push/vapid-public-key: the applicationServerKey a browser subscribes with. */
export const VapidKeyResponse = z.object({ public_key: z.string() });

/** POST /api/push/subscriptions: a browser's PushSubscription.toJSON(), nothing else. */
export const PushSubscriptionBody = z.strictObject({
  endpoint: PushEndpoint,
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({
    /**
     * The browser's P-256 public key, uncompressed (0x04, x, y: 65 bytes, so its text starts with 'B');
     * the server also checks that it is a point on the curve (src/server/push/keys.ts).
     */
    p256dh: Base64Url('keys.p256dh', 65, 'an uncompressed P-256 public key').refine(
      (v) => v.startsWith('B'),
      'keys.p256dh must be an uncompressed P-256 public key (its first byte 0x04)',
    ),
    /** The shared authentication secret (16 bytes). */
    auth: Base64Url('keys.auth', 16, 'the authentication secret'),
  }),
});

/** DELETE /api/push/subscriptions: the endpoint to forget (this device's). */
export const PushUnsubscribeBody = z.strictObject({ endpoint: PushEndpoint });

/** GET and PUT /api/push/preferences: the kinds of alert pushed to every device of the caller. */
export const PushPreferences = z.strictObject({ kinds: z.array(PushKind).max(PUSH_KINDS.length) });
export const PushPreferencesResponse = z.object({
  kinds: z.array(PushKind),
  /** How many devices of the caller receive pushes. */
  devices: z.number().int(),
});
export const PushSubscribedResponse = z.object({ message: z.string(), data: PushPreferencesResponse });
