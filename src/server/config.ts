import path from 'node:path';
import { z } from 'zod';
import { ApiBaseUrl, ClientIntervals, ClientSettings, WsBaseUrl } from '#shared/contract/client-config.ts';

/**
 * The browsers' push services (Chrome and Android, Firefox, Safari and iOS, Edge): the only origins
 * the server posts to unless PUSH_SERVICE_ORIGINS replaces the list. `*.` matches any subdomain.
 */
export const DEFAULT_PUSH_SERVICE_ORIGINS: readonly string[] = [
  'https://fcm.googleapis.com',
  'https://updates.push.services.mozilla.com',
  'https://web.push.apple.com',
  'https://*.push.apple.com',
  'https://*.notify.windows.com',
];

/** How the push dispatcher delivers (src/server/push/dispatcher.ts, DEFAULT_DISPATCHER). */
export interface DispatcherOptions {
  intervalMs: number;
  /** How long a push service keeps a notification for a phone that is off (seconds). */
  ttlS: number;
  /** Alerts older than this when their turn comes (a long outage, a backlog) are not pushed (seconds). */
  maxAgeS: number;
  /** Posts in flight at once, over every device. */
  concurrency: number;
  /** Of those, posts to devices known to be slow or failing. */
  slowConcurrency: number;
  /** Of those, posts to one user's slow devices. */
  slowPerUser: number;
  /** A post's deadline (ms): a push service that has not answered by then has failed this post. */
  postTimeoutMs: number;
  /** A post answered later than this (ms) marks its device slow until one is answered sooner. */
  slowMs: number;
  /** Failed posts in a row after which a device is forgotten... */
  dropAfterFailures: number;
  /** ...once it has been failing for at least this long (s): a push service's outage of a few minutes drops nobody. */
  dropAfterS: number;
  /** Messages waiting for one device; beyond it, its oldest is dropped. */
  queuePerDevice: number;
  now: () => number;
}

export interface PushConfig {
  /** Origins of the push services the server may post to (default DEFAULT_PUSH_SERVICE_ORIGINS). */
  serviceOrigins: readonly string[];
  /** The VAPID `sub`: a mailto: or https: contact the push services can reach the operator at. */
  subject: string;
  /** Given keys; unset: generated on first start and kept in the database, shared by every instance. */
  keys?: { publicKey: string; privateKey: string };
  /** The dispatcher's bounds and deadlines (src/server/push/dispatcher.ts DEFAULT_DISPATCHER); unset: the defaults. */
  delivery?: Partial<DispatcherOptions>;
}

/** Interactive Brokers' Flex Web Service address as IB documents it today (src/server/broker/ibkr/flex-web-service.ts says the same). */
export const IBKR_FLEX_DEFAULT_URL = 'https://ndcdyn.interactivebrokers.com/AccountManagement/FlexWebService';

const Flag = z
  .enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no'])
  .transform((v) => ['1', 'true', 'on', 'yes'].includes(v));

const DEFAULT_LOGIN_ATTEMPTS = 100;

