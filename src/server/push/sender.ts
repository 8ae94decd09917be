/**
 * Posts one encrypted message to a push service (RFC 8030, with VAPID, RFC 8292, and the
 * aes128gcm encryption of RFC 8291): `web-push` builds the request, signs and encrypts; the post itself
 * goes out through fetch, with a deadline, so a slow push service holds one post at most that long.
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
  /** The post's deadline (ms): not answered by then, it has failed. */
  timeoutMs: number;
  /** Aborts the post (the server is stopping): its outcome is then `aborted`. */
  signal?: AbortSignal;
}

/**
 * What came of a post: delivered (the service took it), gone (the subscription no longer exists),
 * failed (the device's push service refused it, answered late or not at all: the device's failure),
 * unsent (the request could not be made here: this server's failure, not the device's), or aborted
 * (the server is stopping).
 */
export type PushOutcome =
  | { kind: 'delivered' }
  | { kind: 'gone'; status: number }
  | { kind: 'failed'; reason: string }
  | { kind: 'unsent'; reason: string }
  | { kind: 'aborted' };

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
    return { kind: 'unsent', reason: err instanceof Error ? err.message : String(err) };
  }
  if (options.signal?.aborted) return { kind: 'aborted' };
  const deadline = AbortSignal.timeout(options.timeoutMs);
  try {
    const response = await fetch(request.endpoint, {
      method: request.method,
      headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)])),
      body: request.body === null ? null : new Uint8Array(request.body),
      redirect: 'error',
      signal: options.signal ? AbortSignal.any([deadline, options.signal]) : deadline,
    });
    await response.body?.cancel();
    if (response.status === 404 || response.status === 410) return { kind: 'gone', status: response.status };
    if (!response.ok) return { kind: 'failed', reason: `push service answered ${response.status}` };
    return { kind: 'delivered' };
  } catch (err) {
    if (options.signal?.aborted) return { kind: 'aborted' };
    if (deadline.aborted) return { kind: 'failed', reason: `no answer within ${options.timeoutMs} ms` };
    return { kind: 'failed', reason: err instanceof Error ? err.message : String(err) };
  }
}

export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  return webpush.generateVAPIDKeys();
}
