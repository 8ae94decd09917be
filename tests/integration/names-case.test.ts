import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { hashPassword } from '#server/auth/password.ts';
import { openPglite, openPostgres, type Database } from '#server/db/database.ts';
import { MIGRATIONS, migrate } from '#server/db/migrations.ts';
import { insertNewUser } from '#server/db/registry-repo.ts';
import { REPO_ROOT } from './helpers/process.ts';
import { BACKENDS, testConfig, type Backend } from './helpers/server.ts';

/**
 * User, agent and broker names are unique regardless of case, kept as typed: 'ADMIN' is the user
 * 'admin' (sign-in, the admin CLI), and a second name differing only in case is refused.
 */

const PASSWORD = 'carol-secret-42';

function admin(database: Record<string, string | undefined>, args: string[], stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of ['DATA_DIR', 'DATABASE_URL', 'DATABASE_SCHEMA', 'NEW_PASSWORD', 'DEMO']) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/admin/cli.ts', ...args], { cwd: REPO_ROOT, env: { ...env, ...database } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.end(stdin);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
}

describe.concurrent('names regardless of case', () => {
  it.each(BACKENDS)('the admin CLI refuses ADMIN beside admin, EA-1 beside ea-1, PEPPERSTONE beside Pepperstone; sign-in takes either case (%s)', async (backend: Backend) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'copy-monitor-names-'));
    const schema = `names_${randomBytes(5).toString('hex')}`;
    const database = backend === 'pglite' ? { DATA_DIR: dir } : { DATABASE_URL: process.env.TEST_DATABASE_URL, DATABASE_SCHEMA: schema };
    const ok = async (args: string[], stdin = '') => {
      const run = await admin(database, args, stdin);
      expect(run.code, run.stderr).toBe(0);
      return run.stdout;
    };
    const refused = async (args: string[], message: string, stdin = '') => {
      const run = await admin(database, args, stdin);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr.trim()).toBe(message);
    };
    try {
      await ok(['user', 'create', 'carol', '--portfolios', 'AMC'], `${PASSWORD}\n`);
      await refused(['user', 'create', 'CAROL', '--portfolios', 'all'], 'A user named carol exists already (names are unique regardless of case).', 'another-password-1\n');
      await ok(['broker', 'add', 'Pepperstone']);
      await refused(['broker', 'add', 'PEPPERSTONE'], "A broker named 'Pepperstone' exists already (names are unique regardless of case).");
      await ok(['account', 'add', '--broker', 'pepperstone', '--login', '51234567', '--server', 'Pepperstone-Live01', '--name', 'PP Master', '--currency', 'EUR', '--category', 'AMC']);
      await ok(['agent', 'create', 'ea-1', '--account', '51234567@Pepperstone-Live01:read']);
      await refused(['agent', 'create', 'EA-1', '--account', '51234567@Pepperstone-Live01:read'], 'An agent named ea-1 exists already (names are unique regardless of case).');
      // The other commands find a name in any case.
      expect(await ok(['symbol', 'list', '--broker', 'PEPPERSTONE'])).toBe('(none)\n');
      expect(await ok(['agent', 'revoke', 'EA-1'])).toMatch('EA-1 revoked');
      await refused(['agent', 'create', 'Ea-1', '--account', '51234567@Pepperstone-Live01:read'], 'An agent named ea-1 existed and was revoked: pick another name (names are unique regardless of case).');

      const app = await buildApp(testConfig(backend, { demo: false, ...(backend === 'pglite' ? { dataDir: dir } : { schema }) }));
      try {
        expect(await app.db.query('SELECT username FROM users')).toEqual([{ username: 'carol' }]);
        expect(await app.db.query('SELECT broker_name FROM brokers')).toEqual([{ broker_name: 'Pepperstone' }]);
        expect(await app.db.query('SELECT name FROM agents')).toEqual([{ name: 'ea-1' }]);
        // Whatever writes a user, the database refuses a second name in another case.
        expect(await insertNewUser(app.db, { username: 'Carol', password_hash: await hashPassword(PASSWORD), permissions: [], portfolio_auth: [] })).toBeUndefined();
        for (const username of ['carol', 'CAROL', 'Carol']) {
          const res = await app.inject({ method: 'POST', url: '/api/login', payload: { username, password: PASSWORD } });
          expect(res.statusCode, `${username}: ${res.body}`).toBe(200);
        }
        expect((await app.inject({ method: 'POST', url: '/api/login', payload: { username: 'CAROL', password: 'not-the-password' } })).statusCode).toBe(401);
      } finally {
        await app.close();
      }
      expect(await ok(['user', 'disable', 'Carol'])).toMatch('Carol disabled');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      if (backend === 'postgres') await dropSchema(schema);
    }
  }, 120_000);

  it.each(BACKENDS)('migration 11 stops with what to do on a database holding two names differing only in case, and goes on once one is renamed (%s)', async (backend: Backend) => {
    const schema = `names_${randomBytes(5).toString('hex')}`;
    const db: Database = backend === 'pglite' ? await openPglite(null) : await openPostgres(process.env.TEST_DATABASE_URL!, schema);
    try {
      // A database as it was before migration 11, holding two such names of each kind.
      const before = MIGRATIONS.filter((m) => m.version < 11);
      await db.exec(`CREATE TABLE schema_migrations (version INT PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now());
        ${before.map((m) => `${m.sql}; INSERT INTO schema_migrations (version, name) VALUES (${m.version}, 'v${m.version}');`).join('\n')}`);
      await db.exec(`INSERT INTO users (username, password_hash) VALUES ('admin', 'x'), ('ADMIN', 'x'), ('carol', 'x');
        INSERT INTO agents (name, key_hash) VALUES ('ea-1', 'a'), ('EA-1', 'b');
        INSERT INTO brokers (broker_name, img_path) VALUES ('Pepperstone', ''), ('pepperstone', '');`);
      const error = await migrate(db).then(() => undefined, (err: unknown) => err as Error);
      expect(error?.message).toBe(
        "Migration 11 stopped: user, agent and broker names are now unique regardless of case, and this database holds names that differ only in case: users 'ADMIN' and 'admin'; agents 'EA-1' and 'ea-1'; brokers 'Pepperstone' and 'pepperstone'. " +
          "Rename one of each with SQL (e.g. UPDATE users SET username = 'admin-2' WHERE username = 'ADMIN'; likewise agents.name and brokers.broker_name), then start the server again. Nothing was changed.",
      );
      expect(await db.query('SELECT version FROM schema_migrations WHERE version >= 11')).toEqual([]);
      await db.exec(`UPDATE users SET username = 'admin-2' WHERE username = 'ADMIN';
        UPDATE agents SET name = 'ea-2' WHERE name = 'EA-1';
        UPDATE brokers SET broker_name = 'Pepperstone UK' WHERE broker_name = 'pepperstone';`);
      expect(await migrate(db)).toContain(11);
      expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users'))[0]!.n).toBe(3);
    } finally {
      await db.close();
      if (backend === 'postgres') await dropSchema(schema);
    }
  }, 60_000);
});