const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().url().optional(),
  /** Schema on the PostgreSQL server (created when missing); the server's default search_path when unset. */
  DATABASE_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier').optional(),
  REDIS_URL: z.string().url().optional(),
  /** Unset: demo data is seeded when the database is empty. */
  DEMO: Flag.optional(),
  STATIC_DIR: z.string().min(1).default('./dist'),
  MARKET_SEED: z.coerce.number().int().min(0).max(2 ** 31).default(42),
  /** Sign-in attempts allowed per address in the 15-minute window (raised for end-to-end runs from one address). */
  LOGIN_ATTEMPTS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_LOGIN_ATTEMPTS),
  /** Comma-separated origins (scheme://host[:port]) allowed to open websockets besides the server's own. */
  ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((o) => o.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^https?:\/\/[^/\s]+$/, 'each origin must look like https://host[:port]'))),
  /**
   * The load balancer's addresses (comma-separated IPs or CIDRs, or loopback / uniquelocal): requests
   * from them are taken to come from the first address in X-Forwarded-For. Unset: no proxy is trusted.
   */
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((a) => a.trim()).filter(Boolean))
    .pipe(
      z.array(
        z
          .string()
          .regex(/^(loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?)$/, 'each entry must be an IP address, a CIDR, or loopback / linklocal / uniquelocal'),
      ),
    ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // The client's runtime configuration (GET /config.json); '' = the page's own origin.
  PUBLIC_API_BASE_URL: z.string().default('').transform((v) => v.trim().replace(/\/+$/, '')).pipe(ApiBaseUrl),
  PUBLIC_WS_BASE_URL: z.string().default('').transform((v) => v.trim().replace(/\/+$/, '')).pipe(WsBaseUrl),
  PUBLIC_BUILD_ID: z.string().min(1).max(100).optional(),
  /** Comma-separated name=ms pairs overriding the client's refetch intervals, e.g. alerts_ms=60000,rebates_ms=600000. */
  PUBLIC_INTERVALS: z
    .string()
    .default('')
    .transform((v) =>
      Object.fromEntries(
        v.split(',').filter((pair) => pair.trim()).map((pair) => {
          const [name = '', ms = ''] = pair.split('=');
          return [name.trim(), ms.trim() === '' ? NaN : Number(ms)];
        }),
      ),
    )
    .pipe(z.strictObject(ClientIntervals.shape)),
  FEATURE_PDF_REPORTS: Flag.optional(),
  FEATURE_BRIDGE_TOGGLE: Flag.optional(),
  FEATURE_SERVICE_WORKER: Flag.optional(),
  /** Comma-separated origins of the push services the server may post to (`https://*.host` for any subdomain); unset: the browsers' own. */
  PUSH_SERVICE_ORIGINS: z
    .string()
    .optional()
    .transform((v) => (v === undefined ? undefined : v.split(',').map((o) => o.trim()).filter(Boolean)))
    .pipe(z.array(z.string().regex(/^https?:\/\/(\*\.)?[^/\s*]+$/, 'each origin must look like https://host[:port] or https://*.host')).optional()),
  /** VAPID keys (base64url, as `npx web-push generate-vapid-keys` prints them); unset: made on first start and kept in the database. */
  VAPID_PUBLIC_KEY: z.string().regex(/^[A-Za-z0-9_-]{80,100}$/, 'must be a base64url P-256 public key').optional(),
  VAPID_PRIVATE_KEY: z.string().regex(/^[A-Za-z0-9_-]{40,50}$/, 'must be a base64url P-256 private key').optional(),
  /** How long (s) a position missing from a connected terminal's full snapshots waits before its absence closes it (docs/ingest-api.md). */
  UNCONFIRMED_CLOSE_AFTER_S: z.coerce.number().int().min(0).max(86_400).default(300),
  /** Interactive Brokers' Flex Web Service base address (docs/ibkr.md). */
  IBKR_FLEX_URL: z.string().url().regex(/^https?:\/\//, 'must be an http(s) URL').optional(),
  /** The hour (UTC, 0–23) after which the day's Flex statements are fetched. */
  IBKR_FLEX_FETCH_HOUR_UTC: z.coerce.number().int().min(0).max(23).default(6),
  /** 32 bytes (64 hex digits, or base64) sealing stored secrets such as Flex tokens; required with DATABASE_URL to store one. */
  SECRETS_KEY: z
    .string()
    .optional()
    .transform((v) => (v === undefined ? undefined : /^[0-9a-fA-F]{64}$/.test(v) ? Buffer.from(v, 'hex') : Buffer.from(v, 'base64')))
    .refine((b) => b === undefined || b.length === 32, 'must be 32 bytes: 64 hex digits or their base64'),
  /** The contact push services see in the VAPID token: mailto:you@example.com or an https URL. */
  VAPID_SUBJECT: z.string().regex(/^(mailto:.+@.+|https:\/\/.+)$/, 'must be mailto:address or an https URL').default('mailto:operator@copy-monitor.invalid'),
}).refine((e) => (e.VAPID_PUBLIC_KEY === undefined) === (e.VAPID_PRIVATE_KEY === undefined), {
  message: 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together',
  path: ['VAPID_PRIVATE_KEY'],
});

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL URL; undefined means embedded PGlite in dataDir (or in memory when dataDir is null). */
  databaseUrl: string | undefined;
  /** Schema to use on a shared PostgreSQL server (tests give each app its own). */
  databaseSchema?: string;
  /** null keeps the embedded database in memory (tests). */
  inMemory?: boolean;
  redisUrl: string | undefined;
  demo: boolean | undefined;
  staticDir: string | undefined;
  /** Origins allowed to open websockets besides the server's own. */
  allowedOrigins?: readonly string[];
  logLevel: string;
  /** Load balancers whose X-Forwarded-For is believed (none by default). */
  trustProxy?: readonly string[];
  auth: AuthConfig;
  market: MarketConfig;
  /** What GET /config.json tells the client (its defaults when unset). */
  client?: ClientSettings;
  /** Web Push (src/server/push); defaults when unset. */
  push?: PushConfig;
  /** Interactive Brokers' Flex Web Service (src/server/broker/ibkr); defaults when unset. */
  ibkr?: IbkrConfig;
  /** Terminal agents (src/server/broker/agent); defaults when unset. */
  agents?: {
    unconfirmedCloseAfterS: number;
    /** How long a command is valid (default COMMAND_TTL_MS); tests shorten it. */
    commandTtlMs?: number;
    /** How often the agents' accounts and commands are looked after (default 5 s); tests shorten it. */
    watchMs?: number;
  };
}

