/**
 * Push that one user cannot clog (issue 39): at most 10 devices per user, the oldest dropped;
 * subscriptions validated as strictly as the rest of the API (no control characters, no unknown
 * fields, the allow-list matched on parsed origins, a P-256 point, canonical base64url); and a
 * dispatcher that posts to each device on its own, so that slow or failing devices delay no one
 * else, and a device that keeps failing is dropped. Against the local push-service stand-in, which
 * can hold a device's posts (a slow device) or refuse them (a failing one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAlerts } from '#server/db/alerts-repo.ts';
import { BACKENDS, http, login, startServer, type TestServer } from './helpers/server.ts';
import { startPushService, type PushServiceStandIn } from './helpers/push-service.ts';

type Subscribed = { message: string; data: { kinds: string[]; devices: number } };
const POLL = { timeout: 10_000, interval: 50 };

describe.each(BACKENDS)('push that one user cannot clog (%s)', (backend) => {
  let server: TestServer;
  let service: PushServiceStandIn;
  let manager: string;
  let investor: string;

  beforeAll(async () => {
    service = await startPushService();
    server = await startServer(backend, { push: { serviceOrigins: [service.origin, 'https://*.push.apple.com'] } });
    [manager, investor] = await Promise.all([login(server, 'manager'), login(server, 'investor')]);
  });
  afterAll(async () => {
    await service?.close();
    await server?.close();
  });

  const subscribe = (key: string, body: unknown) => http<Subscribed>(server, 'POST', '/api/push/subscriptions', { key, body });
  const endpointsOf = async (username: string) =>
    (
      await server.app.db.query<{ endpoint: string }>(
        'SELECT s.endpoint FROM push_subscriptions s JOIN users u ON u.id = s.user_id WHERE u.username = $1 ORDER BY s.id',
        [username],
      )
    ).map((r) => decodeURIComponent(r.endpoint.replace(/^.*\/push\//, '')));
  const countFor = (device: string) => service.received.filter((r) => r.device === device).length;
  const bridgeAlert = (message: string) => insertAlerts(server.app.db, [{ type: 'bridge', message, at: Date.now() / 1000, accountId: null }]);
  async function forgetAll(key: string, devices: readonly string[]) {
    for (const device of devices) {
      await http(server, 'DELETE', '/api/push/subscriptions', { key, body: { endpoint: `${service.origin}/push/${encodeURIComponent(device)}` } });
    }
  }

  it('keeps at most 10 devices a user: the 11th drops the least recently subscribed', async () => {
    const devices = Array.from({ length: 11 }, (_, i) => `limit-${i}`);
    for (const [i, device] of devices.slice(0, 10).entries()) {
      const res = await subscribe(investor, service.browser(device).subscription);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ message: 'Notifications are on for this device.', data: { devices: i + 1 } });
    }
    // The first device subscribes again (the app opened on it): it becomes the most recent.
    const again = await subscribe(investor, service.browser('limit-0').subscription);
    expect(again.body.data.devices).toBe(10);
    const eleventh = await subscribe(investor, service.browser('limit-10').subscription);
    expect(eleventh.status).toBe(200);
    expect(eleventh.body).toMatchObject({
      message: 'Notifications are on for this device. At most 10 devices receive them: your least recently subscribed one no longer does.',
      data: { devices: 10 },
    });
    expect(await endpointsOf('investor')).toEqual(devices.filter((d) => d !== 'limit-1'));

    const before = countFor('limit-10');
    await bridgeAlert('limit: an alert after the 11th device');
    await expect
      .poll(async () => {
        await server.app.pushDispatcher.tick();
        return countFor('limit-10') + countFor('limit-0');
      }, POLL)
      .toBe(before + 2);
    await server.app.pushDispatcher.idle();
    expect(countFor('limit-1')).toBe(0);
    await forgetAll(investor, devices);
  });

  it('keeps at most 10 when subscriptions race each other', async () => {
    const devices = Array.from({ length: 16 }, (_, i) => `race-${i}`);
    const answers = await Promise.all(devices.map((d) => subscribe(manager, service.browser(d).subscription)));
    expect(answers.map((a) => a.status)).toEqual(devices.map(() => 200));
    expect(await endpointsOf('manager')).toHaveLength(10);
    await forgetAll(manager, devices);
    expect(await endpointsOf('manager')).toHaveLength(0);
  });

  it('refuses control characters, unknown fields, look-alike push services and keys that are no P-256 point (400, never 500)', async () => {
    const { subscription } = service.browser('strict');
    const { endpoint, keys } = subscription;
    const notOnTheCurve = (() => {
      const raw = Buffer.from(keys.p256dh, 'base64url');
      raw[64] = raw[64]! ^ 1;
      return raw.toString('base64url');
    })();
    const cases: [string, unknown, RegExp][] = [
      ['a NUL at the end of the endpoint', { ...subscription, endpoint: `${endpoint}\u0000` }, /^endpoint must not contain control characters$/],
      ['a NUL inside the endpoint', { ...subscription, endpoint: `${endpoint}\u0000x` }, /^endpoint must not contain control characters/],
      ['a line feed', { ...subscription, endpoint: `${endpoint}\nHost: x` }, /^endpoint must not contain control characters/],
      ['DEL', { ...subscription, endpoint: `${endpoint}\u007f` }, /^endpoint must not contain control characters/],
      ['a C1 control', { ...subscription, endpoint: `${endpoint}\u0085` }, /^endpoint must not contain control characters/],
      ['not a URL', { ...subscription, endpoint: 'push-me' }, /^endpoint must be an http\(s\) URL$/],
      ['an unknown field', { ...subscription, kinds: ['bridge'] }, /^Unrecognized key: "kinds"$/],
      ['an unknown key field', { ...subscription, keys: { ...keys, extra: 'x' } }, /^keys: Unrecognized key: "extra"$/],
      ['no keys', { endpoint }, /^keys: /],
      ['an empty host under a wildcard', { ...subscription, endpoint: 'https://.push.apple.com/x' }, /^Push service not allowed: https:\/\/\.push\.apple\.com$/],
      ['an empty label under a wildcard', { ...subscription, endpoint: 'https://a..push.apple.com/x' }, /^Push service not allowed: /],
      ['a percent-encoded dot', { ...subscription, endpoint: 'https://%2e.push.apple.com/x' }, /^Push service not allowed: /],
      ['a hyphen-led label', { ...subscription, endpoint: 'https://-a.push.apple.com/x' }, /^Push service not allowed: /],
      ['a p256dh that is no point of P-256', { ...subscription, keys: { ...keys, p256dh: notOnTheCurve } }, /^keys\.p256dh is not a P-256 public key \(not a point on the curve\)$/],
      ['a compressed p256dh', { ...subscription, keys: { ...keys, p256dh: Buffer.from(keys.p256dh, 'base64url').subarray(0, 33).toString('base64url') } }, /^keys\.p256dh must be an uncompressed P-256 public key: 65 bytes, 87 base64url characters$/],
      ['a p256dh of zeros', { ...subscription, keys: { ...keys, p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64)]).toString('base64url') } }, /not a point on the curve/],
      ['a p256dh not starting 0x04', { ...subscription, keys: { ...keys, p256dh: `A${keys.p256dh.slice(1)}` } }, /^keys\.p256dh must be an uncompressed P-256 public key \(its first byte 0x04\)$/],
      ['a padded p256dh', { ...subscription, keys: { ...keys, p256dh: `${keys.p256dh}=` } }, /^keys\.p256dh must be base64url/],
      ['a p256dh in base64', { ...subscription, keys: { ...keys, p256dh: `${keys.p256dh.slice(0, 86)}+` } }, /^keys\.p256dh must be base64url/],
      ['a 15-byte auth', { ...subscription, keys: { ...keys, auth: Buffer.alloc(15, 1).toString('base64url') } }, /^keys\.auth must be the authentication secret: 16 bytes, 22 base64url characters$/],
      ['a 17-byte auth', { ...subscription, keys: { ...keys, auth: Buffer.alloc(17, 1).toString('base64url') } }, /^keys\.auth must be the authentication secret/],
      ['an auth with stray bits', { ...subscription, keys: { ...keys, auth: `${keys.auth.slice(0, 21)}B` } }, /^keys\.auth is not canonical base64url/],
      ['a NUL in auth', { ...subscription, keys: { ...keys, auth: `${keys.auth.slice(0, 21)}\u0000` } }, /^keys\.auth must be base64url/],
    ];
    for (const [what, body, message] of cases) {
      const res = await subscribe(investor, body);
      expect(res.status, what).toBe(400);
      expect((res.body as unknown as { message: string }).message, what).toMatch(message);
    }
    const forget = await http<{ message: string }>(server, 'DELETE', '/api/push/subscriptions', { key: investor, body: { endpoint: `${endpoint}\u0000` } });
    expect(forget.status).toBe(400);
    expect(forget.body.message).toBe('endpoint must not contain control characters');
    const forgetMore = await http<{ message: string }>(server, 'DELETE', '/api/push/subscriptions', { key: investor, body: { endpoint, keys } });
    expect(forgetMore.status).toBe(400);
    expect(forgetMore.body.message).toBe('Unrecognized key: "keys"');
    const kinds = await http<{ message: string }>(server, 'PUT', '/api/push/preferences', { key: investor, body: { kinds: ['bridge'], devices: 3 } });
    expect(kinds.status).toBe(400);
    expect(kinds.body.message).toBe('Unrecognized key: "devices"');
    // Nothing of it was kept; the well-formed subscription is.
    expect(await endpointsOf('investor')).toEqual([]);
    expect((await subscribe(investor, subscription)).status).toBe(200);
    await forgetAll(investor, ['strict']);
  });

  it('one user’s slow devices do not delay another user’s alerts', async () => {
    // The manager's 10 devices answer nothing until released (a push service that hangs); the
    // investor's phone answers at once.
    const slow = Array.from({ length: 10 }, (_, i) => `slow-${i}`);
    for (const device of slow) {
      const { subscription } = service.browser(device);
      service.answer(device, 201, { hold: true });
      expect((await subscribe(manager, subscription)).status).toBe(200);
    }
    expect((await subscribe(investor, service.browser('fast-phone').subscription)).status).toBe(200);

    for (const [i, message] of ['slow: the first alert', 'slow: the second alert'].entries()) {
      await bridgeAlert(message);
      await expect
        .poll(async () => {
          await server.app.pushDispatcher.tick();
          return countFor('fast-phone');
        }, POLL)
        .toBe(i + 1);
      const [onPhone] = service.received.filter((r) => r.device === 'fast-phone').slice(i);
      expect(JSON.parse(onPhone!.text)).toMatchObject({ body: message });
      // Delivered while the slow devices hold the first alert's post, unanswered (their ten posts go
      // out alongside the phone's, in any order: the last may reach the service just after it).
      await expect.poll(() => service.pending(slow), POLL).toBe(10);
      expect(slow.map(countFor)).toEqual(slow.map(() => 1));
      // The second alert reached the phone while all ten were pending.
      if (i === 1) expect(onPhone!.pendingThen.filter((d) => slow.includes(d)).sort()).toEqual([...slow].sort());
    }
    // The slow devices have taken one post each (the first alert), the second waits behind it.
    expect(service.pending(slow)).toBe(10);

    // One of them is turned off meanwhile: what it still had queued is not posted.
    const [off, ...kept] = slow as [string, ...string[]];
    expect((await http(server, 'DELETE', '/api/push/subscriptions', { key: manager, body: { endpoint: `${service.origin}/push/${off}` } })).status).toBe(200);
    await server.app.pushDispatcher.tick();

    // Answered at last: each slow device gets the second alert too, in order.
    service.release(slow);
    for (const device of slow) service.answer(device, 201);
    await expect.poll(() => kept.map(countFor), POLL).toEqual(kept.map(() => 2));
    await server.app.pushDispatcher.idle();
    expect(countFor(off)).toBe(1);
    for (const device of kept) {
      expect(service.received.filter((r) => r.device === device).map((r) => (JSON.parse(r.text) as { body: string }).body)).toEqual([
        'slow: the first alert',
        'slow: the second alert',
      ]);
    }
    await forgetAll(manager, slow);
    await forgetAll(investor, ['fast-phone']);
  });
});

describe.each(BACKENDS)('devices that keep failing (%s)', (backend) => {
  let server: TestServer;
  let service: PushServiceStandIn;
  let manager: string;
  let investor: string;

  beforeAll(async () => {
    service = await startPushService();
    server = await startServer(backend, {
      push: {
        serviceOrigins: [service.origin],
        delivery: { concurrency: 4, slowConcurrency: 2, slowPerUser: 2, postTimeoutMs: 1_000, slowMs: 200, dropAfterFailures: 3, dropAfterS: 0 },
      },
    });
    [manager, investor] = await Promise.all([login(server, 'manager'), login(server, 'investor')]);
  });
  afterAll(async () => {
    await service?.close();
    await server?.close();
  });

  const countFor = (device: string) => service.received.filter((r) => r.device === device).length;
  const failuresOf = async (device: string) =>
    (await server.app.db.query<{ failures: number }>('SELECT failures FROM push_subscriptions WHERE endpoint = $1', [`${service.origin}/push/${device}`]))[0]
      ?.failures ?? null;
  /** Records a bridge alert and runs rounds until every named device has taken its post and the outcomes are recorded. */
  async function alertReaching(devices: readonly string[], message: string) {
    const before = devices.map(countFor);
    await insertAlerts(server.app.db, [{ type: 'bridge', message, at: Date.now() / 1000, accountId: null }]);
    await expect
      .poll(async () => {
        await server.app.pushDispatcher.tick();
        return devices.map(countFor);
      }, POLL)
      .toEqual(before.map((n) => n + 1));
    await server.app.pushDispatcher.idle();
  }

  it('drops a device after 3 failed posts in a row (a refusal or no answer in time), not one that answered in between', async () => {
    const devices = ['refusing', 'hanging', 'flaky', 'healthy'];
    for (const device of devices) expect((await http(server, 'POST', '/api/push/subscriptions', { key: investor, body: service.browser(device).subscription })).status).toBe(200);
    service.answer('refusing', 500);
    service.answer('hanging', 201, { hold: true });
    service.answer('flaky', 503);

    await alertReaching(devices, 'failing: 1');
    await alertReaching(devices, 'failing: 2');
    expect(await Promise.all(devices.map(failuresOf))).toEqual([2, 2, 2, 0]);
    // The flaky one answers once: its failures in a row start again.
    service.answer('flaky', 201);
    await alertReaching(devices, 'failing: 3');
    expect(await Promise.all(devices.map(failuresOf))).toEqual([null, null, 0, 0]);
    expect((await http<{ devices: number }>(server, 'GET', '/api/push/preferences', { key: investor })).body.devices).toBe(2);

    // Gone: nothing more is posted to them.
    service.answer('flaky', 503);
    const before = [countFor('refusing'), countFor('hanging')];
    await alertReaching(['flaky', 'healthy'], 'failing: 4');
    expect([countFor('refusing'), countFor('hanging')]).toEqual(before);
    expect(await failuresOf('flaky')).toBe(1);
    for (const device of ['flaky', 'healthy']) {
      await http(server, 'DELETE', '/api/push/subscriptions', { key: investor, body: { endpoint: `${service.origin}/push/${device}` } });
    }
  });

  it('never has more posts in flight than its bound, and slow devices only within the slow lane', async () => {
    // The manager's 10 devices answer after 400 ms (slower than the 200 ms that marks a device slow).
    const slow = Array.from({ length: 10 }, (_, i) => `lagging-${i}`);
    for (const device of slow) {
      const { subscription } = service.browser(device);
      service.answer(device, 201, { delayMs: 400 });
      expect((await http(server, 'POST', '/api/push/subscriptions', { key: manager, body: subscription })).status).toBe(200);
    }
    expect((await http(server, 'POST', '/api/push/subscriptions', { key: investor, body: service.browser('steady').subscription })).status).toBe(200);

    // First alert: every device is new, so the slow ones take the 4 slots in turns; the investor's
    // phone, second in the users' turn, goes in the first four.
    await alertReaching([...slow, 'steady'], 'bound: 1');
    expect(service.peakPending()).toBe(4);
    // Now known slow: at most 2 of their posts at once (the slow lane), the steady phone unhindered.
    await alertReaching([...slow, 'steady'], 'bound: 2');
    const second = service.received.filter((r) => r.device === 'steady').at(-1)!;
    expect(second.pendingThen.length).toBeLessThanOrEqual(2);
    expect(service.peakPending()).toBe(4);
    for (const device of slow) await http(server, 'DELETE', '/api/push/subscriptions', { key: manager, body: { endpoint: `${service.origin}/push/${device}` } });
    await http(server, 'DELETE', '/api/push/subscriptions', { key: investor, body: { endpoint: `${service.origin}/push/steady` } });
  });
});
