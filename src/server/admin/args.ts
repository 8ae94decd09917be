// Parsing and validating the admin CLI's arguments: every bad input becomes one readable line.
import { PERMISSIONS, type Permission } from '#shared/domain/permissions.ts';
import { parsePortfolio } from '#shared/domain/portfolio-selection.ts';
import { CATEGORIES, CATEGORY_OF, PORTFOLIOS, type Category, type Portfolio } from '#shared/domain/portfolios.ts';

/** A refusal the operator reads on one line; exit code 2 for bad input, 1 for what the database refuses. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}

export const invalid = (message: string): CliError => new CliError(message, 2);

export type OptionKinds = Readonly<Record<string, 'one' | 'many'>>;

/** A command's arguments once split: positionals in order, options by name (without the dashes). */
export interface Input {
  positionals: string[];
  options: Map<string, string[]>;
}

/**
 * Splits `--name value`, `--name=value` and positionals; `--` ends the options. Every option takes a
 * value (the next word, even when it starts with a dash: `--ratio -1` is read, then refused as a ratio).
 */
export function splitArgs(args: readonly string[], kinds: OptionKinds, command: string): Input {
  const positionals: string[] = [];
  const options = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '--') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    const kind = kinds[name];
    if (!kind) {
      const known = Object.keys(kinds).map((k) => `--${k}`);
      throw invalid(`Unknown option --${name} for '${command}'${known.length ? ` (it takes ${known.join(', ')})` : ' (it takes no options)'}.`);
    }
    let value: string;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      if (i + 1 >= args.length) throw invalid(`Option --${name} needs a value.`);
      value = args[++i]!;
    }
    const values = options.get(name) ?? [];
    if (kind === 'one' && values.length > 0) throw invalid(`Option --${name} is given twice.`);
    values.push(value);
    options.set(name, values);
  }
  return { positionals, options };
}

export const one = (input: Input, name: string): string | undefined => input.options.get(name)?.[0];

export function required(input: Input, name: string, what: string): string {
  const value = one(input, name);
  if (value === undefined) throw invalid(`--${name} is required (${what}).`);
  return value;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A name as typed: not empty, no control characters nor surrounding spaces, at most `max` characters. */
export function name(what: string, value: string, max = 100): string {
  if (value.trim() === '') throw invalid(`The ${what} must not be empty.`);
  if (value !== value.trim()) throw invalid(`The ${what} '${value}' must not start or end with spaces.`);
  if (CONTROL.test(value)) throw invalid(`The ${what} must not contain control characters.`);
  if (value.length > max) throw invalid(`The ${what} is too long (at most ${max} characters).`);
  return value;
}

/** A trading login: letters, digits, '.', '_' or '-' (MetaTrader logins are numbers; IBKR's start with a letter). */
export function login(value: string): string {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(value)) {
    throw invalid(`'${value}' is not a login: use letters, digits, '.', '_' or '-' (at most 64).`);
  }
  return value;
}

/** A trading server's name as the terminal shows it (Pepperstone-Live01). */
export function server(value: string): string {
  if (value.includes('@')) throw invalid(`'${value}' is not a trading server name: it must not contain '@'.`);
  return name('trading server name', value);
}

export interface AccountKey {
  login: string;
  server: string;
}

export const accountLabel = (a: AccountKey): string => `${a.login}@${a.server}`;

/** `<login>@<server>`. */
export function accountKey(value: string, option: string): AccountKey {
  const at = value.indexOf('@');
  if (at <= 0 || at === value.length - 1) throw invalid(`--${option} '${value}' must be <login>@<server>, e.g. 51234567@Pepperstone-Live01.`);
  return { login: login(value.slice(0, at)), server: server(value.slice(at + 1)) };
}

export type Rights = 'read' | 'trade';

export interface Grant extends AccountKey {
  rights: Rights;
}

