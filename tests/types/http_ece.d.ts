// The part of http_ece (the Web Push content encoding's reference implementation) the push tests use
// to decrypt what the server sent, as a browser would.
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';
  export function decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string }): Buffer;
}
