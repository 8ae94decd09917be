/**
 * Alerts pushed to phones (Web Push), against a local stand-in of a push service that checks what a
 * real one checks and decrypts what a browser would: who receives which alert, what the message
 * holds, the push headers, the allow-list of push services, and subscriptions that are gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAlerts } from '#server/db/alerts-repo.ts';
import { BACKENDS, http, login, startServer, type TestServer } from './helpers/server.ts';
import { startPushService, type PushServiceStandIn } from './helpers/push-service.ts';

describe.each(BACKENDS)('alerts pushed to phones (%s)', (backend) => {
  let server: TestServer;
  let service: PushServiceStandIn;
  let admin: string;
  let manager: string;
  let investor: string;

  beforeAll(async () => {
    service = await startPushService();
    server = await startServer(backend, { push: { serviceOrigins: [service.origin] } });
    [admin, manager, investor] = await Promise.all([login(server, 'admin'), login(server, 'manager'), login(server, 'investor')]);
  });
  afterAll(async () => {
    await server?.close();
    await service?.close();
  });

  /** Runs delivery rounds until `device` has `count` more messages (or fails after 5 s). */
  async function deliveredTo(device: string, before: number, count = 1) {
    await expect
      .poll(
        async () => {
          await server.app.pushDispatcher.tick();
          return service.received.filter((r) => r.device === device).length;
        },
        { timeout: 5_000, interval: 50 },
      )
      .toBe(before + count);
    return service.received.filter((r) => r.device === device).slice(before);
  }
  const countFor = (device: string) => service.received.filter((r) => r.device === device).length;

  it('gives the VAPID key to a signed-in user only', async () => {
    expect((await http(server, 'GET', '/api/push/vapid-public-key')).status).toBe(401);
    const res = await http<{ public_key: string }>(server, 'GET', '/api/push/vapid-public-key', { key: investor });
    expect(res.status).toBe(200);
    // An uncompressed P-256 point, base64url: 65 bytes.
    expect(Buffer.from(res.body.public_key, 'base64url')).toHaveLength(65);
    expect(Buffer.from(res.body.public_key, 'base64url')[0]).toBe(4);
  });

  it('refuses a subscription to a push service outside the allow-list, and malformed keys', async () => {
    const { subscription } = service.browser('stray');
    for (const endpoint of ['http://127.0.0.1:6379/x', 'https://fcm.googleapis.com/fcm/send/x', 'http://169.254.169.254/latest']) {
      const res = await http(server, 'POST', '/api/push/subscriptions', { key: investor, body: { ...subscription, endpoint } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: `Push service not allowed: ${new URL(endpoint).origin}` });
    }
    const badKey = await http(server, 'POST', '/api/push/subscriptions', { key: investor, body: { ...subscription, keys: { p256dh: 'abc', auth: subscription.keys.auth } } });
    expect(badKey.status).toBe(400);
    expect((await http(server, 'POST', '/api/push/subscriptions', { body: subscription })).status).toBe(401);
  });

  it('delivers a bridge alert to every subscribed user, signed, encrypted, with urgency, topic and a short TTL', async () => {
    const phone = service.browser('investor-phone');
    const tablet = service.browser('manager-tablet');
    const sub1 = await http<{ data: { kinds: string[]; devices: number } }>(server, 'POST', '/api/push/subscriptions', { key: investor, body: phone.subscription });
    expect(sub1.status).toBe(200);
    expect(sub1.body.data).toEqual({ kinds: ['drawdown', 'margin', 'equity_stop', 'guard', 'copy', 'ping', 'bridge'], devices: 1 });
    expect((await http(server, 'POST', '/api/push/subscriptions', { key: manager, body: tablet.subscription })).status).toBe(200);
    const before = [countFor('investor-phone'), countFor('manager-tablet')] as const;

    expect((await http(server, 'POST', '/api/bridge/stop', { key: admin })).status).toBe(200);
    const [onPhone] = await deliveredTo('investor-phone', before[0]);
    await deliveredTo('manager-tablet', before[1]);

    const key = (await http<{ public_key: string }>(server, 'GET', '/api/push/vapid-public-key', { key: investor })).body.public_key;
    expect(onPhone!.vapidKey).toBe(key);
    expect(onPhone!.claims.aud).toBe(service.origin);
    expect(onPhone!.claims.sub).toBe('mailto:tests@copy-monitor.invalid');
    expect(onPhone!.claims.exp * 1000).toBeGreaterThan(Date.now());
    expect(onPhone!.claims.exp * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600 * 1000);
    expect(onPhone!.headers.ttl).toBe('600');
    expect(onPhone!.headers.urgency).toBe('high');
    expect(onPhone!.headers.topic).toBe('bridge-all');
    expect(JSON.parse(onPhone!.text)).toMatchObject({
      title: 'Data bridge',
      body: 'Data bridge stopped by admin: copying paused.',
      url: '/',
      tag: 'bridge-all',
    });
    expect((await http(server, 'POST', '/api/bridge/start', { key: admin })).status).toBe(200);
    await deliveredTo('investor-phone', before[0] + 1);
  });

  it('delivers an account’s alert only to users who may see that account', async () => {
    const [sma] = await server.app.db.query<{ id: number; account_name: string }>("SELECT id, account_name FROM accounts WHERE teiko_category = 'SMA' ORDER BY id LIMIT 1");
    const [fx] = await server.app.db.query<{ id: number }>("SELECT id FROM accounts WHERE teiko_category = 'global forex' ORDER BY id LIMIT 1");
    const investorBefore = countFor('investor-phone');
    const managerBefore = countFor('manager-tablet');
    const at = Date.now() / 1000;
    await insertAlerts(server.app.db, [{ type: 'drawdown', message: `Drawdown of ${sma!.account_name} at 12.40 %`, at, accountId: sma!.id }]);
    const [toManager] = await deliveredTo('manager-tablet', managerBefore);
    expect(JSON.parse(toManager!.text)).toMatchObject({ title: 'Drawdown alert', url: '/accounts', tag: `drawdown-${sma!.id}` });
    expect(toManager!.headers.topic).toBe(`drawdown-${sma!.id}`);
    // The investor (Global FX only) may not see the SMA account.
    await insertAlerts(server.app.db, [{ type: 'margin', message: 'Margin level 80 %', at, accountId: fx!.id }]);
    const [margin] = await deliveredTo('investor-phone', investorBefore);
    expect(JSON.parse(margin!.text)).toMatchObject({ title: 'Margin alert', body: 'Margin level 80 %' });
    expect(countFor('investor-phone')).toBe(investorBefore + 1);
  });

  it('sends only the kinds a user chose, never slippage, and nothing found stale', async () => {
    const chose = await http<{ kinds: string[] }>(server, 'PUT', '/api/push/preferences', { key: investor, body: { kinds: ['margin', 'equity_stop'] } });
    expect(chose.status).toBe(200);
    expect(chose.body.kinds).toEqual(['margin', 'equity_stop']);
    expect((await http<{ kinds: string[] }>(server, 'GET', '/api/push/preferences', { key: investor })).body).toEqual({ kinds: ['margin', 'equity_stop'], devices: 1 });
    const investorBefore = countFor('investor-phone');
    const managerBefore = countFor('manager-tablet');
    const [fx] = await server.app.db.query<{ id: number }>("SELECT id FROM accounts WHERE teiko_category = 'global forex' ORDER BY id LIMIT 1");
    const now = Date.now() / 1000;
    await insertAlerts(server.app.db, [
      { type: 'drawdown', message: 'not chosen by the investor', at: now, accountId: fx!.id },
      { type: 'slippage', message: 'never pushed', at: now, accountId: fx!.id },
      { type: 'margin', message: 'recorded 20 minutes ago', at: now - 1200, accountId: fx!.id },
      { type: 'equity_stop', message: 'Equity stop fired', at: now, accountId: fx!.id },
    ]);
    const [stop] = await deliveredTo('investor-phone', investorBefore);
    expect(JSON.parse(stop!.text)).toMatchObject({ body: 'Equity stop fired', url: '/copy' });
    // The manager chose nothing (every kind): the drawdown and the stop, not the slippage nor the stale one.
    const toManager = await deliveredTo('manager-tablet', managerBefore, 2);
    expect(toManager.map((r) => (JSON.parse(r.text) as { body: string }).body)).toEqual(['not chosen by the investor', 'Equity stop fired']);
  });

  it('forgets a subscription its push service says is gone, and one the user turns off', async () => {
    service.answer('manager-tablet', 410);
    const before = countFor('manager-tablet');
    expect((await http(server, 'POST', '/api/bridge/stop', { key: admin })).status).toBe(200);
    await deliveredTo('manager-tablet', before);
    await expect.poll(async () => (await http<{ devices: number }>(server, 'GET', '/api/push/preferences', { key: manager })).body.devices).toBe(0);

    const phone = service.browser('investor-phone').subscription;
    expect((await http(server, 'POST', '/api/push/subscriptions', { key: investor, body: phone })).status).toBe(200);
    const off = await http(server, 'DELETE', '/api/push/subscriptions', { key: investor, body: { endpoint: phone.endpoint } });
    expect(off.status).toBe(200);
    expect((await http<{ devices: number }>(server, 'GET', '/api/push/preferences', { key: investor })).body.devices).toBe(0);
    const after = countFor('investor-phone');
    expect((await http(server, 'POST', '/api/bridge/start', { key: admin })).status).toBe(200);
    await server.app.pushDispatcher.tick();
    await server.app.pushDispatcher.tick();
    expect(countFor('investor-phone')).toBe(after);
  });
});
