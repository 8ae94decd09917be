import type { Database, Queryable } from './database.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** This installation's VAPID keys; the first caller's `generated` keys are kept when none are stored (every instance then reads the same). */
export async function vapidKeys(q: Queryable, generated: () => VapidKeys): Promise<VapidKeys> {
  const stored = await q.query<{ public_key: string; private_key: string }>('SELECT public_key, private_key FROM push_keys WHERE id = 1');
  if (stored[0]) return { publicKey: stored[0].public_key, privateKey: stored[0].private_key };
  const keys = generated();
  await q.query('INSERT INTO push_keys (id, public_key, private_key) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING', [keys.publicKey, keys.privateKey]);
  const [row] = await q.query<{ public_key: string; private_key: string }>('SELECT public_key, private_key FROM push_keys WHERE id = 1');
  return { publicKey: row!.public_key, privateKey: row!.private_key };
}

export interface PushSubscriptionRow {
  id: number;
  userId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  /** The newest alert when it subscribed: only later ones are pushed to it. */
  fromAlertId: number;
}

/** Devices one user may have subscribed at once: a subscription beyond it drops the user's least recently subscribed. */
export const MAX_DEVICES_PER_USER = 10;

/**
 * Keeps a browser's subscription for this user (a device that changed hands moves to its new user),
 * as their most recent; beyond `maxDevices` the user's least recently subscribed devices are
 * forgotten. Under a lock on the user's row, so that subscriptions racing each other cannot leave
 * more. How many devices were dropped.
 */
export async function saveSubscription(
  db: Database,
  userId: number,
  s: { endpoint: string; p256dh: string; auth: string },
  maxDevices = MAX_DEVICES_PER_USER,
): Promise<{ dropped: number }> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    await tx.query(
      `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, from_alert_id, subscribed_at)
       VALUES ($1, $2, $3, $4, (SELECT COALESCE(max(id), 0) FROM alerts), clock_timestamp())
       ON CONFLICT (endpoint) DO UPDATE SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth,
         subscribed_at = EXCLUDED.subscribed_at, failures = 0, failing_since = NULL,
         from_alert_id = CASE WHEN push_subscriptions.user_id = EXCLUDED.user_id THEN push_subscriptions.from_alert_id ELSE EXCLUDED.from_alert_id END`,
      [userId, s.endpoint, s.p256dh, s.auth],
    );
    const dropped = await tx.query(
      `DELETE FROM push_subscriptions WHERE id IN (
         SELECT id FROM push_subscriptions WHERE user_id = $1 ORDER BY subscribed_at DESC, id DESC OFFSET $2
       ) RETURNING id`,
      [userId, maxDevices],
    );
    return { dropped: dropped.length };
  });
}

/** Forgets this user's subscription of that endpoint; whether there was one. */
export async function deleteSubscription(q: Queryable, userId: number, endpoint: string): Promise<boolean> {
  return (await q.query('DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2 RETURNING id', [userId, endpoint])).length > 0;
}

/** Forgets a subscription the push service says is gone (404, 410). */
export async function dropSubscription(q: Queryable, id: number): Promise<void> {
  await q.query('DELETE FROM push_subscriptions WHERE id = $1', [id]);
}

/** These devices took a post: when they last did, and no failure in a row any more. */
export async function markSent(q: Queryable, ids: readonly number[]): Promise<void> {
  if (ids.length) await q.query('UPDATE push_subscriptions SET last_sent_at = now(), failures = 0, failing_since = NULL WHERE id = ANY($1)', [ids]);
}

/** One more failed post in a row for this device: how many now, and for how long (seconds) it has been failing; null when it is gone. */
export async function recordFailure(q: Queryable, id: number): Promise<{ failures: number; failingForS: number } | null> {
  const [row] = await q.query<{ failures: number; failing_for_s: number }>(
    `UPDATE push_subscriptions SET failures = failures + 1, failing_since = COALESCE(failing_since, now()) WHERE id = $1
     RETURNING failures, extract(epoch FROM now() - failing_since)::float8 AS failing_for_s`,
    [id],
  );
  return row ? { failures: row.failures, failingForS: row.failing_for_s } : null;
}

export async function countSubscriptions(q: Queryable, userId: number): Promise<number> {
  const [row] = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM push_subscriptions WHERE user_id = $1', [userId]);
  return row?.n ?? 0;
}

/** The kinds a user chose, or null when they never chose (every kind). */
export async function pushKindsOf(q: Queryable, userId: number): Promise<string[] | null> {
  const [row] = await q.query<{ push_kinds: string[] | null }>('SELECT push_kinds FROM users WHERE id = $1', [userId]);
  return row?.push_kinds ?? null;
}

