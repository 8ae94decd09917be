import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FlexStatusResponse } from '#shared/contract/flex.ts';
import type { ImportStatementResponse } from '#shared/contract/import.ts';
import { insertBroker } from '#server/db/accounts-repo.ts';
import { insertRegisteredAccount } from '#server/db/registry-repo.ts';
import { realIbkrReport, startFlexStandIn, type FlexStandIn } from '../fake-ibkr/flex-stand-in.ts';
import { BACKENDS, http, login, startServer, type TestServer } from './helpers/server.ts';
import { realReportsDescribe, realReportsTitle } from '../fixtures/real-reports.ts';

/**
 * The daily Flex fetch end to end: a write user gives an Interactive Brokers account its Flex token
 * and query id through the API, the server fetches the statement from a local stand-in of IB's Flex
 * Web Service (tests/fake-ibkr/, serving a genuine Flex file) at the address IB's answer names, and
 * books it like an upload. The token goes in and never comes out (answers, audit, errors).
 */

const TOKEN = '341926757302891856432';
const QUERY = '1087422';
const PATH = '/api/accounts/interactive-brokers-U12345678/flex';

realReportsDescribe.each(BACKENDS)(realReportsTitle('the Flex Web Service fetch (%s)'), (backend) => {
  let server: TestServer;
  let ib: FlexStandIn;
  let other: FlexStandIn;
  let admin = '';
  let manager = '';
  let accountId = 0;

  const status = async () => (await http<FlexStatusResponse>(server, 'GET', PATH, { key: admin })).body.data;
  const fetchNow = () => http<ImportStatementResponse & { message: string }>(server, 'POST', `${PATH}/fetch`, { key: admin });
  const bookedEvents = async () => (await server.app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM broker_events WHERE account_id = $1', [accountId]))[0]!.n;
  const alerts = async () =>
    (await server.app.db.query<{ message: string }>("SELECT message FROM alerts WHERE type = 'statement' AND account_id = $1 ORDER BY id", [accountId])).map((r) => r.message);

  beforeAll(async () => {
    ib = await startFlexStandIn({ queries: [{ token: TOKEN, queryId: QUERY, statement: realIbkrReport('tradeznet_kmi.xml') }] });
    // Another host (127.0.0.2): a statement address there must never get the token.
    other = await startFlexStandIn({ host: '127.0.0.2', queries: [{ token: TOKEN, queryId: QUERY, statement: realIbkrReport('tradeznet_kmi.xml') }] });
    server = await startServer(backend, {
      demo: true,
      ibkr: { flexUrl: ib.baseUrl, baseDelayMs: 5, lookMs: 100, secretsKey: new Uint8Array(randomBytes(32)) },
    });
    admin = await login(server, 'admin');
    manager = await login(server, 'manager');
    const db = server.app.db;
    const broker = await insertBroker(db, { broker_name: 'Interactive Brokers', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
    accountId = await insertRegisteredAccount(db, {
      source: 'ibkr', account_id: 'interactive-brokers-U12345678', account: 'U12345678', account_name: 'IB Fetch', broker_id: broker, server: 'IBKR',
      server_name: 'IBKR', teiko_category: 'global equity', currency: 'EUR', leverage: 1,
    });
  });
  afterAll(async () => {
    await server?.close();
    await ib?.close();
    await other?.close();
  });

  it('refuses the settings to a user without write (403) and without a key (401), and a bad body (400)', async () => {
    expect((await http(server, 'PUT', PATH, { key: manager, body: { token: TOKEN, query_id: QUERY } })).status).toBe(403);
    expect((await http(server, 'GET', PATH)).status).toBe(401);
    expect((await http(server, 'PUT', PATH, { key: admin, body: { token: 'short', query_id: QUERY } })).status).toBe(400);
    expect((await http(server, 'PUT', PATH, { key: admin, body: { token: TOKEN, query_id: 'abc' } })).status).toBe(400);
    expect((await http(server, 'PUT', PATH, { key: admin, body: { token: TOKEN, query_id: QUERY, extra: 1 } })).status).toBe(400);
    // A simulated account is no Interactive Brokers account.
    const demo = (await server.app.db.query<{ account_id: string }>("SELECT account_id FROM accounts WHERE source = 'simulated' LIMIT 1"))[0]!.account_id;
    expect((await http(server, 'GET', `/api/accounts/${demo}/flex`, { key: admin })).status).toBe(404);
    // A NUL in the account (the database cannot hold one in text) is a bad request, never a 500.
    expect((await http(server, 'GET', '/api/accounts/%00/flex', { key: admin })).status).toBe(400);
    expect((await http(server, 'DELETE', '/api/accounts/%00/flex', { key: admin })).status).toBe(400);
    expect((await http(server, 'POST', '/api/accounts/%00/flex/fetch', { key: admin })).status).toBe(400);
  });

  it('takes the token and query, answers that a token is set (never the token), and audits it without the token', async () => {
    ib.script('SendRequest', { answer: 'error', code: 1015 });
    const res = await http<FlexStatusResponse>(server, 'PUT', PATH, { key: admin, body: { token: TOKEN, query_id: QUERY, token_expires: '2099-12-31' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ token_set: true, query_id: QUERY, token_expires: '2099-12-31' });
    expect(JSON.stringify(res.body)).not.toContain(TOKEN);
    expect(JSON.stringify(await status())).not.toContain(TOKEN);
    const stored = await server.app.db.query<{ token_sealed: string }>('SELECT token_sealed FROM flex_settings WHERE account_id = $1', [accountId]);
    expect(stored[0]!.token_sealed).not.toContain(TOKEN);
    const audit = await server.app.db.query<{ detail: unknown }>("SELECT detail FROM audit_log WHERE action = 'accounts.flex-set'");
    expect(JSON.stringify(audit)).not.toContain(TOKEN);
    expect(audit.at(-1)!.detail).toEqual({ account: 'interactive-brokers-U12345678', query_id: QUERY, token_expires: '2099-12-31' });
  });

  it('fetches now: SendRequest, then GetStatement at the address the answer names, with a User-Agent, and books it like an upload', async () => {
    // The leader's first scheduled fetch (due at once) met the scripted 1015 above: it failed, alerted, and stopped.
    await expect.poll(async () => (await status()).last_status, { timeout: 5_000 }).toBe('failed');
    expect((await alerts()).at(-1)).toMatch(/Token is invalid/);
    expect(await bookedEvents()).toBe(0);
    const before = ib.requests.length;
    const res = await fetchNow();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.statements[0]).toMatchObject({ account: 'interactive-brokers-U12345678', booked: true, base_currency: 'EUR', trades: 3 });
    const seen = ib.requests.slice(before);
    expect(seen.map((r) => r.endpoint)).toEqual(['SendRequest', 'GetStatement']);
    expect(seen[0]!.params).toMatchObject({ t: TOKEN, q: QUERY, v: '3' });
    expect(seen[1]!.params.q).toMatch(/^\d+$/);
    expect(seen.every((r) => (r.userAgent ?? '').length > 0)).toBe(true);
    expect(await bookedEvents()).toBeGreaterThan(0);
    expect(await status()).toMatchObject({ last_status: 'ok', last_error: null });
    // Fetched again: nothing changes.
    const again = await fetchNow();
    expect(again.body).toMatchObject({ added: 0, updated: 0 });
  });

  it('clears a temporary error of IB\'s by retrying (1019: statement generation in progress)', async () => {
    // (1018, too many requests, waits 10 s and more: the client's own tests cover it on an injected clock.)
    ib.script('GetStatement', { answer: 'error', code: 1019, status: 'Warn' }, { answer: 'error', code: 1019, status: 'Warn' });
    const before = ib.requests.length;
    const res = await fetchNow();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(ib.requests.slice(before).map((r) => r.endpoint)).toEqual(['SendRequest', 'GetStatement', 'GetStatement', 'GetStatement']);
    expect(await status()).toMatchObject({ last_status: 'ok' });
  });

  it('never sends the token to another host named in the answer: refused, alerted, nothing booked', async () => {
    const events = await bookedEvents();
    ib.script('SendRequest', { answer: 'reference', url: `${other.origin}/AccountManagement/FlexWebService/GetStatement` });
    const res = await fetchNow();
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/127\.0\.0\.2/);
    expect(res.body.message).not.toContain(TOKEN);
    expect(other.requests).toHaveLength(0);
    expect(await bookedEvents()).toBe(events);
    expect(await status()).toMatchObject({ last_status: 'failed' });
  });

  it('stops at once on an expired token (1012): no retry, an alert in words, no more fetches until the token is set again', async () => {
    ib.script('SendRequest', { answer: 'error', code: 1012 });
    const before = ib.requests.length;
    const res = await fetchNow();
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/Token has expired/);
    expect(ib.requests.length - before).toBe(1);
    expect(await status()).toMatchObject({ last_status: 'failed', next_fetch_at: null });
    expect((await alerts()).at(-1)).toMatch(/Token has expired/);
    expect((await alerts()).join('\n')).not.toContain(TOKEN);
  });

  it('alerts three days before the token\'s chosen expiry, once', async () => {
    const soon = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    expect((await http(server, 'PUT', PATH, { key: admin, body: { token: TOKEN, query_id: QUERY, token_expires: soon } })).status).toBe(200);
    await expect.poll(async () => (await alerts()).filter((m) => m.includes(`expires on ${soon}`)).length, { timeout: 5_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await alerts()).filter((m) => m.includes(`expires on ${soon}`))).toHaveLength(1);
  });

  it('removes the token: no more fetches', async () => {
    const res = await http<{ message: string }>(server, 'DELETE', PATH, { key: admin });
    expect(res.status).toBe(200);
    expect(await status()).toMatchObject({ token_set: false, query_id: null });
    expect((await fetchNow()).status).toBe(400);
  });
});
