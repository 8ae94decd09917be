import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { DataDirLockedError } from '#server/db/data-dir-lock.ts';
import { BACKENDS, DEMO, http, login, startServer, testConfig, type TestServer } from './helpers/server.ts';

describe.each(BACKENDS)('sign-in and the session guard (%s)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(backend);
  });
  afterAll(async () => {
    await server.close();
  });

  it('signs the admin in with a fresh session key, its portfolios and permissions', async () => {
    const res = await http<{ data: Record<string, unknown> }>(server, 'POST', '/api/login', { body: DEMO.admin });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.portfolio_auth).toEqual(['Consolidated Portfolio', 'Global FX', 'Global Equity', 'SMA', 'AMC']);
    expect(data.restrictions).toEqual(['write', 'read_rebate']);
    expect(data.status).toBe('active');
    // at least 128 random bits: 22+ base64url characters
    expect(String(data.api_key)).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    const again = await http<{ data: { api_key: string } }>(server, 'POST', '/api/login', { body: DEMO.admin });
    expect(again.body.data.api_key).not.toBe(data.api_key);
  });

  it('gives the investor no permission and only Global FX', async () => {
    const res = await http<{ data: Record<string, unknown> }>(server, 'POST', '/api/login', { body: DEMO.investor });
    expect(res.body.data.restrictions).toEqual([]);
    expect(res.body.data.portfolio_auth).toEqual(['Global FX']);
  });

  it('answers an unknown user exactly like a wrong password', async () => {
    const wrong = await http(server, 'POST', '/api/login', { body: { username: 'manager', password: 'nope' } });
    const unknown = await http(server, 'POST', '/api/login', { body: { username: 'nobody', password: 'nope' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body).toEqual({ message: 'Invalid username or password.' });
  });

  it('refuses missing fields, wrong types, unknown fields and malformed JSON with 400 and a message', async () => {
    const missing = await http<{ message: string }>(server, 'POST', '/api/login', { body: { username: 'admin' } });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('password is required');
    const empty = await http<{ message: string }>(server, 'POST', '/api/login', { body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('username is required');
    const types = await http<{ message: string }>(server, 'POST', '/api/login', { body: { username: 5, password: [] } });
    expect(types.status).toBe(400);
    expect(types.body.message).toContain('username must be a string');
    const extra = await http<{ message: string }>(server, 'POST', '/api/login', {
      body: { ...DEMO.admin, role: 'admin' },
    });
    expect(extra.status).toBe(400);
    expect(extra.body.message).toMatch(/role/);
    const malformed = await http<{ message: string }>(server, 'POST', '/api/login', { rawBody: '{"username": "admin",' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBeTruthy();
    const notObject = await http<{ message: string }>(server, 'POST', '/api/login', { rawBody: '"admin"' });
    expect(notObject.status).toBe(400);
  });

  it('refuses control characters in a name and survives any unicode', async () => {
    const control = await http<{ message: string }>(server, 'POST', '/api/login', {
      body: { username: 'ad\u0000min', password: 'x' },
    });
    expect(control.status).toBe(400);
    expect(control.body.message).toContain('control characters');
    const unicode = await http(server, 'POST', '/api/login', { body: { username: 'Zoë 🚀 \ud800', password: 'ü' } });
    expect(unicode.status).toBe(401);
    const ok = await http(server, 'POST', '/api/login', { body: DEMO.investor });
    expect(ok.status).toBe(200);
  });

  it('answers a body over 1 MB with 413 and keeps serving', async () => {
    const big = JSON.stringify({ username: 'admin', password: 'x'.repeat(1024 * 1024) });
    const res = await http<{ message: string }>(server, 'POST', '/api/login', { rawBody: big });
    expect(res.status).toBe(413);
    expect(res.body.message).toBeTruthy();
    expect((await http(server, 'POST', '/api/login', { body: DEMO.admin })).status).toBe(200);
  });

  it('answers 401 without a key, with an unknown key, and after logout', async () => {
    const none = await http<{ message: string }>(server, 'GET', '/api/bridge/status');
    expect(none.status).toBe(401);
    expect(none.body.message).toContain('x-api-key');
    const wrong = await http(server, 'GET', '/api/bridge/status', { key: 'not-a-real-key' });
    expect(wrong.status).toBe(401);

    const key = await login(server, 'manager');
    expect((await http(server, 'GET', '/api/bridge/status', { key })).status).toBe(200);
    const out = await http(server, 'POST', '/api/logout', { key });
    expect(out.status).toBe(200);
    const after = await http<{ message: string }>(server, 'GET', '/api/bridge/status', { key });
    expect(after.status).toBe(401);
    expect(after.body.message).toMatch(/expired|invalid/i);
  });

  it('answers 403 with a clear message when the role is missing, and lets the admin through', async () => {
    const investor = await login(server, 'investor');
    const denied = await http<{ message: string }>(server, 'POST', '/api/bridge/stop', { key: investor });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toContain('write');
    const manager = await login(server, 'manager');
    expect((await http(server, 'POST', '/api/bridge/start', { key: manager })).status).toBe(403);

    const admin = await login(server, 'admin');
    const stop = await http<{ message: string }>(server, 'POST', '/api/bridge/stop', { key: admin });
    expect(stop.status).toBe(200);
    const status = await http<{ data: { running: boolean } }>(server, 'GET', '/api/bridge/status', { key: investor });
    expect(status.body.data.running).toBe(false);
    await http(server, 'POST', '/api/bridge/start', { key: admin });
    const back = await http<{ data: { running: boolean } }>(server, 'GET', '/api/bridge/status', { key: investor });
    expect(back.body.data.running).toBe(true);
  });

  it('answers unknown API paths with a JSON 404 once signed in', async () => {
    const key = await login(server, 'investor');
    const res = await http<{ message: string }>(server, 'GET', '/api/nothing-here', { key });
    expect(res.status).toBe(404);
    expect(res.body.message).toContain('/api/nothing-here');
  });
});

describe.each(BACKENDS)('sign-in rate limit (%s)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(backend, { auth: { loginFailuresPerUser: 3, loginAttemptsPerAddress: 8 } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('locks a user name after repeated failures, even for the right password', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await http(server, 'POST', '/api/login', { body: { username: 'manager', password: 'bad' } })).status).toBe(401);
    }
    const locked = await http<{ message: string }>(server, 'POST', '/api/login', { body: DEMO.manager });
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(/Too many sign-in attempts/);
  });

  it('limits attempts per address whatever the user name', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await http(server, 'POST', '/api/login', { body: { username: `u${i}`, password: 'x' } })).status);
    }
    expect(statuses.slice(0, 4).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('embedded database on disk', () => {
  it('keeps users and sessions across a restart, and refuses a second server on the same folder', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'copy-monitor-int-'));
    try {
      const first = await startServer('pglite', { dataDir: dir });
      const key = await login(first, 'admin');
      await expect(buildApp(testConfig('pglite', { dataDir: dir }))).rejects.toBeInstanceOf(DataDirLockedError);
      await first.close();

      const second = await startServer('pglite', { dataDir: dir });
      const res = await http<{ data: { running: boolean } }>(second, 'GET', '/api/bridge/status', { key });
      expect(res.status).toBe(200);
      const users = await second.app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
      expect(users[0]?.n).toBe(3);
      await second.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