export async function setPushKinds(q: Queryable, userId: number, kinds: readonly string[]): Promise<void> {
  await q.query('UPDATE users SET push_kinds = $2 WHERE id = $1', [userId, kinds]);
}

/** Every subscription of an active user, with what the user may see and chose to receive. */
export interface Recipient extends PushSubscriptionRow {
  portfolioAuth: string[];
  kinds: string[] | null;
  /** Failed posts in a row. */
  failures: number;
}

/**
 * Every subscription of an active user, the users taken in turn (each one's first device, then each
 * one's second...): one user's many devices do not all come before another user's one.
 */
export async function recipients(q: Queryable): Promise<Recipient[]> {
  const rows = await q.query<{
    id: number;
    user_id: number;
    endpoint: string;
    p256dh: string;
    auth: string;
    from_alert_id: string;
    portfolio_auth: string[];
    push_kinds: string[] | null;
    failures: number;
  }>(
    `SELECT s.id, s.user_id, s.endpoint, s.p256dh, s.auth, s.from_alert_id, s.failures, u.portfolio_auth, u.push_kinds
       FROM push_subscriptions s JOIN users u ON u.id = s.user_id WHERE u.status = 'active'
      ORDER BY row_number() OVER (PARTITION BY s.user_id ORDER BY s.id), s.id`,
  );
  return rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    endpoint: r.endpoint,
    p256dh: r.p256dh,
    auth: r.auth,
    fromAlertId: Number(r.from_alert_id),
    portfolioAuth: r.portfolio_auth,
    kinds: r.push_kinds,
    failures: r.failures,
  }));
}

/** The subscriptions of active users: the dispatcher posts nothing more to any other it still had queued. */
export async function subscriptionIds(q: Queryable): Promise<number[]> {
  const rows = await q.query<{ id: number }>(`SELECT s.id FROM push_subscriptions s JOIN users u ON u.id = s.user_id WHERE u.status = 'active'`);
  return rows.map((r) => r.id);
}

export interface PendingAlert {
  id: number;
  type: string;
  message: string;
  /** epoch seconds */
  at: number;
  accountId: number | null;
  /** The account's category (null for an alert about the whole system). */
  teikoCategory: string | null;
  /** The category of the master the message names, and the message for a user who may not see it (alertTextFor). */
  masterCategory: string | null;
  messageOutside: string | null;
}

/** Whether any device is subscribed: without one, the dispatcher reads nothing else. */
export async function anySubscription(q: Queryable): Promise<boolean> {
  const [row] = await q.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM push_subscriptions) AS any');
  return row?.any ?? false;
}

/**
 * The alerts after the push cursor and after `after` (what this leader has queued already), at most
 * `limit`, oldest first; none older than the oldest subscription (a device receives the alerts
 * recorded after it subscribed). Only the leader reads it.
 */
export async function alertsToPush(q: Queryable, limit: number, after = 0): Promise<{ cursor: number; alerts: PendingAlert[] }> {
  const [cursor] = await q.query<{ from_id: string }>(
    `SELECT GREATEST(c.last_alert_id, $1::bigint, COALESCE((SELECT min(from_alert_id) FROM push_subscriptions), 0)) AS from_id
       FROM push_cursor c WHERE c.id = 1`,
    [after],
  );
  const from = Number(cursor?.from_id ?? 0);
  const rows = await q.query<{
    id: string; type: string; message: string; datetime: Date; account_id: number | null; teiko_category: string | null; master_category: string | null; message_outside: string | null;
  }>(
    `SELECT al.id, al.type, al.message, al.datetime, al.account_id, a.teiko_category, m.teiko_category AS master_category, al.message_outside
       FROM alerts al LEFT JOIN accounts a ON a.id = al.account_id LEFT JOIN accounts m ON m.id = al.master_account_id
      WHERE al.id > $1 ORDER BY al.id LIMIT $2`,
    [from, limit],
  );
  return {
    cursor: from,
    alerts: rows.map((r) => ({
      id: Number(r.id),
      type: r.type,
      message: r.message,
      at: Math.floor(r.datetime.getTime() / 1000),
      accountId: r.account_id,
      teikoCategory: r.teiko_category,
      masterCategory: r.master_category,
      messageOutside: r.message_outside,
    })),
  };
}

export async function advancePushCursor(q: Queryable, lastAlertId: number): Promise<void> {
  await q.query('UPDATE push_cursor SET last_alert_id = GREATEST(last_alert_id, $1) WHERE id = 1', [lastAlertId]);
}
