import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#server/app.ts';
import { hashToken } from '#server/auth/tokens.ts';
import { agentByKeyHash } from '#server/db/agents-repo.ts';
import { symbolMap } from '#server/db/symbol-map-repo.ts';
import { REPO_ROOT } from './helpers/process.ts';
import { BACKENDS, testConfig, type Backend } from './helpers/server.ts';

/** What the operator sees of one run of `npm run admin -- …`. */
interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Variables of the caller's environment that would point the CLI at another database. */
const DATABASE_VARS = ['DATA_DIR', 'DATABASE_URL', 'DATABASE_SCHEMA', 'NEW_PASSWORD', 'DEMO'];

const MASTER = '51234567@Pepperstone-Live01';
const FOLLOWER = '51234568@Pepperstone-Live01';
const PASSWORD = 'carol-secret-42';

/** The real CLI as a child process (`node --import tsx src/server/admin/cli.ts …`) on the database `db` names, stdin given. */
function admin(db: Record<string, string | undefined>, args: string[], stdin = ''): Promise<Run> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of DATABASE_VARS) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/admin/cli.ts', ...args], {
    cwd: REPO_ROOT,
    env: { ...env, ...db },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
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

/** A refusal: the exit code, and one line on stderr matching `message`. */
function expectRefused(run: Run, code: number, message: RegExp): void {
  expect(run.code, run.stderr).toBe(code);
  expect(run.stderr.trim().split('\n'), run.stderr).toHaveLength(1);
  expect(run.stderr).toMatch(message);
}

/** Signs in as carol through the real route. */
const signIn = (app: FastifyInstance, password = PASSWORD) =>
  app.inject({ method: 'POST', url: '/api/login', payload: { username: 'carol', password } });

/** The arguments of `account add` for a Pepperstone account on Pepperstone-Live01. */
const accountAdd = (login: string, name: string, ...more: string[]) => [
  'account', 'add', '--broker', 'Pepperstone', '--login', login, '--server', 'Pepperstone-Live01',
  '--name', name, '--currency', 'EUR', '--category', 'global forex', ...more,
];

