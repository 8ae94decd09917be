/**
 * Posts one encrypted message to a push service (RFC 8030, with VAPID, RFC 8292, and the
 * aes128gcm encryption of RFC 8291): `web-push` builds the request, signs and encrypts; the post itself
 * goes out through fetch, with a timeout, so a slow push service never holds the dispatcher.
 */
import webpush from 'web-push';

export interface VapidIdentity {
  subject: string;
  publicKey: string;
  privateKey: string;
}

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushOptions {
  /** Seconds the push service may keep the message for an unreachable phone. */
  ttlS: number;
  urgency: 'very-low' | 'low' | 'normal' | 'high';
  /** Messages of one topic replace each other while waiting at the push service. */
  topic: string;
}

/** What came of a post: delivered (the service took it), gone (the subscription no longer exists), or failed. */
export type PushOutcome = { kind: 'delivered' } | { kind: 'gone'; status: number } | { kind: 'failed'; reason: string };

const POST_TIMEOUT_MS = 10_000;

export async function sendPush(vapid: VapidIdentity, target: PushTarget, payload: string, options: PushOptions): Promise<PushOutcome> {
  let request: { method: string; headers: Record<string, string | number>; body: Buffer | null; endpoint: string };
  try {
    request = webpush.generateRequestDetails({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
      vapidDetails: vapid,
      TTL: options.ttlS,
      urgency: options.urgency,
      topic: options.topic,
      contentEncoding: 'aes128gcm',
    });
  } catch (err) {
    return { kind: 'failed', reason: err instanceof Error ? err.message : String(err) };
  }
  try {
    const response = await fetch(request.endpoint, {
      method: request.method,
      headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)])),
      body: request.body === null ? null : new Uint8Array(request.body),
      redirect: 'error',
      signal: AbortSignal.timeout(POST_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.status === 404 || response.status === 410) return { kind: 'gone', status: response.status };
    if (!response.ok) return { kind: 'failed', reason: `push service answered ${response.status}` };
    return { kind: 'delivered' };
  } catch (err) {
    return { kind: 'failed', reason: err instanceof Error ? err.message : String(err) };
  }
}

export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  return webpush.generateVAPIDKeys();
}