/** `<login>@<server>:read|trade`, each account at most once. */
export function grants(values: readonly string[]): Grant[] {
  if (values.length === 0) throw invalid('Give at least one --account <login>@<server>:read|trade.');
  const seen = new Set<string>();
  return values.map((value) => {
    const colon = value.lastIndexOf(':');
    const rights = colon < 0 ? '' : value.slice(colon + 1);
    if (rights !== 'read' && rights !== 'trade') {
      throw invalid(`--account '${value}' must end with :read or :trade (read reports the account, trade also takes commands).`);
    }
    const key = accountKey(value.slice(0, colon), 'account');
    const label = accountLabel(key);
    if (seen.has(label)) throw invalid(`The account ${label} is given twice.`);
    seen.add(label);
    return { ...key, rights };
  });
}

const csv = (value: string): string[] => value.split(',').map((v) => v.trim()).filter((v) => v !== '');

/** The permissions (docs/product.md#roles): `write`, `read_rebate`; empty for none. */
export function roles(value: string | undefined): Permission[] {
  const out = new Set<Permission>();
  const list = csv(value ?? '');
  if (list.length === 1 && list[0] === 'none') return [];
  for (const role of list) {
    if (!(PERMISSIONS as readonly string[]).includes(role)) {
      throw invalid(`Unknown role '${role}': roles are ${PERMISSIONS.join(', ')} (comma-separated), or none.`);
    }
    out.add(role as Permission);
  }
  return [...out];
}

/** Portfolio names (docs/architecture.md's list; 'Global Forex' reads Global FX), or `all`. */
export function portfolios(value: string): Portfolio[] {
  const names = csv(value);
  if (names.length === 1 && names[0]!.toLowerCase() === 'all') return [...PORTFOLIOS];
  if (names.length === 0) throw invalid(`--portfolios must name at least one portfolio: ${PORTFOLIOS.join(', ')} (or all).`);
  const out = new Set<Portfolio>();
  for (const n of names) {
    const p = parsePortfolio(n);
    if (!p) throw invalid(`Unknown portfolio '${n}': portfolios are ${PORTFOLIOS.join(', ')} (or all).`);
    out.add(p);
  }
  return PORTFOLIOS.filter((p) => out.has(p));
}

/** An account's teiko category; any case, or its portfolio's name ('Global FX' → 'global forex'). */
export function category(value: string): Category {
  const exact = CATEGORIES.find((c) => c.toLowerCase() === value.trim().toLowerCase());
  if (exact) return exact;
  const portfolio = parsePortfolio(value.trim());
  if (portfolio) return CATEGORY_OF[portfolio];
  throw invalid(`Unknown category '${value}': categories are ${CATEGORIES.join(', ')}.`);
}

/** An ISO 4217 code: three letters. */
export function currency(value: string): string {
  if (!/^[A-Za-z]{3}$/.test(value)) throw invalid(`'${value}' is not a currency: give its three-letter code, e.g. EUR.`);
  return value.toUpperCase();
}

/** A copy ratio within the relations' bounds (stored to 4 decimal places). */
export function ratio(value: string, limits: { min: number; max: number }): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw invalid(`The ratio must be a number above 0 (got '${value}').`);
  if (n < limits.min) throw invalid(`The ratio ${value} is too small (at least ${limits.min}).`);
  if (n > limits.max) throw invalid(`The ratio ${value} is too large (at most ${limits.max}).`);
  return Math.round(n * 10_000) / 10_000;
}

export function leverage(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > 10_000) {
    throw invalid(`The leverage must be a whole number from 1 to 10000 (got '${value}').`);
  }
  return Number(value);
}

/** A symbol as a broker or the product names it (EURUSD.m, XAUUSDc, BRK.B). */
export function symbol(what: string, value: string): string {
  if (!/^[A-Za-z0-9._#/+-]{1,32}$/.test(value)) {
    throw invalid(`'${value}' is not a ${what}: use letters, digits and . _ # / + - (at most 32).`);
  }
  return value;
}

/** A broker logo: a path the app serves (/brokers/pepperstone.svg) or an https URL. */
export function logo(value: string): string {
  if (!/^(\/|https:\/\/)\S{1,500}$/.test(value)) throw invalid(`The logo '${value}' must be a path starting with / or an https:// URL.`);
  return value;
}

/** The slug of a broker's name in account ids (Amana Capital → amana-capital). */
export function slug(value: string): string {
  const s = value
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return s || 'broker';
}
