/**
 * Copy relations through the API (docs/copying.md): who may read and change them, the refusals
 * (an account copying itself, chains, a second master, sizing out of range), the audit row in the
 * same transaction, Idempotency-Key, an account outside the caller's portfolios answered like an
 * unknown one, and the copy engine copying by a relation as soon as it is saved.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CopyRelation } from '#shared/contract/copy-relations.ts';
import type { LiveAccount } from '#server/broker/port.ts';
import { BACKENDS, http, login, simulatorOf, startServer, type TestServer } from './helpers/server.ts';

type Relations = { data: CopyRelation[] };

describe.each(BACKENDS)('copy relations through the API (%s)', (backend) => {
  let server: TestServer;
  let admin: string;
  let manager: string;
  let investor: string;
  const accounts = () => [...server.app.market.snapshot().accounts.values()];
  const byName = (name: string): LiveAccount => accounts().find((a) => a.account_name === name)!;
  const write = <T = { message: string; relation: CopyRelation }>(method: string, path: string, body?: unknown, key = admin, idem: string = randomUUID()) =>
    http<T>(server, method, path, { key, headers: { 'idempotency-key': idem }, ...(body === undefined ? {} : { body }) });
  const audits = async (action: string) => (await server.app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log WHERE action = $1', [action]))[0]!.n;

  beforeAll(async () => {
    server = await startServer(backend);
    [admin, manager, investor] = await Promise.all([login(server, 'admin'), login(server, 'manager'), login(server, 'investor')]);
  });
  afterAll(async () => server?.close());

  it('lists the demo’s followers as relations by ratio, each caller only within their portfolios', async () => {
    const all = await http<Relations>(server, 'GET', '/api/copy/relations', { key: admin });
    expect(all.status).toBe(200);
    // The simulated market's 26 followers, each by its ratio.
    expect(all.body.data).toHaveLength(26);
    expect(all.body.data.every((r) => r.sizing.mode === 'ratio' && r.ended_at === null)).toBe(true);
    const mine = await http<Relations>(server, 'GET', '/api/copy/relations', { key: investor });
    expect(mine.body.data.length).toBeGreaterThan(0);
    const gfx = new Set(accounts().filter((a) => a.teiko_category === 'global forex').map((a) => a.account_id));
    expect(mine.body.data.every((r) => gfx.has(r.master.account_id) && gfx.has(r.follower.account_id))).toBe(true);
    expect((await http(server, 'GET', '/api/copy/relations?portfolio=AMC', { key: investor })).status).toBe(403);
    expect((await http(server, 'GET', '/api/copy/relations?include_ended=maybe', { key: admin })).status).toBe(400);
  });

  it('refuses writes without the write permission (403), whatever the body', async () => {
    const body = { master: byName('SMA FX Master').account_id, follower: byName('SMA FX Master').account_id, sizing: { mode: 'ratio', ratio: 1 } };
    for (const key of [manager, investor]) {
      expect((await write('POST', '/api/copy/relations', body, key)).status).toBe(403);
      expect((await write('PUT', '/api/copy/relations/1', { sizing: { mode: 'ratio', ratio: 1 }, max_lot: null, equity_stop: null }, key)).status).toBe(403);
      expect((await write('DELETE', '/api/copy/relations/1', undefined, key)).status).toBe(403);
    }
  });

  it('refuses a sizing out of range, an unknown mode and unknown fields with the field’s message', async () => {
    const base = { master: byName('SMA FX Master').account_id, follower: byName('GFX Alpha Master').account_id };
    const cases: [unknown, RegExp][] = [
      [{ ...base, sizing: { mode: 'ratio', ratio: 0 } }, /sizing\.ratio must be at least 0\.0001/],
      [{ ...base, sizing: { mode: 'ratio', ratio: 101 } }, /sizing\.ratio must be at most 100/],
      [{ ...base, sizing: { mode: 'equity', multiplier: -1 } }, /sizing\.multiplier must be at least 0\.01/],
      [{ ...base, sizing: { mode: 'fixed', lot: 0.001 } }, /sizing\.lot must be at least 0\.01/],
      [{ ...base, sizing: { mode: 'martingale' } }, /sizing\.mode must be one of: ratio, equity, fixed/],
      [{ ...base, sizing: { mode: 'ratio', ratio: 1 }, max_lot: 0 }, /max_lot must be at least 0\.01/],
      [{ ...base, sizing: { mode: 'ratio', ratio: 1 }, equity_stop: -5 }, /equity_stop must be at least 0\.01/],
      // Under a cent: it would be stored as 0.
      [{ ...base, sizing: { mode: 'ratio', ratio: 1 }, equity_stop: 0.001 }, /equity_stop must be at least 0\.01/],
      [{ ...base, sizing: { mode: 'ratio', ratio: 1 }, copy_ratio: 2 }, /copy_ratio/],
      [{ ...base, sizing: { mode: 'ratio', ratio: '1' } }, /sizing\.ratio must be a number/],
    ];
    for (const [body, message] of cases) {
      const res = await write<{ message: string }>('POST', '/api/copy/relations', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    expect(await audits('copy.relation.create')).toBe(0);
    const follower = accounts().find((a) => a.master_id !== null)!;
    const tiny = await write<{ message: string }>('PUT', '/api/risk/equity-stop', { account: follower.account_id, equity_stop: 0.004 });
    expect(tiny.status).toBe(400);
    expect(tiny.body.message).toMatch(/equity_stop must be at least 0\.01/);
  });

  it('refuses an account copying itself, a chain either way, and a follower that copies a master already', async () => {
    const master = byName('SMA FX Master');
    const otherMaster = byName('GFX Alpha Master');
    const follower = accounts().find((a) => a.master_id === otherMaster.id)!;
    const cases: [string, string, RegExp][] = [
      [master.account_id, master.account_id, /cannot copy itself/],
      // The master copies no one, but the follower already copies GFX Alpha Master.
      [master.account_id, follower.account_id, new RegExp(`already copies GFX Alpha Master \\(relation \\d+\\): end that relation first`)],
      // A follower as master: a chain.
      [follower.account_id, byName('AMC FX Master').account_id, /copies GFX Alpha Master itself: a follower cannot be a master/],
      // A master with followers as follower: a chain.
      [master.account_id, otherMaster.account_id, /is the master of \d+ followers: a master cannot copy another/],
    ];
    for (const [m, f, message] of cases) {
      const res = await write<{ message: string }>('POST', '/api/copy/relations', { master: m, follower: f, sizing: { mode: 'ratio', ratio: 1 } });
      expect(res.status, `${m} → ${f}`).toBe(400);
      expect(res.body.message).toMatch(message);
    }
  });

  it('answers an account outside the caller’s portfolios like an unknown one', async () => {
    const writer = await (async () => {
      const { hashPassword } = await import('#server/auth/password.ts');
      await server.app.authStore.upsertUser({ username: 'fx-writer', password_hash: await hashPassword('fx-writer-pass'), status: 'active', permissions: ['write'], portfolio_auth: ['Global FX'] });
      return (await http<{ data: { api_key: string } }>(server, 'POST', '/api/login', { body: { username: 'fx-writer', password: 'fx-writer-pass' } })).body.data.api_key;
    })();
    const outside = byName('AMC FX Master');
    const inside = accounts().find((a) => a.teiko_category === 'global forex' && a.master_id !== null)!;
    const foreign = await write<{ message: string }>('POST', '/api/copy/relations', { master: outside.account_id, follower: inside.account_id, sizing: { mode: 'ratio', ratio: 1 } }, writer);
    const unknown = await write<{ message: string }>('POST', '/api/copy/relations', { master: 'no-such-account', follower: inside.account_id, sizing: { mode: 'ratio', ratio: 1 } }, writer);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: `Account not found: ${outside.account_id}` });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Account not found: no-such-account' });
    // A relation of another portfolio: not found, for an edit or an end alike.
    const amc = (await http<Relations>(server, 'GET', '/api/copy/relations?portfolio=AMC', { key: admin })).body.data[0]!;
    const put = await write<{ message: string }>('PUT', `/api/copy/relations/${amc.id}`, { sizing: { mode: 'ratio', ratio: 1 }, max_lot: null, equity_stop: null }, writer);
    expect(put.status).toBe(404);
    expect(put.body).toEqual({ message: `Copy relation not found: ${amc.id}` });
    expect((await write('DELETE', `/api/copy/relations/${amc.id}`, undefined, writer)).status).toBe(404);
    expect((await write('DELETE', '/api/copy/relations/999999', undefined, writer)).status).toBe(404);
    expect((await write('DELETE', '/api/copy/relations/abc', undefined, writer)).status).toBe(400);
  });

  it('moves a follower to another master: ended, created with its audit rows, copied by the new terms at once', async () => {
    const newMaster = byName('SMA FX Master');
    const oldMaster = byName('GFX Alpha Master');
    const follower = accounts().find((a) => a.master_id === oldMaster.id)!;
    const current = (await http<Relations>(server, 'GET', '/api/copy/relations', { key: admin })).body.data.find((r) => r.follower.account_id === follower.account_id)!;
    const ended = await write('DELETE', `/api/copy/relations/${current.id}`);
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body.message).toBe(`${follower.account_name} no longer copies GFX Alpha Master.`);
    expect(ended.body.relation.ended_at).not.toBeNull();
    expect((await write<{ message: string }>('DELETE', `/api/copy/relations/${current.id}`)).body.message).toBe(`The copy relation ${current.id} has ended already.`);

    // Created once for one Idempotency-Key, however often it is sent; the key with another body is refused.
    const idem = randomUUID();
    const body = { master: newMaster.account_id, follower: follower.account_id, sizing: { mode: 'fixed', lot: 0.07 }, max_lot: 5 };
    const created = await write('POST', '/api/copy/relations', body, admin, idem);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.message).toBe(`${follower.account_name} now copies SMA FX Master (fixed 0.07, at most 5).`);
    const again = await write('POST', '/api/copy/relations', body, admin, idem);
    expect(again.status).toBe(200);
    expect(again.body.relation.id).toBe(created.body.relation.id);
    expect((await write('POST', '/api/copy/relations', { ...body, max_lot: 6 }, admin, idem)).status).toBe(422);
    expect(await audits('copy.relation.create')).toBe(1);
    expect(await audits('copy.relation.end')).toBe(1);

    // The history keeps the ended relation; the one in force shows first.
    const history = await http<Relations>(server, 'GET', '/api/copy/relations?include_ended=true', { key: admin });
    const ofFollower = history.body.data.filter((r) => r.follower.account_id === follower.account_id);
    expect(ofFollower.map((r) => [r.master.account_name, r.ended_at === null])).toEqual([['SMA FX Master', true], ['GFX Alpha Master', false]]);

    // The copy engine copies by it at once: the new master's trade, at the fixed lot; the old master's, not.
    const rules = await http<{ copy_rules: { master_id: string; allowed_pairs: string[] }[] }>(server, 'GET', '/api/copy-rules/infos', { key: admin });
    const pair = rules.body.copy_rules.find((r) => r.master_id === newMaster.account_id)!.allowed_pairs[0]!;
    const sim = simulatorOf(server.app);
    const opened = await sim.openMasterTrade(newMaster.id, pair, 'Buy', 1);
    const copy = server.app.market.snapshot().positions.find((p) => p.master_position_id === opened.id && p.account_id === follower.id);
    expect(copy?.quantity).toBe(0.07);
    const oldPair = rules.body.copy_rules.find((r) => r.master_id === oldMaster.account_id)!.allowed_pairs[0]!;
    const notCopied = await sim.openMasterTrade(oldMaster.id, oldPair, 'Buy', 1);
    expect(server.app.market.snapshot().positions.some((p) => p.master_position_id === notCopied.id && p.account_id === follower.id)).toBe(false);

    // Edited: a ratio, capped; the next copy follows it.
    const edited = await write('PUT', `/api/copy/relations/${created.body.relation.id}`, { sizing: { mode: 'ratio', ratio: 3 }, max_lot: 2, equity_stop: null });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.relation).toMatchObject({ sizing: { mode: 'ratio', ratio: 3 }, max_lot: 2 });
    expect(await audits('copy.relation.update')).toBe(1);
    const next = await sim.openMasterTrade(newMaster.id, pair, 'Sell', 1);
    // 1 × 3 = 3 lots, capped at 2.
    expect(server.app.market.snapshot().positions.find((p) => p.master_position_id === next.id && p.account_id === follower.id)?.quantity).toBe(2);
  });

  it('arms a changed equity stop again on an edit, and keeps a fired one fired when the stop is unchanged', async () => {
    const relation = (await http<Relations>(server, 'GET', '/api/copy/relations?portfolio=AMC', { key: admin })).body.data[0]!;
    const terms = { sizing: relation.sizing, max_lot: relation.max_lot };
    // A stop over the follower's equity fires at the next step.
    expect((await write('PUT', `/api/copy/relations/${relation.id}`, { ...terms, equity_stop: 1e9 })).status).toBe(200);
    const stopped = async () => (await http<Relations>(server, 'GET', '/api/copy/relations?portfolio=AMC', { key: admin })).body.data.find((r) => r.id === relation.id)!.equity_stopped_at;
    await expect
      .poll(async () => {
        await simulatorOf(server.app).tick();
        return stopped();
      }, { timeout: 10_000 })
      .not.toBeNull();
    // The Risk panel names it in money, in the follower's currency.
    const report = await http<{ data: { breaches: { account_id: string; kind: string; value: number; limit: number; currency?: string }[] } }>(server, 'GET', '/api/copy/report?portfolio=AMC&period=1m', { key: admin });
    const breach = report.body.data.breaches.find((b) => b.kind === 'equity_stop' && b.account_id === relation.follower.account_id)!;
    expect(breach).toMatchObject({ limit: 1e9, currency: relation.follower.currency });
    expect(Math.round(breach.value * 100) / 100).toBe(breach.value);
    // Another edit with the same stop leaves it fired; asked to, it arms it again; so does a new stop.
    expect((await write('PUT', `/api/copy/relations/${relation.id}`, { ...terms, max_lot: 9, equity_stop: 1e9 })).status).toBe(200);
    expect(await stopped()).not.toBeNull();
    expect((await write('PUT', `/api/copy/relations/${relation.id}`, { ...terms, equity_stop: 1e9, rearm_equity_stop: true })).status).toBe(200);
    expect(await stopped()).toBeNull();
    await expect
      .poll(async () => {
        await simulatorOf(server.app).tick();
        return stopped();
      }, { timeout: 10_000 })
      .not.toBeNull();
    expect((await write('PUT', `/api/copy/relations/${relation.id}`, { ...terms, equity_stop: 1 })).status).toBe(200);
    expect(await stopped()).toBeNull();
  });

  it('answers a relation stored outside today’s bounds (carried over from an older version) instead of failing', async () => {
    const relation = (await http<Relations>(server, 'GET', '/api/copy/relations?portfolio=SMA', { key: admin })).body.data[0]!;
    // The version before relations took copy ratios up to 10 000; the API now sets at most 100.
    await server.app.db.query("UPDATE copy_relations SET sizing = 'ratio', sizing_value = 250 WHERE id = $1", [relation.id]);
    const read = await http<Relations>(server, 'GET', '/api/copy/relations?portfolio=SMA', { key: admin });
    expect(read.status).toBe(200);
    expect(read.body.data.find((r) => r.id === relation.id)!.sizing).toEqual({ mode: 'ratio', ratio: 250 });
    const quality = await http<{ followers: { relation_id: number; sizing: unknown }[] }>(server, 'GET', '/api/copy/report?portfolio=SMA', { key: admin });
    expect(quality.status).toBe(200);
    // An edit must come within the bounds.
    const edit = await write<{ message: string }>('PUT', `/api/copy/relations/${relation.id}`, { sizing: { mode: 'ratio', ratio: 250 }, max_lot: null, equity_stop: null });
    expect(edit.status).toBe(400);
    expect(edit.body.message).toMatch(/sizing\.ratio must be at most 100/);
  });
});
