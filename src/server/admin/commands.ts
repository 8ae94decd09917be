// The admin CLI's commands: each validates what it was given before the database opens, then makes
// its change in one transaction (or reads), and says what it did in a line or a table.
import { createInterface } from 'node:readline';
import type { AppConfig, AuthConfig } from '#server/config.ts';
import { AuthStore } from '#server/auth/auth-store.ts';
import { hashPassword } from '#server/auth/password.ts';
import type { Database, Queryable } from '#server/db/database.ts';
import { audit } from '#server/db/audit-repo.ts';
import { insertBroker, listBrokers } from '#server/db/accounts-repo.ts';
import { listSymbols, setSymbol, symbolMap } from '#server/db/symbol-map-repo.ts';
import { findUserByName } from '#server/db/users-repo.ts';
import { createRelationIn } from '#server/copy/relations.ts';
import { SIZING_LIMITS } from '#shared/contract/copy-relations.ts';
import {
  accountByLogin,
  accountIdTaken,
  accountNameTaken,
  auditOperator,
  brokerByName,
  insertRegisteredAccount,
  insertNewUser,
  listAccountRegistry,
  listUsers,
} from '#server/db/registry-repo.ts';
import {
  CliError,
  accountKey,
  accountLabel,
  category,
  currency,
  invalid,
  leverage,
  login,
  logo,
  name,
  one,
  portfolios,
  ratio,
  required,
  roles,
  server,
  slug,
  symbol,
  type Grant,
  type Input,
  type OptionKinds,
} from './args.ts';
import { OPERATOR, asCli } from './operator.ts';
import { ADAPTERS } from '#server/broker/registry.ts';

export interface Context {
  db: Database;
  auth: AuthConfig;
  /** The whole configuration, for commands that need more than the database (a key to seal a secret). */
  config?: AppConfig;
  out: (line: string) => void;
}

export interface Command {
  area: string;
  verb: string;
  /** What follows `area verb` in the help. */
  synopsis: string;
  /** One line (or two) of help. */
  help: string;
  /** How many positionals it takes. */
  positionals: number;
  options: OptionKinds;
  /** Validates the input (and reads a password) before the database opens. */
  prepare(input: Input): Promise<(ctx: Context) => Promise<void>>;
}

export function command<T>(def: {
  area: string;
  verb: string;
  synopsis: string;
  help: string;
  positionals?: number;
  options?: OptionKinds;
  parse: (input: Input) => T | Promise<T>;
  run: (ctx: Context, value: T) => Promise<void>;
}): Command {
  return {
    area: def.area,
    verb: def.verb,
    synopsis: def.synopsis,
    help: def.help,
    positionals: def.positionals ?? 0,
    options: def.options ?? {},
    async prepare(input) {
      const value = await def.parse(input);
      return (ctx) => def.run(ctx, value);
    },
  };
}

const PASSWORD_MIN = 10;
const PASSWORD_MAX = 1000;

/** The new password: NEW_PASSWORD, or one line on stdin (typed at the prompt, or piped). */
async function readPassword(): Promise<string> {
  const given = process.env.NEW_PASSWORD ?? (await readLine('New password: '));
  const password = given.trim();
  if (password.length < PASSWORD_MIN) throw invalid(`The new password must have at least ${PASSWORD_MIN} characters.`);
  if (password.length > PASSWORD_MAX) throw invalid(`The new password must have at most ${PASSWORD_MAX} characters.`);
  return password;
}

/** A secret: the environment variable `env` where set, else one line on stdin (typed at the prompt, or piped). */
export async function readSecret(env: string, prompt: string, what: string): Promise<string> {
  return (process.env[env] ?? (await readLine(prompt, `No ${what} given: type it at the prompt, pipe it on stdin, or set ${env}.`))).trim();
}

