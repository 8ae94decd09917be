import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '#server/app.ts';
import type { Simulator } from '#server/broker/simulated/index.ts';
import { SimulatedMarket } from '#server/broker/simulated/simulated-market.ts';
import type { AdapterFactory } from '#server/broker/factory.ts';
import {
  DEFAULT_AUTH,
  DEFAULT_MARKET,
  DEFAULT_PUSH_SERVICE_ORIGINS,
  IBKR_FLEX_DEFAULT_URL,
  type AppConfig,
  type AuthConfig,
  type IbkrConfig,
  type MarketConfig,
  type PushConfig,
} from '#server/config.ts';

export type Backend = 'pglite' | 'postgres';

/** Every integration suite runs on embedded PGlite, and on PostgreSQL too when TEST_DATABASE_URL is set. */
export const BACKENDS: Backend[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface TestServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

export interface TestServerOptions {
  dataDir?: string;
  auth?: Partial<AuthConfig>;
  demo?: boolean;
  schema?: string;
  market?: Partial<MarketConfig>;
  /** The broker adapters the server runs (default: the registry's). */
  adapters?: readonly AdapterFactory[];
  /** Web Push settings (a local push-service stand-in's origin, given keys). */
  push?: Partial<PushConfig>;
  /** Interactive Brokers' Flex Web Service (a local stand-in's address, a shorter first wait). */
  ibkr?: Partial<IbkrConfig>;
  /** Terminal agents: how long a position missing from full snapshots waits before its absence closes it (0 here unless given). */
  agents?: AppConfig['agents'];
}

export function testConfig(backend: Backend, options: TestServerOptions = {}): AppConfig {
  const schema = options.schema ?? `t_${randomBytes(6).toString('hex')}`;
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir: options.dataDir ?? '',
    inMemory: backend === 'pglite' && !options.dataDir,
    databaseUrl: backend === 'postgres' ? process.env.TEST_DATABASE_URL : undefined,
    databaseSchema: backend === 'postgres' ? schema : undefined,
    redisUrl: undefined,
    demo: options.demo ?? true,
    staticDir: undefined,
    logLevel: process.env.TEST_LOG_LEVEL ?? 'silent',
    auth: { ...DEFAULT_AUTH, ...options.auth },
    // A pinned clock and a manual market: tests step it with simulatorOf(app).tick().
    market: { ...DEFAULT_MARKET, tickMs: 0, feedIntervalMs: 50, autoTrade: false, historyMonths: 3, ...options.market },
    push: { serviceOrigins: DEFAULT_PUSH_SERVICE_ORIGINS, subject: 'mailto:tests@copy-monitor.invalid', ...options.push },
    // The fake terminals of most suites close a position by leaving it out of their next full snapshot:
    // its absence is evidence at once here. The suites of the evidence rule itself set the real window.
    agents: { unconfirmedCloseAfterS: 0, ...options.agents },
    ...(options.ibkr ? { ibkr: { flexUrl: IBKR_FLEX_DEFAULT_URL, fetchHourUtc: 6, ...options.ibkr } } : {}),
  };
}

/** The real server from buildApp on a random port, with its own database (in-memory PGlite or a fresh schema). */
export async function startServer(backend: Backend, options: TestServerOptions = {}): Promise<TestServer> {
  const config = testConfig(backend, options);
  const app = await buildApp(config, { adapters: options.adapters });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    url: address,
    async close() {
      await app.close();
      if (config.databaseSchema && !options.schema) {
        const client = new pg.Client({ connectionString: config.databaseUrl });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${config.databaseSchema} CASCADE`);
        await client.end();
      }
    },
  };
}

export interface JsonResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** Real HTTP against the server under test. */
export async function http<T = Record<string, unknown>>(
  server: TestServer,
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string; key?: string; headers?: Record<string, string> } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers['x-api-key'] = options.key;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(server.url + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

export const DEMO = {
  admin: { username: 'admin', password: 'admin-demo' },
  manager: { username: 'manager', password: 'manager-demo' },
  investor: { username: 'investor', password: 'investor-demo' },
} as const;

export async function login(server: TestServer, who: keyof typeof DEMO): Promise<string> {
  const res = await http<{ data: { api_key: string } }>(server, 'POST', '/api/login', { body: DEMO[who] });
  if (res.status !== 200) throw new Error(`login ${who} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.api_key;
}

/** The simulated market behind an app's broker adapter: tests step its clock and drive its masters. */
export function simulatorOf(app: FastifyInstance): Simulator {
  const simulated = app.adapters.get('simulated');
  if (!(simulated instanceof SimulatedMarket)) throw new Error('this server runs no simulated market');
  return simulated;
}
