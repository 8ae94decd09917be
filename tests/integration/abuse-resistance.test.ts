import http from 'node:http';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp, MarketLockedError } from '#server/app.ts';
import { WS_CLOSE } from '#server/routes/live-routes.ts';
import { hashPassword } from '#server/auth/password.ts';
import { BACKENDS, DEMO, http as call, login, simulatorOf, startServer, testConfig, type TestServer } from './helpers/server.ts';
import { connect, ticket } from './helpers/ws.ts';

/** Opens a socket and resolves with what the upgrade answered: a socket, or an HTTP status. */
function upgrade(server: TestServer, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ socket: WebSocket } | { status: number; body: string }>((resolve, reject) => {
    const socket = new WebSocket(server.url.replace(/^http/, 'ws') + path, { headers });
    socket.once('open', () => resolve({ socket }));
    socket.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    socket.once('error', reject);
  });
}

const until = async (check: () => boolean | Promise<boolean>, timeoutMs: number, stepMs = 20): Promise<number> => {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return Date.now() - start;
};

const pingFrame = (opcode: number, payload: Buffer) =>
  // FIN + opcode, masked with a zero key (so the payload goes as it is).
  Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | payload.length, 0, 0, 0, 0]), payload]);

/**
 * An attacker's client: upgrades, then only writes (protocol pings and JSON pings) and never reads
 * a byte, until it has written `bytes` or the server cut it off. Says whether it was cut off.
 */