function readLine(prompt: string, missing = 'No password given: type it at the prompt, pipe it on stdin, or set NEW_PASSWORD.'): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
  return new Promise<string>((resolve, reject) => {
    let answered = false;
    rl.once('close', () => {
      if (!answered) reject(invalid(missing));
    });
    // The prompt only for a person at a terminal; a piped password is read as it comes.
    if (process.stdin.isTTY) process.stderr.write(prompt);
    rl.once('line', (line) => {
      answered = true;
      rl.close();
      resolve(line);
    });
  });
}

/** Columns padded to their widest cell; "(none)" for an empty table. */
export function table(out: (line: string) => void, header: string[], rows: string[][]): void {
  if (rows.length === 0) {
    out('(none)');
    return;
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  for (const row of [header, ...rows]) out(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
}

export const iso = (d: Date | null): string => (d ? d.toISOString().replace(/\.\d{3}Z$/, 'Z') : '');

/** A unique-key violation from either driver (a concurrent writer won the race). */
export const isUniqueViolation = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === '23505';

/** Names of users, agents and brokers are unique regardless of case: 'ADMIN' is taken by 'admin'. */
export const sameCase = ' (names are unique regardless of case)';

async function storedUserName(q: Queryable, username: string): Promise<string> {
  return (await findUserByName(q, username))?.username ?? username;
}

async function requireBroker(q: Queryable, brokerName: string): Promise<{ id: number; broker_name: string }> {
  const broker = await brokerByName(q, brokerName);
  if (!broker) throw new CliError(`Unknown broker '${brokerName}': add it first with: broker add "${brokerName}".`);
  return broker;
}

/** The accounts named by grants, or a refusal naming the first unknown one. */
export async function grantedAccounts(q: Queryable, list: readonly Grant[]): Promise<{ grant: Grant; id: number }[]> {
  const out: { grant: Grant; id: number }[] = [];
  for (const grant of list) {
    const account = await accountByLogin(q, grant.login, grant.server);
    if (!account) throw new CliError(`Unknown account ${accountLabel(grant)}: register it first with account add.`);
    out.push({ grant, id: account.id });
  }
  return out;
}

export const grantsText = (list: readonly Grant[]): string => list.map((g) => `${accountLabel(g)} (${g.rights})`).join(', ');

// ---- users ---------------------------------------------------------------------------------------

const userCreate = command({
  area: 'user',
  verb: 'create',
  synopsis: '<username> --portfolios "Global FX,AMC" [--roles write,read_rebate]',
  help: 'add an active user; password from stdin or NEW_PASSWORD (10+ characters); portfolios: all, or of\n' +
    '      Consolidated Portfolio, Global FX, Global Equity, SMA, AMC; roles: write, read_rebate (none if omitted)',
  positionals: 1,
  options: { roles: 'one', portfolios: 'one' },
  async parse(input) {
    const username = name('user name', input.positionals[0]!, 200);
    const permissions = roles(one(input, 'roles'));
    const portfolioAuth = portfolios(required(input, 'portfolios', 'the portfolios the user sees, or all'));
    return { username, permissions, portfolioAuth, password: await readPassword() };
  },
  async run({ db, out }, u) {
    const passwordHash = await hashPassword(u.password);
    await db.transaction(async (tx) => {
      const id = await insertNewUser(tx, {
        username: u.username,
        password_hash: passwordHash,
        permissions: u.permissions,
        portfolio_auth: u.portfolioAuth,
      });
      if (id === undefined) throw new CliError(`A user named ${await storedUserName(tx, u.username)} exists already${sameCase}.`);
      await audit(tx, id, 'users.create', { username: u.username, permissions: u.permissions, portfolio_auth: u.portfolioAuth, via: 'admin cli' });
    });
    out(
      `User ${u.username} created: roles ${u.permissions.join(', ') || 'none'}; portfolios ${u.portfolioAuth.join(', ')}.`,
    );
  },
});

function statusCommand(verb: 'disable' | 'enable') {
  return command({
    area: 'user',
    verb,
    synopsis: '<username>',
    help: verb === 'disable' ? 'disable a user: every session and socket of theirs ends within a second' : 'enable a disabled user again',
    positionals: 1,
    parse: (input) => input.positionals[0]!,
    async run({ db, auth, out }, username) {
      const store = new AuthStore(db, auth);
      if (!(await store.setUserStatus(username, verb === 'disable' ? 'disabled' : 'active'))) throw new CliError(`No such user: ${username}`);
      out(verb === 'disable' ? `${username} disabled; every session of theirs ended.` : `${username} enabled.`);
    },
  });
}

const userPassword = command({
  area: 'user',
  verb: 'password',
  synopsis: '<username>',
  help: 'set a new password (read from stdin, or NEW_PASSWORD); every session ends',
  positionals: 1,
  parse: async (input) => ({ username: input.positionals[0]!, password: await readPassword() }),
  async run({ db, auth, out }, { username, password }) {
    const store = new AuthStore(db, auth);
    const user = await store.findUser(username);
    if (!user) throw new CliError(`No such user: ${username}`);
    await store.setPasswordHash(user.id, await hashPassword(password));
    out(`Password of ${username} changed; every session of theirs ended.`);
  },
});

const userList = command({
  area: 'user',
  verb: 'list',
  synopsis: '',
  help: 'list the users with their status, roles and portfolios',
  parse: () => undefined,
  async run({ db, out }) {
    const users = await listUsers(db);
    table(
      out,
      ['USER', 'STATUS', 'ROLES', 'PORTFOLIOS'],
      users.map((u) => [u.username, u.status, u.permissions.join(',') || '-', u.portfolio_auth.join(',') || '-']),
    );
  },
});

// ---- brokers -------------------------------------------------------------------------------------

const brokerAdd = command({
  area: 'broker',
  verb: 'add',
  synopsis: '<name> [--logo /brokers/pepperstone.svg]',
  help: 'add a broker (its logo: a path the app serves, or an https URL; none if omitted)',
  positionals: 1,
  options: { logo: 'one' },
  parse(input) {
    const logoPath = one(input, 'logo');
    return { name: name('broker name', input.positionals[0]!), logo: logoPath === undefined ? '' : logo(logoPath) };
  },
  async run({ db, out }, b) {
    await db.transaction(async (tx) => {
      const existing = await brokerByName(tx, b.name);
      if (existing) throw new CliError(`A broker named '${existing.broker_name}' exists already${sameCase}.`);
      await insertBroker(tx, { broker_name: b.name, img_path: b.logo, spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
      await auditOperator(tx, 'brokers.add', { broker: b.name, img_path: b.logo });
    });
    out(`Broker '${b.name}' added.`);
  },
});

const brokerList = command({
  area: 'broker',
  verb: 'list',
  synopsis: '',
  help: 'list the brokers',
  parse: () => undefined,
  async run({ db, out }) {
    table(out, ['BROKER', 'LOGO'], (await listBrokers(db)).map((b) => [b.broker_name, b.img_path || '-']));
  },
});

// ---- accounts ------------------------------------------------------------------------------------

/** The sources whose accounts an operator registers, from the broker registry's declarations. */
const REGISTERED = ADAPTERS.filter((a) => a.capabilities.registration !== null);
/** Without --source: the adapter of terminals (the first registered one that reports live). */
const DEFAULT_SOURCE = (REGISTERED.find((a) => a.capabilities.feed === 'terminal') ?? REGISTERED[0])?.source;

const accountAdd = command({
  area: 'account',
  verb: 'add',
  synopsis:
    '--broker <name> --login <login> --server <server> --name <account name> --currency EUR\n' +
    '    --category <consolidate|global forex|global equity|SMA|AMC>\n' +
    `    [--source ${REGISTERED.map((a) => a.source).join('|')}]\n` +
    '    [--master <login>@<server>] [--ratio 0.5] [--leverage 100] [--server-name "Pepperstone Live 01"]',
  help: `register an account; --source says what feeds it (default ${DEFAULT_SOURCE}: a terminal agent reports it; ibkr: its\n` +
    '      Interactive Brokers Flex statements, --login the account id such as U1234567, --server optional); without\n' +
    '      --master it is a master, with it a follower copying that master at --ratio (default 1): the same as\n' +
    '      account add, then copy add --ratio',
  options: {
    source: 'one',
    broker: 'one',
    login: 'one',
    server: 'one',
    'server-name': 'one',
    name: 'one',
    currency: 'one',
    category: 'one',
    master: 'one',
    ratio: 'one',
    leverage: 'one',
  },
  parse(input) {
    const master = one(input, 'master');
    const ratioText = one(input, 'ratio');
    if (ratioText !== undefined && master === undefined) throw invalid('--ratio is the copy ratio of a follower: give --master too.');
    const sourceName = one(input, 'source') ?? DEFAULT_SOURCE;
    const adapter = REGISTERED.find((a) => a.source === sourceName);
    if (!adapter) throw invalid(`--source '${sourceName}' is not one of ${REGISTERED.map((a) => a.source).join(', ')}.`);
    const defaultServer = adapter.capabilities.registration!.server;
    const srv = server(defaultServer === null ? required(input, 'server', 'the trading server, as the terminal shows it') : (one(input, 'server') ?? defaultServer));
    const serverName = one(input, 'server-name');
    return {
      source: adapter.source,
      broker: name('broker name', required(input, 'broker', 'a broker added with broker add')),
      login: login(required(input, 'login', 'the trading login')),
      server: srv,
      serverName: serverName === undefined ? srv : name('server name', serverName),
      name: name('account name', required(input, 'name', 'the name the app shows'), 200),
      currency: currency(required(input, 'currency', 'the deposit currency, e.g. EUR')),
      category: category(required(input, 'category', 'consolidate, global forex, global equity, SMA or AMC')),
      master: master === undefined ? undefined : accountKey(master, 'master'),
      ratio: ratioText === undefined ? 1 : ratio(ratioText, SIZING_LIMITS.ratio),
      leverage: leverage(one(input, 'leverage') ?? '100'),
    };
  },
  async run({ db, out }, a) {
    const label = accountLabel(a);
    const accountId = await db.transaction(async (tx) => {
      const broker = await requireBroker(tx, a.broker);
      const existing = await accountByLogin(tx, a.login, a.server);
      if (existing) throw new CliError(`The login ${label} is registered already (as '${existing.account_name}').`);
      if (await accountNameTaken(tx, a.name)) throw new CliError(`An account named '${a.name}' exists already.`);
      const master = a.master && (await accountByLogin(tx, a.master.login, a.master.server));
      if (a.master && !master) throw new CliError(`Unknown master ${accountLabel(a.master)}: register the master first.`);
      // The account id the app's URLs use: <broker>-<login>, with the server too when that is taken.
      let id = `${slug(broker.broker_name)}-${a.login}`;
      if (await accountIdTaken(tx, id)) id = `${slug(broker.broker_name)}-${slug(a.server)}-${a.login}`;
      if (await accountIdTaken(tx, id)) throw new CliError(`The account id ${id} is taken already.`);
      const newId = await insertRegisteredAccount(tx, {
        source: a.source,
        account_id: id,
        account: a.login,
        account_name: a.name,
        broker_id: broker.id,
        server: a.server,
        server_name: a.serverName,
        teiko_category: a.category,
        currency: a.currency,
        leverage: a.leverage,
      });
      await auditOperator(tx, 'accounts.add', {
        account: label,
        account_id: id,
        account_name: a.name,
        broker: broker.broker_name,
        category: a.category,
        master: a.master ? accountLabel(a.master) : null,
        copy_ratio: a.master ? a.ratio : null,
        source: a.source,
      });
      // Its relation with the same checks and audit as copy add (a master that follows another is refused).
      if (master) {
        const terms = { sizing: { mode: 'ratio', ratio: a.ratio } as const, maxLot: null };
        await asCli(() => createRelationIn(tx, OPERATOR, { masterId: master.id, followerId: newId, terms, equityStop: null }, new Date()));
      }
      return id;
    });
    out(
      a.master
        ? `Account ${label} '${a.name}' (${accountId}) registered: follower of ${accountLabel(a.master)} at ratio ${a.ratio}.`
        : `Account ${label} '${a.name}' (${accountId}) registered as a master.`,
    );
  },
});

const accountList = command({
  area: 'account',
  verb: 'list',
  synopsis: '',
  help: 'list the accounts: login@server, name, broker, category, currency, the master it copies and how, source',
  parse: () => undefined,
  async run({ db, out }) {
    table(
      out,
      ['ACCOUNT', 'NAME', 'BROKER', 'CATEGORY', 'CCY', 'COPIES', 'SIZING', 'LEVERAGE', 'SOURCE'],
      (await listAccountRegistry(db)).map((a) => [
        `${a.account}@${a.server}`,
        a.account_name,
        a.broker_name,
        a.teiko_category,
        a.currency,
        a.master ?? (a.is_master ? '(master)' : '-'),
        a.sizing ? `${a.sizing} ${a.sizing_value}` : '',
        String(a.leverage),
        a.source,
      ]),
    );
  },
});

// ---- symbols -------------------------------------------------------------------------------------

const symbolMapCommand = command({
  area: 'symbol',
  verb: 'map',
  synopsis: '--broker <name> <broker symbol> <canonical symbol>',
  help: "map a broker's symbol to the product's (EURUSD.m → EURUSD); mapping it again replaces it",
  positionals: 2,
  options: { broker: 'one' },
  parse: (input) => ({
    broker: name('broker name', required(input, 'broker', 'the broker whose symbol this is')),
    brokerSymbol: symbol('broker symbol', input.positionals[0]!),
    symbol: symbol('canonical symbol', input.positionals[1]!),
  }),
  async run({ db, out }, s) {
    const previous = await db.transaction(async (tx) => {
      const broker = await requireBroker(tx, s.broker);
      const before = (await symbolMap(tx, broker.id)).get(s.brokerSymbol);
      await setSymbol(tx, broker.id, s.brokerSymbol, s.symbol);
      await auditOperator(tx, 'symbols.map', { broker: broker.broker_name, broker_symbol: s.brokerSymbol, symbol: s.symbol, was: before ?? null });
      return before;
    });
    out(`${s.broker}: ${s.brokerSymbol} → ${s.symbol}${previous && previous !== s.symbol ? ` (was ${previous})` : ''}.`);
  },
});

const symbolList = command({
  area: 'symbol',
  verb: 'list',
  synopsis: '[--broker <name>]',
  help: "list the brokers' symbol names and the canonical symbols they map to",
  options: { broker: 'one' },
  parse: (input) => one(input, 'broker'),
  async run({ db, out }, broker) {
    const brokerName = broker === undefined ? undefined : (await requireBroker(db, broker)).broker_name;
    const rows = (await listSymbols(db)).filter((r) => brokerName === undefined || r.broker_name === brokerName);
    table(out, ['BROKER', 'BROKER SYMBOL', 'SYMBOL'], rows.map((r) => [r.broker_name, r.broker_symbol, r.symbol]));
  },
});

export const COMMANDS: readonly Command[] = [
  userCreate,
  statusCommand('disable'),
  statusCommand('enable'),
  userPassword,
  userList,
  brokerAdd,
  brokerList,
  accountAdd,
  accountList,
  symbolMapCommand,
  symbolList,
];
