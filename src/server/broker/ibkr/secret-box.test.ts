import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBoxError, openSecret, sealSecret } from './secret-box.ts';

const KEY = new Uint8Array(randomBytes(32));
const TOKEN = '528191644107458877539776';

/** The same string with the character at `index` replaced by another base64url character. */
function alter(text: string, index: number): string {
  const swapped = text[index] === 'A' ? 'B' : 'A';
  return `${text.slice(0, index)}${swapped}${text.slice(index + 1)}`;
}

describe('the secret box', () => {
  it('opens what it sealed, and the sealed string shows nothing of the secret', () => {
    const sealed = sealSecret(TOKEN, KEY);
    expect(sealed).toMatch(/^v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(TOKEN);
    expect(openSecret(sealed, KEY)).toBe(TOKEN);
  });

  it('round-trips an empty secret and one outside ASCII', () => {
    expect(openSecret(sealSecret('', KEY), KEY)).toBe('');
    expect(openSecret(sealSecret('jeton-é-€-🔑', KEY), KEY)).toBe('jeton-é-€-🔑');
  });

  it('draws a new IV every time: the same secret seals to different strings that both open', () => {
    const seals = Array.from({ length: 20 }, () => sealSecret(TOKEN, KEY));
    const ivs = new Set(seals.map((s) => s.split(':')[1]));
    expect(ivs.size).toBe(20);
    expect(new Set(seals).size).toBe(20);
    for (const s of seals) expect(openSecret(s, KEY)).toBe(TOKEN);
  });

  it('refuses another key with a clear error that holds no part of the secret', () => {
    const sealed = sealSecret(TOKEN, KEY);
    const other = new Uint8Array(randomBytes(32));
    let error: unknown;
    try {
      openSecret(sealed, other);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SecretBoxError);
    expect((error as Error).message).toMatch(/another key or context sealed it, or it was altered/);
    expect(String((error as Error).stack)).not.toContain(TOKEN);
  });

  it('refuses a value sealed for another context (a token copied to another account)', () => {
    const sealed = sealSecret(TOKEN, KEY, 'account:41');
    expect(openSecret(sealed, KEY, 'account:41')).toBe(TOKEN);
    expect(() => openSecret(sealed, KEY, 'account:42')).toThrow(SecretBoxError);
    expect(() => openSecret(sealed, KEY)).toThrow(SecretBoxError);
  });

  it('refuses a value altered in its IV, its tag or its ciphertext', () => {
    const sealed = sealSecret(TOKEN, KEY);
    const [version, iv, tag, ciphertext] = sealed.split(':') as [string, string, string, string];
    const cases = [
      [version, alter(iv, 3), tag, ciphertext],
      [version, iv, alter(tag, 5), ciphertext],
      [version, iv, tag, alter(ciphertext, 7)],
      [version, iv, tag, ciphertext.slice(0, -4)],
    ];
    for (const parts of cases) expect(() => openSecret(parts.join(':'), KEY)).toThrow(SecretBoxError);
  });

  it('refuses a tag spelt another way in its last character’s spare bits', () => {
    const sealed = sealSecret(TOKEN, KEY);
    const [version, iv, tag, ciphertext] = sealed.split(':') as [string, string, string, string];
    // 16 bytes take 22 characters: the last one carries 2 bits and 4 spare ones; flipping a spare bit keeps the bytes.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(tag.at(-1) ?? 'A');
    const respelt = `${tag.slice(0, -1)}${alphabet[last ^ 1]}`;
    expect(Buffer.from(respelt, 'base64url').equals(Buffer.from(tag, 'base64url'))).toBe(true);
    expect(() => openSecret([version, iv, respelt, ciphertext].join(':'), KEY)).toThrow(/not canonical/);
  });

  it('refuses malformed values and unknown versions', () => {
    const sealed = sealSecret(TOKEN, KEY);
    expect(() => openSecret('', KEY)).toThrow(/malformed/);
    expect(() => openSecret(sealed.split(':').slice(0, 3).join(':'), KEY)).toThrow(/malformed/);
    expect(() => openSecret(sealed.replace(/^v1:/, 'v2:'), KEY)).toThrow(/unknown version/);
    expect(() => openSecret(sealed.replace(/:([^:]+)$/, ':ab+/'), KEY)).toThrow(/not base64url/);
    expect(() => openSecret(`v1:AAAA:${sealed.split(':')[2]}:AAAA`, KEY)).toThrow(/wrong size/);
  });

  it('takes 32-byte keys only', () => {
    expect(() => sealSecret(TOKEN, new Uint8Array(16))).toThrow(TypeError);
    expect(() => openSecret(sealSecret(TOKEN, KEY), new Uint8Array(31))).toThrow(TypeError);
  });
});
