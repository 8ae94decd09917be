/**
 * An instance cut off from Redis (a partition, its Redis lost) while another leads: a bridge stop
 * sent to it changes nothing and says so (503), never 'Bridge stopped.' while the leader copies on;
 * it is not ready and its sign-ins are 503, not a false 429; a change saved while the leader could
 * not be told is applied by the leader from the database within seconds; back on Redis, the same
 * request is answered once the leader applied it.
 * Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set (.ci/run sets both).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../e2e/tcp-proxy.ts';
import { CLUSTER_DB, CLUSTER_REDIS, freePort, freshSchema, sql, startInstance, stopInstance, type Instance } from './helpers/cluster.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function call(url: string, method: string, path: string, key?: string, body?: unknown): Promise<{ status: number; body: { message?: string } & Record<string, unknown> }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...(key ? { 'x-api-key': key } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as { message?: string } };
}

/** The copy engine as an instance's metrics show it: 1 copying (it leads, the bridge on as it applied it), else 0. */
async function copying(instance: Instance): Promise<number> {
  const text = await (await fetch(`${instance.url}/metrics`)).text();
  return Number(/^copy_engine_copying (\S+)$/m.exec(text)?.[1]);
}

describe.runIf(CLUSTER_DB && CLUSTER_REDIS)('an instance cut off from Redis while another leads', () => {
  let leader: Instance;
  let cut: Instance;
  let proxy: TcpProxy;
  let schema: string;
  let drop: () => Promise<void>;
  let key = '';

  beforeAll(async () => {
    ({ schema, drop } = await freshSchema('partition'));
    const env = { DATABASE_URL: CLUSTER_DB!, DATABASE_SCHEMA: schema, REDIS_URL: CLUSTER_REDIS!, DEMO: '1' };
    leader = await startInstance(env, await freePort());
    const redis = new URL(CLUSTER_REDIS!);
    proxy = await startTcpProxy(Number(redis.port || 6379));
    cut = await startInstance({ ...env, REDIS_URL: `redis://${redis.host.replace(/:\d+$/, '')}:${new URL(proxy.url).port}` }, await freePort());
    expect(await copying(leader)).toBe(1);
    expect(await copying(cut)).toBe(0);
    const signIn = await call(cut.url, 'POST', '/api/login', undefined, { username: 'admin', password: 'admin-demo' });
    expect(signIn.status).toBe(200);
    key = (signIn.body as { data: { api_key: string } }).data.api_key;
  }, 180_000);

  afterAll(async () => {
    await Promise.all([leader, cut].filter(Boolean).map((i) => stopInstance(i)));
    await proxy?.close();
    await drop?.();
  }, 60_000);

  it('refuses a bridge stop while it cannot reach the leader: nothing changed, and it says so', async () => {
    proxy.cut();
    await sleep(500);
    const stop = await call(cut.url, 'POST', '/api/bridge/stop', key);
    expect(stop.status).toBe(503);
    expect(stop.body.message).toMatch(/nothing was changed/);
    expect((await call(leader.url, 'GET', '/api/bridge/status', key)).body).toMatchObject({ data: { running: true } });
    expect(await copying(leader)).toBe(1);
    const audit = await sql<{ n: number }>(schema, "SELECT count(*)::int AS n FROM audit_log WHERE action LIKE 'bridge%'");
    expect(audit[0]!.n).toBe(0);
  });

  it('is not ready while Redis is out of reach, with the reason, and answers sign-ins 503 rather than a false 429', async () => {
    const ready = await call(cut.url, 'GET', '/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ ready: false, database: { ok: true }, redis: { ok: false } });
    expect(String((ready.body.redis as { message: string }).message)).toMatch(/Redis/);
    const signIn = await call(cut.url, 'POST', '/api/login', undefined, { username: 'admin', password: 'admin-demo' });
    expect(signIn.status).toBe(503);
    expect(signIn.body.message).toMatch(/cannot count attempts/);
    expect((await call(leader.url, 'GET', '/ready')).status).toBe(200);
  }, 30_000);

  it('has the leader apply a stop saved while it could not be told, from the database, within seconds', async () => {
    // What an instance that saved the stop and lost Redis before telling the leader leaves behind.
    await sql(schema, 'UPDATE bridge_state SET running = false, changed_at = now() WHERE id = 1');
    await expect.poll(() => copying(leader), { timeout: 12_000, interval: 250 }).toBe(0);
    await sql(schema, 'UPDATE bridge_state SET running = true, changed_at = now() WHERE id = 1');
    await expect.poll(() => copying(leader), { timeout: 12_000, interval: 250 }).toBe(1);
  }, 30_000);

  it('back on Redis, answers the stop once the leader applied it, and the start the same way', async () => {
    proxy.restore();
    await expect.poll(async () => (await call(cut.url, 'GET', '/ready')).status, { timeout: 20_000, interval: 250 }).toBe(200);
    const stop = await call(cut.url, 'POST', '/api/bridge/stop', key);
    expect(stop.status, JSON.stringify(stop.body)).toBe(200);
    expect(stop.body.message).toBe('Bridge stopped.');
    // Applied by the leader before the answer: no wait.
    expect(await copying(leader)).toBe(0);
    const start = await call(cut.url, 'POST', '/api/bridge/start', key);
    expect(start.status).toBe(200);
    expect(await copying(leader)).toBe(1);
  }, 40_000);
});