function floodWithoutReading(server: TestServer, path: string, bytes: number, timeoutMs: number) {
  const url = new URL(server.url);
  const frames = Buffer.concat(
    Array.from({ length: 64 }, (_, i) =>
      i % 2 ? pingFrame(0x9, Buffer.alloc(125, 7)) : pingFrame(0x1, Buffer.from(JSON.stringify({ type: 'ping' }))),
    ),
  );
  return new Promise<{ upgraded: boolean; cutOff: boolean }>((resolve) => {
    const sock = net.connect(Number(url.port), url.hostname);
    let upgraded = false;
    let written = 0;
    const done = (cutOff: boolean) => {
      clearTimeout(timer);
      sock.destroy();
      resolve({ upgraded, cutOff });
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    sock.once('error', () => done(upgraded));
    sock.once('close', () => done(upgraded));
    sock.write(
      `GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    sock.once('data', (head: Buffer) => {
      upgraded = head.toString('latin1').startsWith('HTTP/1.1 101');
      sock.pause(); // never read again
      const pump = () => {
        while (written < bytes && !sock.destroyed) {
          written += frames.length;
          if (!sock.write(frames)) {
            sock.once('drain', pump);
            return;
          }
        }
        if (written >= bytes) done(false);
      };
      pump();
    });
  });
}

/** A sign-in from a chosen loopback address (127.0.0.x), as a second machine would. */
function loginFrom(server: TestServer, localAddress: string, body: unknown): Promise<number> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: '/api/login', method: 'POST', localAddress, headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe.each(BACKENDS)('what abusive or careless clients cannot do (%s)', (backend) => {
  let server: TestServer;
  let admin: string;
  let investor: string;

  beforeAll(async () => {
    server = await startServer(backend);
    [admin, investor] = await Promise.all([login(server, 'admin'), login(server, 'investor')]);
  });
  afterAll(async () => {
    await server.close();
  });

  describe('websockets', () => {
    it('cuts off a client that sends pings and never reads, and the server stays lean', async () => {
      const before = process.memoryUsage().rss;
      const paths = await Promise.all(
        Array.from({ length: 10 }, async () => `/ws/brokers/live-positions-aggregate?portfolio=Global%20FX&token=${await ticket(server, investor)}`),
      );
      // 10 raw clients that never read, each writing up to 4 MB of protocol pings and JSON pings.
      const results = await Promise.all(paths.map((p) => floodWithoutReading(server, p, 4 * 1024 * 1024, 8000)));
      expect(results.every((r) => r.upgraded)).toBe(true);
      // The server cut each one off long before it had sent its 4 MB.
      expect(results.map((r) => r.cutOff)).toEqual(Array(10).fill(true));
      await until(() => server.app.hub.socketCount === 0, 5000);
      const grown = (process.memoryUsage().rss - before) / 1024 / 1024;
      // Before the fix 10 such sockets took the server from 530 MB to 4.7 GB.
      expect(grown).toBeLessThan(100);
    });

    it('closes a socket that sends more than a few messages a second with 4429', async () => {
      const c = await connect(server, '/ws/brokers/live-positions-aggregate', { token: await ticket(server, investor), portfolio: 'Global FX' });
      for (let i = 0; i < 40; i++) c.socket.send(JSON.stringify({ type: 'ping' }));
      expect(await c.closed).toEqual({ code: WS_CLOSE.tooMany, reason: 'Too many messages' });
    });

    it('tells a burst of hundreds of pings why it is closed (4429), not with a reset', async () => {
      const c = await connect(server, '/ws/brokers/live-positions-aggregate', { token: await ticket(server, investor), portfolio: 'Global FX' });
      for (let i = 0; i < 345; i++) c.socket.send(JSON.stringify({ type: 'ping' }));
      expect(await c.closed).toEqual({ code: WS_CLOSE.tooMany, reason: 'Too many messages' });
    });

    it('closes the connection of an upgrade it refuses over HTTP', async () => {
      const url = new URL(server.url);
      for (const path of ['/api/brokers/accounts/info', '/ws/brokers/live-positions-aggregat%e']) {
        const outcome = await new Promise<{ status: string; closed: boolean }>((resolve) => {
          const sock = net.connect(Number(url.port), url.hostname);
          let head = '';
          sock.on('data', (d: Buffer) => (head += d.toString('latin1')));
          const timer = setTimeout(() => {
            sock.destroy();
            resolve({ status: head.split('\r\n')[0] ?? '', closed: false });
          }, 3000);
          sock.once('close', () => {
            clearTimeout(timer);
            resolve({ status: head.split('\r\n')[0] ?? '', closed: true });
          });
          sock.write(
            `GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: keep-alive, Upgrade\r\nUpgrade: websocket\r\n` +
              `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
          );
        });
        expect({ path, ...outcome }).toEqual({ path, status: expect.stringMatching(/^HTTP\/1\.1 4\d\d/) as string, closed: true });
      }
    });

    it('answers pings within the budget', async () => {
      const c = await connect(server, '/ws/brokers/live-positions-aggregate', { token: await ticket(server, investor), portfolio: 'Global FX' });
      const pong = new Promise<Buffer>((resolve) => c.socket.once('pong', resolve));
      c.socket.ping(Buffer.from('hi'));
      expect((await pong).toString()).toBe('hi');
      c.socket.send(JSON.stringify({ type: 'ping' }));
      await until(() => c.messages.some((m) => (m as { type?: string }).type === 'pong'), 5000);
      c.socket.close();
    });

    it('does not spend a ticket on a request it refuses, and refuses a token given twice with 400', async () => {
      const t = await ticket(server, investor);
      const bad = await upgrade(server, `/ws/brokers/live-positions-aggregate?token=${t}&portfolio=Global%20FX&nope=1`);
      expect(bad).toMatchObject({ status: 400 });
      const twice = await upgrade(server, `/ws/brokers/live-positions-aggregate?token=${t}&token=${t}`);
      expect(twice).toMatchObject({ status: 400 });
      // The same ticket still opens the feed.
      const ok = await connect(server, '/ws/brokers/live-positions-aggregate', { token: t, portfolio: 'Global FX' });
      const first = (ok.messages[0] ?? (await ok.next())) as { type: string };
      expect(first.type).toBe('snapshot');
      ok.socket.close();
    });

    it("accepts the server's own origin and refuses another with 403", async () => {
      const host = new URL(server.url).host;
      const own = await upgrade(server, `/ws/brokers/live-positions-aggregate?token=${await ticket(server, investor)}&portfolio=Global%20FX`, {
        origin: `http://${host}`,
      });
      expect('socket' in own).toBe(true);
      if ('socket' in own) own.socket.close();
      const t = await ticket(server, investor);
      const foreign = await upgrade(server, `/ws/brokers/live-positions-aggregate?token=${t}`, { origin: 'https://evil.example' });
      expect(foreign).toMatchObject({ status: 403 });
      if ('body' in foreign) expect((JSON.parse(foreign.body) as { message: string }).message).toMatch(/origin https:\/\/evil\.example/);
    });
  });

  describe('no request answers 500', () => {
    it.each([
      ['GET', '/api/brokers/accounts/historical_infos?date_id=1.0000', /date_id/],
      ['GET', '/api/brokers/accounts/max-drawdown?account=a%00b', /account must not contain control characters/],
      ['GET', '/api/brokers/historical-deals?account=%00', /account must not contain control characters/],
      ['GET', '/api/stats/mae_mfe?symbol=EUR%01USD', /symbol must not contain control characters/],
    ])('%s %s', async (method, path, message) => {
      const res = await call<{ message: string }>(server, method, path, { key: admin });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(message);
    });

    it('POST set-tp-sl-by-symbol with a price past what a price column holds', async () => {
      const res = await call<{ message: string }>(server, 'POST', '/api/positions/set-tp-sl-by-symbol', {
        key: admin,
        body: { category: 'Forex', symbol: 'EURJPY', direction: 'long', currency: 'USD', take_profit: 0.0001, stop_loss: 1e308 },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/stop_loss: must be at most 1000000000/);
    });

    it('POST allowed-pairs with a NUL in master_id', async () => {
      const res = await call<{ message: string }>(server, 'POST', '/api/copy-rules/allowed-pairs', {
        key: admin,
        body: { master_id: 'x\u0000y', new_allowed_pairs: [] },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/master_id must not contain control characters/);
    });
  });

  describe('authentication is decided on the routed path', () => {
    const variants = (path: string): string[] => [
      path.replace('/api/', '/%61pi/'),
      path.replace('/api/', '/%61%70%69/'),
      `/${path}`,
      path.replace('/api/', '/api//'),
      `${path}/`,
      path.toUpperCase(),
      path.replace(/\/([a-z])/, (_m, c: string) => `/%${c.charCodeAt(0).toString(16)}`),
    ];

    it('refuses every /api route and every variant of its path without a key', async () => {
      const routes = server.app.routeList.filter((r) => r.url.startsWith('/api/') && r.url !== '/api/login');
      expect(routes.length).toBeGreaterThan(12);
      for (const route of routes) {
        if (/openapi|docs/.test(route.url)) continue; // the public API description
        const path = route.url.replace(/:[a-z_]+/g, 'x');
        const exact = await call(server, route.method, path);
        expect({ route: `${route.method} ${path}`, status: exact.status }).toEqual({ route: `${route.method} ${path}`, status: 401 });
        for (const variant of variants(path)) {
          const res = await call(server, route.method, variant);
          expect({ variant, ok: [401, 404].includes(res.status) }).toEqual({ variant, ok: true });
        }
      }
      // The defect this guards: the percent-encoded path reached the route without a key.
      expect((await call(server, 'GET', '/%61pi/bridge/status')).status).toBe(401);
      expect((await call(server, 'GET', '/%61pi/bridge/status', { key: investor })).status).toBe(200);
    });

    it('sends Cache-Control: no-store on every API answer, errors included', async () => {
      for (const [path, key] of [
        ['/api/brokers/accounts/info', admin],
        ['/api/bridge/status', undefined],
        ['/api/nothing-here', admin],
      ] as const) {
        const res = await call(server, 'GET', path, key ? { key } : {});
        expect({ path, cache: res.headers.get('cache-control') }).toEqual({ path, cache: 'no-store' });
      }
    });
  });

  describe('Idempotency-Key', () => {
    const auditCount = async (action: string) =>
      (await server.app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log WHERE action = $1', [action]))[0]!.n;

    const burst = (path: string, key: string, body: unknown, n = 50) =>
      Promise.all(
        Array.from({ length: n }, () =>
          call<{ message: string }>(server, 'POST', path, { key: admin, headers: { 'idempotency-key': key }, body }),
        ),
      );

    it('acts once for 50 concurrent duplicates of a close, and all get the first answer', async () => {
      const market = simulatorOf(server.app);
      const master = [...market.snapshot().accounts.values()].find((a) => a.account_name === 'AMC FX Master')!;
      await market.openMasterTrade(master.id, 'EURCAD', 'Buy', 1);
      const before = await auditCount('positions.close');
      const body = { category: 'Forex', symbol: 'EURCAD', direction: 'long', currency: 'CAD', portfolio: 'AMC' };
      const answers = await burst('/api/positions/close-by-symbol', `close-${randomBytes(4).toString('hex')}`, body);
      expect(await auditCount('positions.close')).toBe(before + 1);
      const first = answers[0]!;
      expect(first.status).toBe(200);
      expect(first.body.message).toMatch(/^Close request sent: [1-9]\d* positions? of EURCAD closed\.$/);
      for (const a of answers) expect({ status: a.status, body: a.body }).toEqual({ status: 200, body: first.body });
      expect(answers.filter((a) => a.headers.get('idempotent-replay') === 'true')).toHaveLength(49);
    });

    it('acts once for 50 concurrent TP/SL edits and allowed-pairs changes', async () => {
      const tpsl = await auditCount('positions.set-tp-sl');
      const edit = await burst('/api/positions/set-tp-sl-by-symbol', `tp-${randomBytes(4).toString('hex')}`, {
        category: 'Forex', symbol: 'EURUSD', direction: 'short', currency: 'USD', take_profit: 0.9, stop_loss: 1.6,
      });
      expect(new Set(edit.map((a) => `${a.status} ${a.body.message}`)).size).toBe(1);
      expect(await auditCount('positions.set-tp-sl')).toBe(tpsl + (edit[0]!.status === 200 ? 1 : 0));

      const rules = await call<{ copy_rules: { master_id: string; allowed_pairs: string[] }[] }>(server, 'GET', '/api/copy-rules/infos', { key: admin });
      const rule = rules.body.copy_rules.find((r) => r.allowed_pairs.includes('EURUSD'))!;
      const pairs = await auditCount('copy-rules.allowed-pairs');
      const change = await burst('/api/copy-rules/allowed-pairs', `pairs-${randomBytes(4).toString('hex')}`, {
        master_id: rule.master_id,
        new_allowed_pairs: rule.allowed_pairs,
      });
      expect(change.every((a) => a.status === 200)).toBe(true);
      expect(await auditCount('copy-rules.allowed-pairs')).toBe(pairs + 1);
    });

    it('refuses text that is not valid Unicode before claiming the key, and the key stays usable', async () => {
      const key = `u-${randomBytes(4).toString('hex')}`;
      const bad = await call<{ message: string }>(server, 'POST', '/api/copy-rules/allowed-pairs', {
        key: admin,
        headers: { 'idempotency-key': key },
        rawBody: '{"master_id":"\\ud800no-such-master","new_allowed_pairs":[]}',
      });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/master_id must be valid Unicode text/);
      const next = await call(server, 'POST', '/api/copy-rules/allowed-pairs', {
        key: admin,
        headers: { 'idempotency-key': key },
        body: { master_id: 'no-such-master', new_allowed_pairs: [] },
      });
      expect(next.status).toBe(404);
    });

    it('replays a refusal too, and refuses the same key with another body with 422', async () => {
      const key = `k-${randomBytes(4).toString('hex')}`;
      const body = { category: 'Forex', symbol: 'AUDCAD', direction: 'short', currency: 'CAD', portfolio: 'SMA' };
      const first = await call<{ message: string }>(server, 'POST', '/api/positions/close-by-symbol', { key: admin, headers: { 'idempotency-key': key }, body });
      const again = await call<{ message: string }>(server, 'POST', '/api/positions/close-by-symbol', { key: admin, headers: { 'idempotency-key': key }, body });
      expect({ status: again.status, body: again.body }).toEqual({ status: first.status, body: first.body });
      const other = await call<{ message: string }>(server, 'POST', '/api/positions/close-by-symbol', {
        key: admin,
        headers: { 'idempotency-key': key },
        body: { ...body, symbol: 'EURUSD', currency: 'USD' },
      });
      expect(other.status).toBe(422);
      expect(other.body.message).toMatch(/already used for a different request/);
      const otherRoute = await call(server, 'POST', '/api/bridge/start', { key: admin, headers: { 'idempotency-key': key } });
      expect(otherRoute.status).not.toBe(500);
    });
  });

  describe('sign-in limits', () => {
    it('counts parallel failures atomically, and does not lock the owner out from their own address', async () => {
      const s = await startServer(backend, { auth: { loginFailuresPerUser: 10, loginAttemptsPerAddress: 1000 } });
      try {
        const statuses = await Promise.all(
          Array.from({ length: 60 }, () => loginFrom(s, '127.0.0.1', { username: 'admin', password: 'wrong' })),
        );
        expect(statuses.filter((x) => x === 401).length).toBeLessThanOrEqual(10);
        expect(statuses.filter((x) => x === 429).length).toBeGreaterThanOrEqual(50);
        expect(statuses.every((x) => x === 401 || x === 429)).toBe(true);
        // The attacker's address stays refused, even with the right password...
        expect(await loginFrom(s, '127.0.0.1', DEMO.admin)).toBe(429);
        // ...but the owner, elsewhere, signs in (slowed down, not locked out).
        expect(await loginFrom(s, '127.0.0.2', DEMO.admin)).toBe(200);
      } finally {
        await s.close();
      }
    });
  });

  describe('leaks', () => {
    it('gives MAE/MFE over the caller’s own accounts only', async () => {
      const forInvestor = await call<{ count: number; stats: Record<string, number | null> }>(server, 'GET', '/api/stats/mae_mfe?symbol=AAPL', { key: investor });
      const forAdmin = await call<{ count: number }>(server, 'GET', '/api/stats/mae_mfe?symbol=AAPL', { key: admin });
      expect(forAdmin.body.count).toBeGreaterThan(0);
      // The investor sees Global FX only: no equity trades of theirs.
      expect(forInvestor.body).toEqual({
        symbol: 'AAPL',
        count: 0,
        stats: { avg_mae: null, median_mae: null, avg_mfe: null, median_mfe: null },
      });
    });

    it('answers a master outside the caller’s portfolios like an unknown one', async () => {
      // A write user of Global FX only.
      await server.app.authStore.upsertUser({
        username: 'fx-writer',
        password_hash: await hashPassword('fx-writer-password'),
        status: 'active',
        permissions: ['write'],
        portfolio_auth: ['Global FX'],
      });
      const res = await call<{ data: { api_key: string } }>(server, 'POST', '/api/login', {
        body: { username: 'fx-writer', password: 'fx-writer-password' },
      });
      const writer = res.body.data.api_key;
      const all = await call<{ copy_rules: { master_id: string }[] }>(server, 'GET', '/api/copy-rules/infos', { key: admin });
      const mine = await call<{ copy_rules: { master_id: string }[] }>(server, 'GET', '/api/copy-rules/infos', { key: writer });
      const outside = all.body.copy_rules.find((r) => !mine.body.copy_rules.some((m) => m.master_id === r.master_id))!;
      const foreign = await call(server, 'POST', '/api/copy-rules/allowed-pairs', { key: writer, body: { master_id: outside.master_id, new_allowed_pairs: [] } });
      const unknown = await call(server, 'POST', '/api/copy-rules/allowed-pairs', { key: writer, body: { master_id: 'no-such-master', new_allowed_pairs: [] } });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ message: `Master not found: ${outside.master_id}` });
      expect(unknown.body).toEqual({ message: 'Master not found: no-such-master' });
    });
  });

  describe('sign-out everywhere', () => {
    it('disabling a user ends their keys and closes their sockets within a second', async () => {
      const key = await login(server, 'manager');
      const c = await connect(server, '/ws/brokers/live-positions-aggregate', { token: await ticket(server, key), portfolio: 'Global FX' });
      const started = Date.now();
      expect(await server.app.authStore.setUserStatus('manager', 'disabled')).toBe(true);
      const end = await c.closed;
      expect(Date.now() - started).toBeLessThan(1000);
      expect(end).toEqual({ code: WS_CLOSE.unauthorized, reason: 'Your session has ended. Please sign in again.' });
      expect((await call(server, 'GET', '/api/bridge/status', { key })).status).toBe(401);
      expect((await call(server, 'POST', '/api/login', { body: DEMO.manager })).status).toBe(401);
      await server.app.authStore.setUserStatus('manager', 'active');
      expect((await call(server, 'POST', '/api/login', { body: DEMO.manager })).status).toBe(200);
    });

    it('a new password ends every other session and its sockets within a second', async () => {
      const other = await login(server, 'investor');
      const mine = await login(server, 'investor');
      const c = await connect(server, '/ws/brokers/live-positions-aggregate', { token: await ticket(server, other), portfolio: 'Global FX' });
      const wrong = await call<{ message: string }>(server, 'POST', '/api/account/password', {
        key: mine,
        body: { current_password: 'nope', new_password: 'a-new-password-1' },
      });
      expect(wrong.status).toBe(403);
      // The clock starts when the change is answered (committed): the request itself spends most of
      // its time hashing the old and the new password, which a loaded machine stretches.
      const closedAt = c.closed.then((end) => ({ ...end, at: Date.now() }));
      const res = await call<{ message: string; data: { api_key: string } }>(server, 'POST', '/api/account/password', {
        key: mine,
        body: { current_password: DEMO.investor.password, new_password: 'a-new-password-1' },
      });
      const changed = Date.now();
      expect(res.status).toBe(200);
      const end = await closedAt;
      expect(end.code).toBe(WS_CLOSE.unauthorized);
      expect(end.at - changed).toBeLessThan(1000);
      expect((await call(server, 'GET', '/api/bridge/status', { key: other })).status).toBe(401);
      expect((await call(server, 'GET', '/api/bridge/status', { key: mine })).status).toBe(401);
      expect((await call(server, 'GET', '/api/bridge/status', { key: res.body.data.api_key })).status).toBe(200);
      // Put the demo password back for the other tests.
      const back = await call(server, 'POST', '/api/account/password', {
        key: res.body.data.api_key,
        body: { current_password: 'a-new-password-1', new_password: DEMO.investor.password },
      });
      expect(back.status).toBe(200);
      investor = await login(server, 'investor');
    });
  });
});

describe.runIf(BACKENDS.includes('postgres'))('one market per PostgreSQL database', () => {
  it('refuses to start a second market process on the same database without Redis, with a clear message', async () => {
    const schema = `m_${randomBytes(5).toString('hex')}`;
    const first = await startServer('postgres', { schema });
    try {
      const second = buildApp(testConfig('postgres', { schema }));
      await expect(second).rejects.toBeInstanceOf(MarketLockedError);
      await expect(second).rejects.toThrow(/Another server process already runs the market .*set REDIS_URL on every instance to run several/);
    } finally {
      await first.close();
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });
});
