/**
 * A browser's subscription keys as RFC 8291 needs them: `p256dh`, an uncompressed P-256 public key
 * (0x04, then x and y, 65 bytes) that is a point on the curve, and `auth`, a 16-byte secret, both
 * base64url without padding. The shape is checked by the request's schema
 * (src/shared/contract/push.ts); whether the point lies on the curve needs node:crypto, here.
 */
import { createPublicKey } from 'node:crypto';

/** Whether `p256dh` (base64url) is an uncompressed point on P-256 (OpenSSL checks it on import). */
export function isP256Point(p256dh: string): boolean {
  const raw = Buffer.from(p256dh, 'base64url');
  if (raw.length !== 65 || raw[0] !== 0x04 || raw.toString('base64url') !== p256dh) return false;
  try {
    createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
      format: 'jwk',
    });
    return true;
  } catch {
    return false;
  }
}

/** Whether `auth` (base64url) is the 16-byte secret. */
export function isAuthSecret(auth: string): boolean {
  const raw = Buffer.from(auth, 'base64url');
  return raw.length === 16 && raw.toString('base64url') === auth;
}

/** Whether a stored subscription's keys can encrypt a message (one kept before the keys were checked may not). */
export function usableKeys(keys: { p256dh: string; auth: string }): boolean {
  return isP256Point(keys.p256dh) && isAuthSecret(keys.auth);
}
