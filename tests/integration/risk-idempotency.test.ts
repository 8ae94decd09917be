/**
 * The risk settings honour Idempotency-Key like the other writes: a retried request acts once (one
 * audit row), the same key with another body is refused (422), and a retried old equity-stop
 * request cannot arm again a stop that fired since.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CopyReportResponse } from '#shared/contract/copy.ts';
import { BACKENDS, http, login, simulatorOf, startServer, type TestServer } from './helpers/server.ts';

describe.each(BACKENDS)('idempotent risk settings (%s)', (backend) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startServer(backend);
    admin = await login(server, 'admin');
  });
  afterAll(async () => server?.close());

  const auditRows = async (action: string) =>
    (await server.app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log WHERE action = $1', [action]))[0]!.n;

  it('PUT /api/risk/limits: 20 sends of one key write once; the key with another body is a 422', async () => {
    const key = randomUUID();
    const body = { portfolio: 'SMA', max_drawdown_pct: 25, min_margin_level_pct: 150 };
    for (let i = 0; i < 20; i++) {
      const res = await http<{ message: string }>(server, 'PUT', '/api/risk/limits', { key: admin, headers: { 'idempotency-key': key }, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.message).toBe('Risk thresholds of SMA saved.');
    }
    expect(await auditRows('risk.limits')).toBe(1);
    const other = await http<{ message: string }>(server, 'PUT', '/api/risk/limits', { key: admin, headers: { 'idempotency-key': key }, body: { ...body, max_drawdown_pct: 30 } });
    expect(other.status).toBe(422);
    expect(other.body.message).toMatch(/already used for a different request/);
    expect(await auditRows('risk.limits')).toBe(1);
  });

  const report = async (follower: string) =>
    (await http<CopyReportResponse>(server, 'GET', '/api/copy/report?portfolio=SMA&period=1m', { key: admin })).body.data.followers.find((f) => f.account_id === follower)!;
  const followers = async () =>
    (await http<CopyReportResponse>(server, 'GET', '/api/copy/report?portfolio=SMA&period=1m', { key: admin })).body.data.followers.filter((f) => f.is_copy).map((f) => f.account_id);

  it('PUT /api/risk/equity-stop: 20 sends of one key write once; the key with another body is a 422', async () => {
    const [follower] = await followers();
    // A stop far under the follower's equity: armed.
    const key = randomUUID();
    for (let i = 0; i < 20; i++) {
      const res = await http(server, 'PUT', '/api/risk/equity-stop', { key: admin, headers: { 'idempotency-key': key }, body: { account: follower, equity_stop: 1 } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expect(await auditRows('risk.equity-stop')).toBe(1);
    expect(await report(follower!)).toMatchObject({ equity_stop: 1, equity_stopped: false });
    const other = await http(server, 'PUT', '/api/risk/equity-stop', { key: admin, headers: { 'idempotency-key': key }, body: { account: follower, equity_stop: 2 } });
    expect(other.status).toBe(422);
    expect(await auditRows('risk.equity-stop')).toBe(1);
  });

  it('PUT /api/risk/equity-stop retried after the stop fired: answered as the first time, the stop stays fired', async () => {
    const [, follower] = await followers();
    // A stop over the follower's equity: it fires at the next step of the market.
    const key = randomUUID();
    const body = { account: follower, equity_stop: 1_000_000_000 };
    expect((await http(server, 'PUT', '/api/risk/equity-stop', { key: admin, headers: { 'idempotency-key': key }, body })).status).toBe(200);
    await expect
      .poll(async () => {
        await simulatorOf(server.app).tick();
        return (await report(follower!)).equity_stopped;
      }, { timeout: 10_000 })
      .toBe(true);
    // The same request again (a client retrying after a lost answer).
    const retried = await http(server, 'PUT', '/api/risk/equity-stop', { key: admin, headers: { 'idempotency-key': key }, body });
    expect(retried.status).toBe(200);
    expect(await report(follower!)).toMatchObject({ equity_stop: 1_000_000_000, equity_stopped: true });
  });
});
