import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Database } from '#server/db/database.ts';
import { migrate } from '#server/db/migrations.ts';
import { DEFAULT_AUTH } from '#server/config.ts';
import { AuthStore, SESSION_CONFIRM_MS } from './auth-store.ts';
import { hashPassword, verifyPassword } from './password.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('sessions expire', () => {
  let db: Database;
  let clock = Date.UTC(2026, 0, 5, 9, 0, 0);
  let store: AuthStore;
  let userId: number;

  beforeAll(async () => {
    db = await openPglite(null);
    await migrate(db);
    store = new AuthStore(db, { ...DEFAULT_AUTH, idleTtlMs: 2 * HOUR, absoluteTtlMs: 24 * HOUR }, () => clock);
    await store.upsertUser({
      username: 'alice',
      password_hash: 'x',
      status: 'active',
      permissions: ['write', 'bogus'],
      portfolio_auth: ['SMA'],
    });
    userId = (await store.findUser('alice'))!.id;
  });
  afterAll(async () => {
    await db.close();
  });

  it('after the idle timeout without use', async () => {
    const key = await store.createSession(userId);
    clock += 2 * HOUR - MIN;
    expect((await store.authenticate(key))?.username).toBe('alice');
    clock += 2 * HOUR - MIN; // used a moment ago: still alive
    expect(await store.authenticate(key)).toBeDefined();
    clock += 2 * HOUR + MIN;
    expect(await store.authenticate(key)).toBeUndefined();
  });

  it('at the absolute limit, however busy', async () => {
    const key = await store.createSession(userId);
    for (let h = 0; h < 23; h++) {
      clock += HOUR;
      expect(await store.authenticate(key)).toBeDefined();
    }
    clock += HOUR;
    expect(await store.authenticate(key)).toBeUndefined();
  });

  it('keeps only known permissions', async () => {
    const key = await store.createSession(userId);
    expect((await store.authenticate(key))?.permissions).toEqual(['write']);
  });

  it('spends a websocket ticket once, and never after 30 s', async () => {
    const key = await store.createSession(userId);
    const session = (await store.authenticate(key))!;
    const ticket = await store.issueTicket(session.apiKeyId);
    expect((await store.redeemTicket(ticket))?.id).toBe(userId);
    expect(await store.redeemTicket(ticket)).toBeUndefined();
    const late = await store.issueTicket(session.apiKeyId);
    clock += 31_000;
    expect(await store.redeemTicket(late)).toBeUndefined();
  });

  it('refuses the tickets of a revoked session', async () => {
    const key = await store.createSession(userId);
    const session = (await store.authenticate(key))!;
    const ticket = await store.issueTicket(session.apiKeyId);
    await store.revoke(session.apiKeyId);
    expect(await store.redeemTicket(ticket)).toBeUndefined();
    expect(await store.authenticate(key)).toBeUndefined();
  });
});

describe('sessions in use cost no query per request', () => {
  let db: Database;
  let tick = 0;
  const monotonic = () => tick;
  // Two instances on one database: each has its own cache.
  let here: AuthStore;
  let there: AuthStore;
  let userId: number;
  const settle = () => new Promise((r) => setTimeout(r, 20));

  beforeAll(async () => {
    db = await openPglite(null);
    await migrate(db);
    here = new AuthStore(db, DEFAULT_AUTH, Date.now, monotonic);
    there = new AuthStore(db, DEFAULT_AUTH, Date.now, monotonic);
    await here.upsertUser({ username: 'bob', password_hash: 'x', status: 'active', permissions: ['write'], portfolio_auth: ['SMA'] });
    userId = (await here.findUser('bob'))!.id;
  });
  afterAll(async () => {
    await db.close();
  });

  it('reads a session once for a burst of requests', async () => {
    const key = await here.createSession(userId);
    const before = here.sessionReads;
    for (let i = 0; i < 50; i++) expect((await here.authenticate(key))?.username).toBe('bob');
    expect(here.sessionReads - before).toBe(1);
  });

  it('refuses a session revoked on this instance at once', async () => {
    const key = await here.createSession(userId);
    const s = (await here.authenticate(key))!;
    await here.revoke(s.apiKeyId);
    expect(await here.authenticate(key)).toBeUndefined();
  });

  it('refuses a session revoked on another instance once its confirmation is older than the limit', async () => {
    const key = await here.createSession(userId);
    const s = (await here.authenticate(key))!;
    await there.revoke(s.apiKeyId);
    // Whatever the sweeps did meanwhile, no answer comes from a read older than the limit.
    tick += SESSION_CONFIRM_MS;
    expect(await here.authenticate(key)).toBeUndefined();
  });

  it('a sweep of the sessions in use sees a revocation before the limit', async () => {
    const key = await here.createSession(userId);
    const s = (await here.authenticate(key))!;
    await there.revoke(s.apiKeyId);
    tick += 300; // past the sweep interval: this request starts a sweep
    await here.authenticate(key);
    await settle();
    expect(await here.authenticate(key)).toBeUndefined();
  });

  it('shows a user disabled by another process, and permissions changed in the database, within the limit', async () => {
    const key = await here.createSession(userId);
    expect((await here.authenticate(key))?.permissions).toEqual(['write']);
    await db.query("UPDATE users SET permissions = '{}' WHERE id = $1", [userId]);
    tick += SESSION_CONFIRM_MS;
    expect((await here.authenticate(key))?.permissions).toEqual([]);
    await there.setUserStatus('bob', 'disabled');
    tick += SESSION_CONFIRM_MS;
    expect(await here.authenticate(key)).toBeUndefined();
    await there.setUserStatus('bob', 'active');
  });
});

describe('password hashes', () => {
  it('verify the right password only, with a fresh salt each time', async () => {
    const a = await hashPassword('s3cret!');
    const b = await hashPassword('s3cret!');
    expect(a).not.toBe(b);
    expect(await verifyPassword('s3cret!', a)).toBe(true);
    expect(await verifyPassword('s3cret?', a)).toBe(false);
    expect(await verifyPassword('s3cret!', 'garbage')).toBe(false);
  });
});
