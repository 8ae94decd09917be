import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '#server/auth/password.ts';
import { BACKENDS, http, startServer, type TestServer } from './helpers/server.ts';

/** POST /api/account/password: one change at a time, and never to the same password. */
describe.each(BACKENDS)('changing one\'s password (%s)', (backend) => {
  let server: TestServer;
  const signIn = (username: string, password: string) => http<{ data: { api_key: string } }>(server, 'POST', '/api/login', { body: { username, password } });
  const change = (key: string, current: string, next: string) =>
    http<{ message: string; data: { api_key: string } }>(server, 'POST', '/api/account/password', { key, body: { current_password: current, new_password: next } });

  beforeAll(async () => {
    server = await startServer(backend, { demo: false, auth: { loginFailuresPerUser: 100, loginAttemptsPerAddress: 10_000 } });
    for (const username of ['dora', 'emil']) {
      await server.app.authStore.upsertUser({
        username, password_hash: await hashPassword(`${username}-password-0`), status: 'active', permissions: [], portfolio_auth: ['AMC'],
      });
    }
  });
  afterAll(async () => server?.close());

  it('lets exactly one of 10 concurrent changes through; the others are refused as the password changed meanwhile', async () => {
    const { body } = await signIn('dora', 'dora-password-0');
    const keys = await Promise.all(Array.from({ length: 10 }, () => signIn('dora', 'dora-password-0').then((r) => r.body.data.api_key)));
    keys.push(body.data.api_key);
    const answers = await Promise.all(keys.slice(0, 10).map((key, i) => change(key, 'dora-password-0', `dora-password-${i + 1}`)));
    const ok = answers.flatMap((a, i) => (a.status === 200 ? [i] : []));
    expect(ok, JSON.stringify(answers.map((a) => [a.status, a.body.message]))).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(409);
      expect(a.body.message).toBe('Your password was changed by another request meanwhile: sign in again with the new password.');
    }
    // Only the winner's password opens the account now; every earlier key is gone, its fresh one works.
    const winner = ok[0]!;
    for (let i = 0; i <= 10; i++) {
      const res = await signIn('dora', `dora-password-${i}`);
      expect(res.status, `dora-password-${i}`).toBe(i === winner + 1 ? 200 : 401);
    }
    for (const key of keys) expect((await http(server, 'GET', '/api/bridge/status', { key })).status).toBe(401);
    expect((await http(server, 'GET', '/api/bridge/status', { key: answers[winner]!.body.data.api_key })).status).toBe(200);
    const audited = await server.app.db.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE action = 'account.password'");
    expect(audited[0]!.n).toBe(1);
  });

  it('refuses a new password equal to the current one with 400 and a message, and changes nothing', async () => {
    const key = (await signIn('emil', 'emil-password-0')).body.data.api_key;
    const res = await change(key, 'emil-password-0', 'emil-password-0');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('new_password must differ from the current password');
    // Nothing ended: the key still works and the password is the same.
    expect((await http(server, 'GET', '/api/bridge/status', { key })).status).toBe(200);
    expect((await signIn('emil', 'emil-password-0')).status).toBe(200);
  });

  it('still refuses a wrong current password with 403', async () => {
    const key = (await signIn('emil', 'emil-password-0')).body.data.api_key;
    const res = await change(key, 'not-my-password', 'emil-password-9');
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Forbidden: the current password is wrong.');
  });
});
