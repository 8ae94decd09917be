import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AccountsInfoResponse } from '#shared/contract/accounts.ts';
import { BACKENDS, http, login, simulatorOf, startServer, type TestServer } from './helpers/server.ts';

type Who = 'admin' | 'manager' | 'investor';

interface AccountInfo {
  id: number;
  account_id: string;
  account_name: string;
  teiko_category: string;
  equity: number;
  net_profit: number;
  total_rebate: number | null;
}
interface Deals {
  dealsStats: { deals: { symbol: string; datetime: number; rebate: number | null }[] }[];
}

/** The bytes as they come over the wire (fetch would decode them): to see the encodings. */
function raw(server: TestServer, path: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The reads the cached answers are made of (not the session lookups every request makes). */
const READS = /\b(deals|rebates|alerts|nav_snapshots)\b|FROM accounts a/;

describe.each(BACKENDS)('answers computed once per generation (%s)', (backend) => {
  let server: TestServer;
  const keys = {} as Record<Who, string>;
  const get = <T>(who: Who, path: string) => http<T>(server, 'GET', path, { key: keys[who] });
  const text = async (who: Who, path: string) => (await fetch(`${server.url}${path}`, { headers: { 'x-api-key': keys[who] } })).text();

  /** How many of the answers' reads reach the database while `fn` runs. */
  const readsDuring = async (fn: () => Promise<unknown>): Promise<number> => {
    const spy = vi.spyOn(server.app.db, 'query');
    try {
      await fn();
      return spy.mock.calls.filter(([sql]) => READS.test(sql)).length;
    } finally {
      spy.mockRestore();
    }
  };

  beforeAll(async () => {
    server = await startServer(backend);
    for (const who of ['admin', 'manager', 'investor'] as const) keys[who] = await login(server, who);
  });
  afterAll(async () => server.close());

  it.each([
    '/api/brokers/accounts/info',
    '/api/brokers/accounts/info?only_broker_name=true',
    '/api/brokers/accounts/historical_infos',
    '/api/alerts/infos',
    '/api/stats/rebates?portfolio=All&group_by=broker',
  ])('GET %s: the same answer twice within one generation, the second from memory', async (path) => {
    const generation = server.app.changes.generation;
    const first = await text('admin', path);
    let second = '';
    expect(await readsDuring(async () => (second = await text('admin', path)))).toBe(0);
    expect(second).toBe(first);
    expect(server.app.changes.generation).toBe(generation);
  });

  it('answers twenty callers asking at once with one computation', async () => {
    const info = await get<{ data: AccountInfo[] }>('admin', '/api/brokers/accounts/info');
    const account = info.body.data[0]!.account_id;
    const path = `/api/brokers/historical-deals?account=${account}&start_date=${1_000 + server.app.changes.generation}`;
    let answers: string[] = [];
    const reads = await readsDuring(async () => (answers = await Promise.all(Array.from({ length: 20 }, () => text('admin', path)))));
    expect(new Set(answers).size).toBe(1);
    // One computation: the account looked up, its deals and its NAV read, once.
    expect(reads).toBe(3);
  });

  it('shows the new figures after a market step', async () => {
    const market = simulatorOf(server.app);
    const before = await get<{ data: AccountInfo[] }>('admin', '/api/brokers/accounts/info');
    await market.tick();
    const after = await get<{ data: AccountInfo[] }>('admin', '/api/brokers/accounts/info');
    const live = market.snapshot().accounts;
    for (const row of after.body.data) expect(row.equity).toBe(live.get(row.id)!.equity);
    expect(after.body.data.map((r) => r.equity)).not.toEqual(before.body.data.map((r) => r.equity));
  });

  it("shows a position closed through the API in the next answers (a ledger write)", async () => {
    const market = simulatorOf(server.app);
    const master = [...market.snapshot().accounts.values()].find((a) => a.is_master && a.teiko_category === 'global forex')!;
    await market.openMasterTrade(master.id, 'EURUSD', 'Buy', 1);
    const path = `/api/brokers/historical-deals?account=${master.account_id}`;
    const dealsBefore = await get<Deals>('admin', path);
    const infoBefore = await get<{ data: AccountInfo[] }>('admin', '/api/brokers/accounts/info');
    const rebatesBefore = await get<{ data: { account: string; total_rebate: number }[] }>('admin', '/api/stats/rebates?portfolio=Global%20FX');
    // Asked again within the generation: the same answer.
    expect((await get<Deals>('admin', path)).body).toEqual(dealsBefore.body);

    const close = await http(server, 'POST', '/api/positions/close-by-symbol', {
      key: keys.admin,
      body: { category: 'Forex', symbol: 'EURUSD', direction: 'long', currency: 'USD', portfolio: 'Global FX' },
    });
    expect(close.status).toBe(200);

    const dealsAfter = await get<Deals>('admin', path);
    const listed = (d: Deals) => d.dealsStats[0]!.deals;
    expect(listed(dealsAfter.body).length).toBeGreaterThan(listed(dealsBefore.body).length);
    expect(listed(dealsAfter.body)[0]!.symbol).toBe('EURUSD');
    const net = (r: { body: { data: AccountInfo[] } }) => r.body.data.find((a) => a.id === master.id)!.net_profit;
    expect(net(await get<{ data: AccountInfo[] }>('admin', '/api/brokers/accounts/info'))).not.toBe(net(infoBefore));
    const rebatesAfter = await get<{ data: { total_rebate: number }[] }>('admin', '/api/stats/rebates?portfolio=Global%20FX');
    const sum = (rows: { total_rebate: number }[]) => rows.reduce((s, r) => s + r.total_rebate, 0);
    expect(sum(rebatesAfter.body.data)).toBeGreaterThan(sum(rebatesBefore.body.data));
  });

  it("gives each caller the answer of their own portfolios and permissions, never another's cached one", async () => {
    // The admin asks first for exactly the investor's portfolio: same accounts, but the admin may read rebates.
    const admin = await get<{ data: AccountInfo[] }>('admin', '/api/brokers/accounts/info?portfolio=Global%20FX');
    const investor = await get<{ data: AccountInfo[] }>('investor', '/api/brokers/accounts/info');
    expect(investor.body.data.map((a) => a.id)).toEqual(admin.body.data.map((a) => a.id));
    expect(admin.body.data.some((a) => a.total_rebate !== null && a.total_rebate > 0)).toBe(true);
    expect(investor.body.data.every((a) => a.total_rebate === null)).toBe(true);

    const account = investor.body.data[0]!.account_id;
    const adminDeals = await get<Deals>('admin', `/api/brokers/historical-deals?account=${account}`);
    const investorDeals = await get<Deals>('investor', `/api/brokers/historical-deals?account=${account}`);
    expect(adminDeals.body.dealsStats[0]!.deals.some((d) => d.rebate !== null)).toBe(true);
    expect(investorDeals.body.dealsStats[0]!.deals.every((d) => d.rebate === null)).toBe(true);

    // Wider scopes see more; a narrower one never gets the wider answer.
    const all = await get<{ data: AccountInfo[] }>('admin', '/api/brokers/accounts/info');
    const manager = await get<{ data: AccountInfo[] }>('manager', '/api/brokers/accounts/info');
    const mine = await get<{ data: AccountInfo[] }>('investor', '/api/brokers/accounts/info');
    expect(all.body.data.length).toBeGreaterThan(manager.body.data.length);
    expect(manager.body.data.length).toBeGreaterThan(mine.body.data.length);
    expect(new Set(mine.body.data.map((a) => a.teiko_category))).toEqual(new Set(['global forex']));
    expect(manager.body.data.some((a) => a.teiko_category === 'AMC')).toBe(false);

    // An account outside the caller's portfolios stays unknown, even once an admin's answer for it is kept.
    const amc = all.body.data.find((a) => a.teiko_category === 'AMC')!.account_id;
    expect((await get('admin', `/api/brokers/historical-deals?account=${amc}`)).status).toBe(200);
    expect((await get('manager', `/api/brokers/historical-deals?account=${amc}`)).status).toBe(404);
    // And a refused portfolio is refused, whoever asked before.
    expect((await get('admin', '/api/stats/rebates?portfolio=AMC')).status).toBe(200);
    expect((await get('manager', '/api/stats/rebates?portfolio=AMC')).status).toBe(403);
    expect((await get('investor', '/api/stats/rebates?portfolio=All')).status).toBe(403);
  });

  it('sends the same JSON brotli-compressed, gzipped and plain, with the headers that say so', async () => {
    const path = '/api/brokers/accounts/info';
    const key = { 'x-api-key': keys.admin };
    const generation = server.app.changes.generation;
    const plain = await raw(server, path, key);
    const br = await raw(server, path, { ...key, 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await raw(server, path, { ...key, 'accept-encoding': 'gzip;q=1, br;q=0.5' });
    const again = await raw(server, path, { ...key, 'accept-encoding': 'br' });
    expect(server.app.changes.generation).toBe(generation);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    for (const r of [plain, br, gzip]) {
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(r.headers.vary).toMatch(/accept-encoding/i);
      expect(Number(r.headers['content-length'])).toBe(r.body.length);
    }
    const json = plain.body.toString();
    expect((await promisify(zlib.brotliDecompress)(br.body)).toString()).toBe(json);
    expect((await promisify(zlib.gunzip)(gzip.body)).toString()).toBe(json);
    expect(again.body.equals(br.body)).toBe(true);
    // And what the response schema makes of it, as before the cache.
    expect(AccountsInfoResponse.safeParse(JSON.parse(json)).success).toBe(true);
  });

  it('leaves an answer under the compression threshold (1 kB) plain', async () => {
    const small = await raw(server, '/api/brokers/accounts/info?only_broker_name=true', { 'x-api-key': keys.investor, 'accept-encoding': 'br, gzip' });
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toHaveProperty('data');
  });
});