export interface IbkrConfig {
  /** The Flex Web Service's base address (IB's own by default; a local stand-in in tests). */
  flexUrl: string;
  /** The hour (UTC) after which each account's statement of the day before is fetched. */
  fetchHourUtc: number;
  /** 32 bytes that seal the Flex tokens stored (SECRETS_KEY); unset: a key file in DATA_DIR for the embedded database. */
  secretsKey?: Uint8Array;
  /** The Flex client's first wait (tests shorten it). */
  baseDelayMs?: number;
  /** How often the leader looks for fetches that are due (a minute; tests shorten it). */
  lookMs?: number;
}

export interface MarketConfig {
  /** Seed of the simulated market: the same seed gives the same brokers, accounts and history. */
  seed: number;
  /** Market step; 0 stops the clock (tests step it by hand). */
  tickMs: number;
  /** Live feeds send at most one snapshot per this interval. */
  feedIntervalMs: number;
  autoTrade: boolean;
  historyMonths: number;
  /** The market's clock (tests may pin it). */
  now: () => number;
}

export const DEFAULT_MARKET: MarketConfig = {
  seed: 42,
  tickMs: 1000,
  feedIntervalMs: 1000,
  autoTrade: true,
  historyMonths: 12,
  now: Date.now,
};

export interface AuthConfig {
  /** A session dies this long after its last use. */
  idleTtlMs: number;
  /** A session dies this long after sign-in, however busy. */
  absoluteTtlMs: number;
  /** Failed sign-ins allowed per user name in loginWindowMs. */
  loginFailuresPerUser: number;
  /** Sign-in attempts allowed per address in loginWindowMs. */
  loginAttemptsPerAddress: number;
  loginWindowMs: number;
  wsTicketTtlMs: number;
}

export const DEFAULT_AUTH: AuthConfig = {
  idleTtlMs: 8 * 60 * 60 * 1000,
  absoluteTtlMs: 7 * 24 * 60 * 60 * 1000,
  loginFailuresPerUser: 10,
  loginAttemptsPerAddress: DEFAULT_LOGIN_ATTEMPTS,
  loginWindowMs: 15 * 60 * 1000,
  wsTicketTtlMs: 30 * 1000,
};

/** Reads the environment once; throws a readable error listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    ...(e.DATABASE_SCHEMA ? { databaseSchema: e.DATABASE_SCHEMA } : {}),
    redisUrl: e.REDIS_URL,
    demo: e.DEMO,
    staticDir: path.resolve(e.STATIC_DIR),
    allowedOrigins: e.ALLOWED_ORIGINS,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    auth: { ...DEFAULT_AUTH, loginAttemptsPerAddress: e.LOGIN_ATTEMPTS_PER_ADDRESS },
    market: { ...DEFAULT_MARKET, seed: e.MARKET_SEED },
    client: ClientSettings.parse({
      api_base_url: e.PUBLIC_API_BASE_URL,
      ws_base_url: e.PUBLIC_WS_BASE_URL,
      build_id: e.PUBLIC_BUILD_ID,
      intervals: e.PUBLIC_INTERVALS,
      features: { pdf_reports: e.FEATURE_PDF_REPORTS, bridge_toggle: e.FEATURE_BRIDGE_TOGGLE, service_worker: e.FEATURE_SERVICE_WORKER },
    }),
    agents: { unconfirmedCloseAfterS: e.UNCONFIRMED_CLOSE_AFTER_S },
    ibkr: {
      flexUrl: e.IBKR_FLEX_URL ?? IBKR_FLEX_DEFAULT_URL,
      fetchHourUtc: e.IBKR_FLEX_FETCH_HOUR_UTC,
      ...(e.SECRETS_KEY ? { secretsKey: new Uint8Array(e.SECRETS_KEY) } : {}),
    },
    push: {
      serviceOrigins: e.PUSH_SERVICE_ORIGINS ?? DEFAULT_PUSH_SERVICE_ORIGINS,
      subject: e.VAPID_SUBJECT,
      ...(e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY ? { keys: { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY } } : {}),
    },
  };
}
