import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, http, login, startServer, type TestServer } from './helpers/server.ts';
import { connect, ticket } from './helpers/ws.ts';

type User = 'admin' | 'manager' | 'investor';

/** Who may read what (docs/product.md#roles, docs/architecture.md demo users): 200 where allowed, 403 where not, 401 without a session. */
const READS: [string, Record<User, number>][] = [
  ['/api/brokers/accounts/info', { admin: 200, manager: 200, investor: 200 }],
  ['/api/brokers/accounts/info?portfolio=Global%20FX', { admin: 200, manager: 200, investor: 200 }],
  ['/api/brokers/accounts/info?portfolio=SMA', { admin: 200, manager: 200, investor: 403 }],
  ['/api/brokers/accounts/info?portfolio=AMC', { admin: 200, manager: 403, investor: 403 }],
  ['/api/brokers/accounts/info?only_broker_name=true', { admin: 200, manager: 200, investor: 200 }],
  ['/api/brokers/accounts/historical-losses', { admin: 200, manager: 200, investor: 200 }],
  ['/api/copy-rules/infos', { admin: 200, manager: 200, investor: 200 }],
  ['/api/stats/mae_mfe?symbol=USDJPY', { admin: 200, manager: 200, investor: 200 }],
  ['/api/brokers/accounts/historical_infos', { admin: 200, manager: 200, investor: 200 }],
  ['/api/alerts/infos', { admin: 200, manager: 200, investor: 200 }],
  ['/api/bridge/status', { admin: 200, manager: 200, investor: 200 }],
  ['/api/stats/rebates?portfolio=All', { admin: 200, manager: 200, investor: 403 }],
  ['/api/stats/rebates?portfolio=SMA&group_by=broker', { admin: 200, manager: 200, investor: 403 }],
  ['/api/stats/rebates?portfolio=Consolidated%20Portfolio', { admin: 200, manager: 403, investor: 403 }],
];

describe.each(BACKENDS)('permissions of every read and socket, per demo user (%s)', (backend) => {
  let server: TestServer;
  const keys = {} as Record<User, string>;
  beforeAll(async () => {
    server = await startServer(backend);
    for (const u of ['admin', 'manager', 'investor'] as const) keys[u] = await login(server, u);
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(READS)('GET %s', async (path, expected) => {
    expect((await http(server, 'GET', path)).status).toBe(401);
    for (const user of ['admin', 'manager', 'investor'] as const) {
      const res = await http<{ message?: string }>(server, 'GET', path, { key: keys[user] });
      expect({ user, status: res.status }).toEqual({ user, status: expected[user] });
      if (res.status === 403) expect(res.body.message).toMatch(/^Forbidden: /);
    }
  });

  it('accounts of another portfolio are answered like unknown ones by account-level reads', async () => {
    const all = await http<{ data: { account_id: string; teiko_category: string }[] }>(server, 'GET', '/api/brokers/accounts/info', { key: keys.admin });
    const amc = all.body.data.find((a) => a.teiko_category === 'AMC')!.account_id;
    for (const path of [
      `/api/brokers/accounts/max-drawdown?account=${amc}`,
      `/api/brokers/historical-deals?account=${amc}`,
      `/api/fees/terms?account=${amc}`,
      `/api/fees?account=${amc}&period=2026-10`,
      `/api/statements?account=${amc}&period=2026-10&format=json`,
      `/api/statements?account=${amc}&period=2026-10&format=pdf`,
    ]) {
      expect((await http(server, 'GET', path, { key: keys.admin })).status).toBe(200);
      const unknown = await http(server, 'GET', path.replace(amc, 'no-such-account'), { key: keys.manager });
      expect(unknown.status).toBe(404);
      for (const who of ['manager', 'investor'] as const) {
        const res = await http(server, 'GET', path, { key: keys[who] });
        expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { message: `Account not found: ${amc}` } });
      }
    }
  });

  it('refuses every write to a caller without the permission with 403 before it reads the body, whatever the body', async () => {
    const writes = server.app.routeList.filter(
      (r) => r.method !== 'GET' && r.method !== 'HEAD' && r.url.startsWith('/api/') && !['/api/login', '/api/logout', '/api/account/password', '/api/ws-ticket'].includes(r.url) && !r.url.startsWith('/api/ingest/') && !r.url.startsWith('/api/push/'),
    );
    // Every write route of the API but signing in and out, one's own password, one's own devices' alerts (docs/push.md) and the agents'.
    expect(writes.length).toBeGreaterThanOrEqual(10);
    for (const route of writes) {
      const url = route.url.replace(':id', '1');
      for (const body of [{}, { nonsense: true }, undefined]) {
        const res = await http<{ message: string }>(server, route.method, url, { key: keys.investor, ...(body === undefined ? {} : { body }) });
        expect({ route: `${route.method} ${url}`, status: res.status }).toEqual({ route: `${route.method} ${url}`, status: 403 });
        expect(res.body.message).toMatch(/^Forbidden: /);
      }
    }
  });

  it.each([
    ['Consolidated Portfolio', { admin: 'open', manager: 4403, investor: 4403 }],
    ['Global FX', { admin: 'open', manager: 'open', investor: 'open' }],
    ['AMC', { admin: 'open', manager: 4403, investor: 4403 }],
  ] as const)('socket on %s', async (portfolio, expected) => {
    for (const user of ['admin', 'manager', 'investor'] as const) {
      for (const [path, extra] of [
        ['/ws/brokers/live-positions-aggregate', {}],
        ['/ws/brokers/live-positions-aggregate-by', { aggregate_by: 'broker' }],
      ] as const) {
        const client = await connect(server, path, { token: await ticket(server, keys[user]), portfolio, ...extra });
        if (expected[user] === 'open') {
          const first = (client.messages[0] ?? (await client.next())) as { positionsAggregate: unknown[] };
          expect(Array.isArray(first.positionsAggregate)).toBe(true);
          client.socket.close();
        } else {
          expect((await client.closed).code).toBe(expected[user]);
        }
      }
    }
  });
});
