import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decrypt } from 'http_ece';

/**
 * A stand-in for a browser's push service (RFC 8030), on 127.0.0.1: it takes what the server posts,
 * checks the VAPID token the way a push service does (RFC 8292: an ES256 JWT for this origin, signed
 * by the key it names), and decrypts the message with the subscribing browser's private key (RFC 8291).
 */
export interface ReceivedPush {
  device: string;
  headers: http.IncomingHttpHeaders;
  /** The decrypted message. */
  text: string;
  /** The VAPID token's claims, verified. */
  claims: { aud: string; exp: number; sub: string };
  /** The public key the token names (base64url). */
  vapidKey: string;
  /** The devices of the posts taken before this one and not answered yet when it arrived (one entry a post). */
  pendingThen: string[];
  /** When it arrived (performance.now() of this process). */
  at: number;
}

export interface FakeBrowser {
  /** What the browser's PushSubscription.toJSON() would give. */
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

/** How the push service answers a device's posts: at once, after `delayMs`, or held until `release`. */
export interface Answering {
  delayMs?: number;
  hold?: boolean;
}

export interface PushServiceStandIn {
  origin: string;
  received: ReceivedPush[];
  /**
   * Answers every later post to this device with this status (404/410: the subscription is gone;
   * 5xx: failing), at once, after a delay, or held until released (a slow device, or a dead one when
   * the poster's deadline comes first).
   */
  answer(device: string, status: number, how?: Answering): void;
  /** Answers the posts held for these devices (every device when none is named) now. */
  release(devices?: readonly string[]): void;
  /** Posts taken and not answered yet (held, delayed; not those the poster gave up on), of these devices or of all. */
  pending(devices?: readonly string[]): number;
  /** The most posts that were ever pending at once. */
  peakPending(): number;
  browser(device: string): FakeBrowser;
  close(): Promise<void>;
}

function b64url(buffer: Buffer): string {
  return buffer.toString('base64url');
}

function verifyVapid(authorization: string | undefined, origin: string): { claims: ReceivedPush['claims']; key: string } {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`no VAPID authorization: ${authorization}`);
  const [, token, key] = match as unknown as [string, string, string];
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const raw = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33, 65)) },
    format: 'jwk',
  });
  const ok = verify('sha256', Buffer.from(`${header}.${payload}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!ok) throw new Error('VAPID signature does not verify');
  const alg = (JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg: string }).alg;
  if (alg !== 'ES256') throw new Error(`VAPID alg ${alg}`);
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as ReceivedPush['claims'];
  if (claims.aud !== origin) throw new Error(`VAPID audience ${claims.aud}, expected ${origin}`);
  return { claims, key };
}

interface Pending {
  device: string;
  res: http.ServerResponse;
  status: number;
  timer?: NodeJS.Timeout;
}

export async function startPushService(): Promise<PushServiceStandIn> {
  const devices = new Map<string, { ecdh: ECDH; auth: string; status: number; how: Answering }>();
  const received: ReceivedPush[] = [];
  const pending = new Set<Pending>();
  let peak = 0;
  let origin = '';
  const respond = (p: Pending) => {
    clearTimeout(p.timer);
    if (!pending.delete(p)) return;
    if (!p.res.destroyed) p.res.writeHead(p.status).end();
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const device = decodeURIComponent((req.url ?? '').replace(/^\/push\//, ''));
      const known = devices.get(device);
      if (req.method !== 'POST' || !known) {
        res.writeHead(404).end();
        return;
      }
      try {
        const { claims, key } = verifyVapid(req.headers.authorization, origin);
        if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error(`content-encoding ${req.headers['content-encoding']}`);
        const text = decrypt(Buffer.concat(chunks), { version: 'aes128gcm', privateKey: known.ecdh, authSecret: known.auth }).toString('utf8');
        received.push({ device, headers: req.headers, text, claims, vapidKey: key, pendingThen: [...pending].map((p) => p.device), at: performance.now() });
      } catch (err) {
        res.writeHead(400).end(String(err));
        return;
      }
      if (!known.how.hold && !known.how.delayMs) {
        res.writeHead(known.status).end();
        return;
      }
      const p: Pending = { device, res, status: known.status };
      pending.add(p);
      peak = Math.max(peak, pending.size);
      // The poster gave up (its deadline): no longer pending.
      res.on('close', () => {
        clearTimeout(p.timer);
        pending.delete(p);
      });
      if (!known.how.hold) p.timer = setTimeout(() => respond(p), known.how.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const of = (names?: readonly string[]) => [...pending].filter((p) => !names || names.includes(p.device));
  return {
    origin,
    received,
    answer(device, status, how = {}) {
      const known = devices.get(device)!;
      known.status = status;
      known.how = how;
    },
    release(names) {
      for (const p of of(names)) respond(p);
    },
    pending: (names) => of(names).length,
    peakPending: () => peak,
    browser(device) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = b64url(randomBytes(16));
      devices.set(device, { ecdh, auth, status: 201, how: {} });
      return { subscription: { endpoint: `${origin}/push/${encodeURIComponent(device)}`, expirationTime: null, keys: { p256dh: b64url(ecdh.getPublicKey()), auth } } };
    },
    close: () => {
      for (const p of [...pending]) respond(p);
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
