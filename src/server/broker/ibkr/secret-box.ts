import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Seals a secret (an account's IBKR Flex token) for storage with AES-256-GCM: a fresh random 96-bit IV
 * each time, the 128-bit tag kept, all in one versioned string `v1:<iv>:<tag>:<ciphertext>` (base64url).
 * The 32-byte key comes from the caller. `context` (e.g. the account's id) is bound in as additional
 * authenticated data, so a sealed value copied to another row does not open there.
 */

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** A sealed value that cannot be opened: malformed, of an unknown version, sealed with another key or context, or altered. */
export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

function checkKey(key: Uint8Array): void {
  if (!(key instanceof Uint8Array) || key.byteLength !== KEY_BYTES) {
    throw new TypeError(`secret-box: the key must be ${KEY_BYTES} bytes`);
  }
}

/** Encrypts `secret` under `key` (32 bytes); every call gives a different string. */
export function sealSecret(secret: string, key: Uint8Array, context = ''): string {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join(':');
}

/** Decrypts what sealSecret gave, with the same key and context; anything else throws SecretBoxError. */
export function openSecret(sealed: string, key: Uint8Array, context = ''): string {
  checkKey(key);
  const parts = typeof sealed === 'string' ? sealed.split(':') : [];
  if (parts.length !== 4) throw new SecretBoxError('The sealed secret is malformed (expected version:iv:tag:ciphertext).');
  const [version, ivText, tagText, ciphertextText] = parts as [string, string, string, string];
  if (version !== VERSION) throw new SecretBoxError(`The sealed secret has an unknown version (${JSON.stringify(version.slice(0, 8))}).`);
  if (![ivText, tagText, ciphertextText].every((part) => BASE64URL.test(part))) {
    throw new SecretBoxError('The sealed secret is malformed (not base64url).');
  }
  const iv = Buffer.from(ivText, 'base64url');
  const tag = Buffer.from(tagText, 'base64url');
  const ciphertext = Buffer.from(ciphertextText, 'base64url');
  if (iv.byteLength !== IV_BYTES || tag.byteLength !== TAG_BYTES) throw new SecretBoxError('The sealed secret is malformed (IV or tag of the wrong size).');
  // Node's decoder ignores a last character's spare bits: only the one spelling sealSecret writes is taken.
  if (tag.toString('base64url') !== tagText || ciphertext.toString('base64url') !== ciphertextText) {
    throw new SecretBoxError('The sealed secret is malformed (not canonical base64url).');
  }
  const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError('The sealed secret does not open: another key or context sealed it, or it was altered.');
  }
}