/** One database (a fresh PGlite data dir, or a fresh PostgreSQL schema) set up through the CLI, step by step. */
class Flow {
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'copy-monitor-admin-'));
  private readonly schema = `admin_${randomBytes(5).toString('hex')}`;
  private readonly database: Record<string, string | undefined>;
  private key = '';

  constructor(private readonly backend: Backend) {
    this.database =
      backend === 'pglite' ? { DATA_DIR: this.dir } : { DATABASE_URL: process.env.TEST_DATABASE_URL, DATABASE_SCHEMA: this.schema };
  }

  async run(): Promise<void> {
    try {
      await this.register();
      await this.copies();
      await this.fees();
      await this.revoke();
      // What the database refuses, once: on PostgreSQL when it is configured (in parallel), else on
      // PGlite (one process at a time may open it).
      if (this.backend === BACKENDS.at(-1)) await this.clashes();
    } finally {
      fs.rmSync(this.dir, { recursive: true, force: true });
      if (this.backend === 'postgres') {
        const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${this.schema} CASCADE`);
        await client.end();
      }
    }
  }

  private async refused(args: string[], code: number, message: RegExp, stdin = ''): Promise<void> {
    expectRefused(await admin(this.database, args, stdin), code, message);
  }

  private async ok(args: string[], stdin = ''): Promise<string> {
    const run = await admin(this.database, args, stdin);
    expect(run.code, run.stderr).toBe(0);
    return run.stdout;
  }

  /** The server (no demo) on the database the CLI wrote, while fn runs: the CLI must not run meanwhile (PGlite). */
  private async withApp(fn: (app: FastifyInstance) => Promise<void>): Promise<void> {
    const options = this.backend === 'pglite' ? { dataDir: this.dir } : { schema: this.schema };
    const app = await buildApp(testConfig(this.backend, { demo: false, ...options }));
    try {
      await fn(app);
    } finally {
      await app.close();
    }
  }

  /** A master and its follower, a user who signs in, and an agent whose key is printed once and stored hashed. */
  private async register(): Promise<void> {
    expect(await this.ok(['broker', 'add', 'Pepperstone', '--logo', '/brokers/pepperstone.svg'])).toMatch("Broker 'Pepperstone' added");
    expect(await this.ok(accountAdd('51234567', 'PP Master'))).toMatch('registered as a master');
    await this.refused(accountAdd('51234569', 'Orphan', '--master', '99999999@Pepperstone-Live01', '--ratio', '0.5'), 1, /^Unknown master 99999999@Pepperstone-Live01/);
    expect(await this.ok(accountAdd('51234568', 'PP Follower', '--master', MASTER, '--ratio', '0.5', '--leverage', '200'))).toMatch(
      `follower of ${MASTER} at ratio 0.5`,
    );
    expect(await this.ok(['symbol', 'map', '--broker', 'Pepperstone', 'EURUSD.m', 'EURUSD'])).toMatch('EURUSD.m → EURUSD');
    expect(await this.ok(['user', 'create', 'carol', '--roles', 'write,read_rebate', '--portfolios', 'Global FX,AMC'], `${PASSWORD}\n`)).toMatch(
      'User carol created',
    );
    const created = await this.ok(['agent', 'create', 'ea-1', '--account', `${MASTER}:trade`, '--account', `${FOLLOWER}:read`]);
    const keys = created.split('\n').filter((line) => /^[A-Za-z0-9_-]{43}$/.test(line));
    expect(keys).toHaveLength(1);
    this.key = keys[0]!;
    expect(Buffer.from(this.key, 'base64url')).toHaveLength(32);

    await this.withApp(async (app) => {
      const db = app.db;
      // The master and its follower, with the ratio and the agent source; nothing of the refused follower.
      // The follower's copy relation: by ratio 0.5, in force.
      const accounts = await db.query(
        `SELECT a.account || '@' || a.server AS login, m.account || '@' || m.server AS master, r.sizing, r.sizing_value,
                a.leverage, a.source, a.currency, a.teiko_category
         FROM accounts a LEFT JOIN copy_relations r ON r.follower_id = a.id AND r.ended_at IS NULL
         LEFT JOIN accounts m ON m.id = r.master_id ORDER BY a.account`,
      );
      expect(accounts).toEqual([
        { login: MASTER, master: null, sizing: null, sizing_value: null, leverage: 100, source: 'agent', currency: 'EUR', teiko_category: 'global forex' },
        { login: FOLLOWER, master: MASTER, sizing: 'ratio', sizing_value: 0.5, leverage: 200, source: 'agent', currency: 'EUR', teiko_category: 'global forex' },
      ]);

      // The key the operator copied is accepted, hashed as the server hashes keys; only its hash is stored.
      expect(await agentByKeyHash(db, hashToken(this.key))).toMatchObject({ name: 'ea-1' });
      expect(await db.query('SELECT name, key_hash FROM agents')).toEqual([{ name: 'ea-1', key_hash: hashToken(this.key) }]);
      const rights = await db.query(
        `SELECT a.account || '@' || a.server AS login, ga.rights FROM agent_accounts ga JOIN accounts a ON a.id = ga.account_id ORDER BY a.account`,
      );
      expect(rights).toEqual([{ login: MASTER, rights: 'trade' }, { login: FOLLOWER, rights: 'read' }]);

      const broker = (await db.query<{ id: number }>("SELECT id FROM brokers WHERE broker_name = 'Pepperstone'"))[0]!;
      expect((await symbolMap(db, broker.id)).get('EURUSD.m')).toBe('EURUSD');

      // The new user signs in with the password given on stdin, with their roles and portfolios.
      const res = await signIn(app);
      expect(res.statusCode, res.body).toBe(200);
      const session = res.json<{ data: { restrictions: string[]; portfolio_auth: string[]; status: string } }>().data;
      expect(session).toMatchObject({ restrictions: ['write', 'read_rebate'], portfolio_auth: ['Global FX', 'AMC'], status: 'active' });
      expect((await signIn(app, 'not-the-password')).statusCode).toBe(401);
    });
  }

  /** Copy relations and rules set up with the copy commands: the API's checks, audited, seen by the server. */
  private async copies(): Promise<void> {
    expect(await this.ok(['copy', 'list'])).toMatch(new RegExp(`${FOLLOWER}\\s+${MASTER}\\s+ratio 0\\.5`));
    await this.refused(['copy', 'add', '--master', MASTER, '--follower', FOLLOWER, '--ratio', '1'], 1, /^PP Follower already copies PP Master \(relation \d+\): edit that relation instead/);
    await this.refused(['copy', 'add', '--master', MASTER, '--follower', MASTER, '--ratio', '1'], 1, /^PP Master cannot copy itself/);
    await this.refused(['copy', 'add', '--master', '99999999@Pepperstone-Live01', '--follower', FOLLOWER, '--ratio', '1'], 1, /^Unknown master 99999999@Pepperstone-Live01/);
    expect(await this.ok(['copy', 'edit', '--follower', FOLLOWER, '--equity', '1.5', '--max-lot', '2', '--equity-stop', '5000'])).toMatch(
      `${FOLLOWER} copies ${MASTER} by equity proportion × 1.5, at most 2; equity stop 5000 EUR`,
    );
    expect(await this.ok(['copy', 'pairs', '--master', MASTER, 'GBPUSD,EURUSD'])).toMatch(`${MASTER} (Forex): its followers copy EURUSD, GBPUSD.`);
    await this.refused(['copy', 'pairs', '--master', MASTER, 'AAPL'], 1, /^Not Forex instruments: AAPL/);
    await this.refused(['copy', 'pairs', '--master', FOLLOWER, 'EURUSD'], 1, /follows a master: only a master has copy rules/);
    const listed = await this.ok(['copy', 'list']);
    expect(listed).toMatch(/equity proportion × 1\.5, at most 2\s+5000 EUR/);
    expect(listed).toMatch(/pepperstone-51234567\s+PP Master\s+Forex\s+EURUSD,GBPUSD/);

    await this.withApp(async (app) => {
      // The server reads what the CLI wrote: the relation, its terms and the rule, as the API shows them.
      const res = await signIn(app);
      const key = res.json<{ data: { api_key: string } }>().data.api_key;
      const relations = await app.inject({ method: 'GET', url: '/api/copy/relations', headers: { 'x-api-key': key } });
      expect(relations.json<{ data: unknown[] }>().data).toEqual([
        expect.objectContaining({ sizing: { mode: 'equity', multiplier: 1.5 }, max_lot: 2, equity_stop: 5000, ended_at: null }),
      ]);
      const audit = await app.db.query<{ action: string; via: string }>(
        "SELECT action, detail->>'via' AS via FROM audit_log WHERE action LIKE 'copy%' ORDER BY id",
      );
      // account add --master created the relation as copy add does, with its audit row.
      expect(audit).toEqual([
        { action: 'copy.relation.create', via: 'admin cli' },
        { action: 'copy.relation.update', via: 'admin cli' },
        { action: 'copy-rules.allowed-pairs', via: 'admin cli' },
      ]);
    });

    expect(await this.ok(['copy', 'end', '--follower', FOLLOWER])).toMatch(`${FOLLOWER} no longer copies ${MASTER}`);
    await this.refused(['copy', 'end', '--follower', FOLLOWER], 1, /copies no master/);
    // Ended, the relation stays in the history; the follower may copy again.
    expect(await this.ok(['copy', 'list', '--all', 'yes'])).toMatch(new RegExp(`${FOLLOWER}\\s+${MASTER}.*Z\\s+\\d{4}-`));
    expect(await this.ok(['copy', 'add', '--master', MASTER, '--follower', FOLLOWER, '--fixed', '0.1'])).toMatch(`${FOLLOWER} now copies ${MASTER} by fixed 0.1`);
  }

  /** Fee terms set with the fees commands: the API's schema and checks, audited, seen by the server. */
  private async fees(): Promise<void> {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const [y, m, d] = tomorrow.split('-');
    expect(await this.ok(['fees', 'show', '--account', FOLLOWER])).toMatch(/^In force today: monthly; performance (25|20) % on equity, withdrawals by amount; no management fee; no volume fee \(the category default\)/);
    expect(
      await this.ok(['fees', 'set', '--account', FOLLOWER, '--from', tomorrow, '--period', 'quarterly', '--performance', '0.3', '--withdrawals', 'proportional', '--management', '0.015']),
    ).toMatch(`Fee terms of PP Follower set from ${d}/${m}/${y}. quarterly; performance 30 % on equity, withdrawals in proportion; management 1.5 % a year; no volume fee.`);
    await this.refused(['fees', 'set', '--account', FOLLOWER, '--from', '2020-01-01', '--performance', '0.2'], 1, /never retroactive/);
    await this.refused(['fees', 'set', '--account', FOLLOWER, '--from', tomorrow, '--performance', '2'], 2, /performance\.rate must be at most 1/);
    await this.refused(['fees', 'set', '--account', FOLLOWER, '--from', tomorrow], 2, /Give at least one fee/);
    await this.refused(['fees', 'set', '--account', '99999999@Pepperstone-Live01', '--from', tomorrow, '--volume', '30'], 1, /^Unknown account 99999999@Pepperstone-Live01/);
    expect(await this.ok(['fees', 'show', '--account', FOLLOWER])).toMatch(new RegExp(`${tomorrow}\\s+quarterly; performance 30 %.*admin cli`));

    await this.withApp(async (app) => {
      const key = (await signIn(app)).json<{ data: { api_key: string } }>().data.api_key;
      const res = await app.inject({ method: 'GET', url: `/api/fees/terms?account=${encodeURIComponent(FOLLOWER.split('@')[0]!)}`, headers: { 'x-api-key': key } });
      expect(res.json<{ data: { versions: unknown[] } }>().data.versions).toEqual([
        expect.objectContaining({ effective_from: tomorrow, set_by: null, terms: { period: 'quarterly', performance: { rate: 0.3, basis: 'equity', withdrawals: 'proportional' }, management: { annual_rate: 0.015 }, volume: null } }),
      ]);
      const audit = await app.db.query<{ via: string }>("SELECT detail->>'via' AS via FROM audit_log WHERE action = 'fees.terms'");
      expect(audit).toEqual([{ via: 'admin cli' }]);
    });
  }

  /** The key is refused once revoked, and the user once disabled. */
  private async revoke(): Promise<void> {
    const listed = await this.ok(['agent', 'list']);
    expect(listed).toMatch(`${MASTER}:trade, ${FOLLOWER}:read`);
    expect(listed).not.toContain(this.key);
    expect(await this.ok(['agent', 'revoke', 'ea-1'])).toMatch('ea-1 revoked');
    expect(await this.ok(['user', 'disable', 'carol'])).toMatch('carol disabled');

    await this.withApp(async (app) => {
      expect(await agentByKeyHash(app.db, hashToken(this.key))).toBeUndefined();
      expect((await signIn(app)).statusCode).toBe(401);
    });
  }

  /** What clashes with what is stored is refused with one line and exit code 1, and writes nothing. */
  private async clashes(): Promise<void> {
    const cases: [string[], RegExp, string?][] = [
      [accountAdd('51234567', 'Again'), /^The login 51234567@Pepperstone-Live01 is registered already \(as 'PP Master'\)/],
      [accountAdd('51234569', 'Sub', '--master', FOLLOWER), /^PP Follower copies PP Master itself: a follower cannot be a master \(no chains of copies\)/],
      [['account', 'add', '--broker', 'Nowhere', '--login', '1', '--server', 'X', '--name', 'N', '--currency', 'EUR', '--category', 'SMA'], /^Unknown broker 'Nowhere'/],
      [['user', 'create', 'carol', '--portfolios', 'AMC'], /^A user named carol exists already/, `${PASSWORD}\n`],
      // One unknown account refuses the whole agent: no agent without its accounts.
      [['agent', 'create', 'ea-2', '--account', `${MASTER}:read`, '--account', '424242@Pepperstone-Live01:read'], /^Unknown account 424242@Pepperstone-Live01/],
      [['agent', 'create', 'ea-1', '--account', `${MASTER}:read`], /^An agent named ea-1 existed and was revoked/],
      [['agent', 'grant', 'ea-1', '--account', `${FOLLOWER}:trade`], /^The agent ea-1 is revoked/],
    ];
    const runs =
      this.backend === 'postgres'
        ? await Promise.all(cases.map(([args, , stdin]) => admin(this.database, args, stdin)))
        : await cases.reduce<Promise<Run[]>>(async (done, [args, , stdin]) => [...(await done), await admin(this.database, args, stdin)], Promise.resolve([]));
    runs.forEach((run, i) => expectRefused(run, 1, cases[i]![1]));
    await this.withApp(async (app) => {
      expect(await app.db.query('SELECT count(*)::int AS n FROM accounts')).toEqual([{ n: 2 }]);
      expect(await app.db.query('SELECT count(*)::int AS n FROM users')).toEqual([{ n: 1 }]);
      expect(await app.db.query('SELECT count(*)::int AS n FROM agents')).toEqual([{ n: 1 }]);
    });
  }
}

// These run side by side (each flow's steps in order, each flow on a database of its own): the CLI
// runs are processes of their own, so the suite takes about as long as its slowest flow.
describe.concurrent('the admin CLI', () => {
  it('lists every command in --help, and refuses each bad input with one line and exit code 2 before it opens the database', async () => {
    const dir = path.join(os.tmpdir(), `copy-monitor-admin-none-${randomBytes(4).toString('hex')}`);
    const run = (args: string[], stdin = '') => admin({ DATA_DIR: dir }, args, stdin);
    const [help, ...refusals] = await Promise.all([
      run(['--help']),
      run(accountAdd('51234569', 'Zero', '--master', MASTER, '--ratio', '0')),
      run(accountAdd('51234569', 'Huge', '--master', MASTER, '--ratio', '101')),
      run(accountAdd('51234569', 'Alone', '--ratio', '0.5')),
      run(accountAdd('51234569', 'Twice', '--category', 'SMA')),
      run(['account', 'add', '--broker', 'Pepperstone', '--login', '5', '--server', 'S', '--name', 'N', '--currency', 'EUR', '--category', 'crypto']),
      run(['account', 'add', '--broker', 'Pepperstone', '--login', '5', '--server', 'S', '--name', 'N', '--currency', 'EURO', '--category', 'SMA']),
      run(['agent', 'create', 'ea-x', '--account', `${MASTER}:admin`]),
      run(['agent', 'create', 'ea-x']),
      run(['user', 'create', 'dave', '--roles', 'root', '--portfolios', 'AMC']),
      run(['user', 'create', 'dave', '--portfolios', 'Crypto']),
      run(['user', 'create', 'dave', '--portfolios', 'AMC'], 'short\n'),
      run(['user', 'create', 'dave', '--portfolios', 'AMC']),
      run(['account', 'frobnicate']),
      run(['copy', 'add', '--master', MASTER, '--follower', FOLLOWER, '--ratio', '1', '--fixed', '0.1']),
      run(['copy', 'add', '--master', MASTER, '--follower', FOLLOWER, '--ratio', '0']),
      run(['copy', 'add', '--master', MASTER, '--follower', FOLLOWER]),
      run(['copy', 'edit', '--follower', FOLLOWER]),
      run(['copy', 'add', '--master', MASTER, '--follower', FOLLOWER, '--fixed', '0.1', '--max-lot', 'lots']),
    ]);
    expect(help.code).toBe(0);
    for (const command of ['user create', 'user disable', 'user enable', 'user password', 'broker add', 'account add', 'symbol map', 'symbol list', 'agent create', 'agent grant', 'agent revoke', 'agent list', 'copy add', 'copy edit', 'copy end', 'copy list', 'copy pairs']) {
      expect(help.stdout).toContain(command);
    }
    const expected: RegExp[] = [
      /ratio must be a number above 0/,
      /The ratio 101 is too large \(at most 100\)/,
      /--ratio is the copy ratio of a follower: give --master too/,
      /Option --category is given twice/,
      /^Unknown category 'crypto'/,
      /'EURO' is not a currency/,
      /must end with :read or :trade/,
      /Give at least one --account/,
      /^Unknown role 'root'/,
      /^Unknown portfolio 'Crypto'/,
      /at least 10 characters/,
      /No password given/,
      /^Unknown command 'account frobnicate'/,
      /^Give one sizing: --ratio or --fixed, not both/,
      /--ratio must be from 0\.0001 to 100 \(got '0'\)/,
      /^Give the sizing: --ratio <ratio>, --equity <multiplier> or --fixed <lot>/,
      /^Nothing to change/,
      /--max-lot must be a number \(got 'lots'\)/,
    ];
    refusals.forEach((r, i) => expectRefused(r, 2, expected[i]!));
    // Nothing was opened, not even the data directory.
    expect(fs.existsSync(dir)).toBe(false);
  });

  // A few dozen processes, each starting Node and opening the database (about 95 s alone on two
  // cores, three times that when the other suites share them, as on CI): room for a busy machine.
  it.each(BACKENDS)('sets up users, accounts, symbols and agents on %s', async (backend) => {
    await new Flow(backend).run();
  }, 600_000);
});
