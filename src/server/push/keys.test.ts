import { createECDH, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isAuthSecret, isP256Point, usableKeys } from './keys.ts';

describe("a browser's subscription keys", () => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const point = ecdh.getPublicKey();
  const b64 = (bytes: Buffer) => bytes.toString('base64url');

  it('p256dh: an uncompressed point on P-256, in canonical base64url', () => {
    expect(isP256Point(b64(point))).toBe(true);
    const offCurve = Buffer.from(point);
    offCurve[64] = offCurve[64]! ^ 1;
    expect(isP256Point(b64(offCurve))).toBe(false);
    expect(isP256Point(b64(Buffer.concat([Buffer.from([4]), Buffer.alloc(64)])))).toBe(false);
    expect(isP256Point(b64(ecdh.getPublicKey(null, 'compressed')))).toBe(false);
    expect(isP256Point(b64(Buffer.concat([Buffer.from([2]), point.subarray(1)])))).toBe(false);
    expect(isP256Point(`${b64(point).slice(0, 86)}+`)).toBe(false);
    expect(isP256Point(`${b64(point)}=`)).toBe(false);
  });

  it('auth: 16 bytes in canonical base64url', () => {
    const auth = randomBytes(16);
    expect(isAuthSecret(b64(auth))).toBe(true);
    expect(isAuthSecret(b64(randomBytes(15)))).toBe(false);
    expect(isAuthSecret(b64(randomBytes(17)))).toBe(false);
    // The last character's 4 unused bits set: the same bytes, written otherwise.
    expect(isAuthSecret(`${b64(auth).slice(0, 21)}B`)).toBe(false);
    expect(usableKeys({ p256dh: b64(point), auth: b64(auth) })).toBe(true);
    expect(usableKeys({ p256dh: b64(point), auth: 'short' })).toBe(false);
  });
});
