/**
 * Property-based fuzzing (fast-check) of the real server, over real HTTP and real websockets, on
 * every backend. Every registered route (app.routeList) gets generated query strings, bodies,
 * content types, headers and path variants as the admin (write), the investor and without a key;
 * both live feeds get generated query strings, tickets and garbage frames. Properties:
 *  - no answer ≥ 500, every 4xx JSON answer has a non-empty `message`, the server keeps answering;
 *  - without a (valid) key every protected /api route answers 401 for every URL the router sends to
 *    it (encoded letters, odd slashes, case…), and a URL it does not route answers 404;
 *  - the investor never gets a 2xx from a write route (nor from the rebates, read_rebate);
 *  - a bad socket is closed with a 4xxx code (or 1002/1007/1009 from ws), an upgrade never 5xx,
 *    and a refused upgrade does not leave its connection open (app.close() must finish);
 *  - no unhandled rejection or uncaught exception, and the heap is back within 10 % afterwards.
 *
 * Each property stops at its first counterexample, so concerns are checked apart (a server error
 * does not hide an access defect on the same route, nor the other way round).
 *
 * Runs are seeded (a fixed seed unless FUZZ_SEED=random): the seed is logged at the start, FUZZ_SEED=<n> replays a run, FUZZ_SCALE=<x>
 * multiplies the number of runs (default 1: about 11,000 HTTP requests, 400 sockets and 200 raw
 * handshakes per backend, some 30 s per backend on a healthy server).
 */
import { Buffer } from 'node:buffer';
import http from 'node:http';
import net, { type Socket } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import zlib from 'node:zlib';
import fc from 'fast-check';
import FindMyWay from 'find-my-way';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, http as jsonHttp, login, startServer, type TestServer } from './helpers/server.ts';
import { INSTRUMENTS } from '#server/broker/simulated/instruments.ts';
import { FOREX_PAIRS } from '#shared/domain/pairs.ts';
import { ticket } from './helpers/ws.ts';

// ---------------------------------------------------------------------------------------------
// Seed, scale, process-wide watchers
// ---------------------------------------------------------------------------------------------

// A fixed seed by default, so the suite gives the same verdict on every run (CI included);
// FUZZ_SEED=random explores new inputs, FUZZ_SEED=<n> replays a run.
const DEFAULT_SEED = 22;
const SEED =
  process.env.FUZZ_SEED === 'random'
    ? Math.floor(Math.random() * 0x7fffffff)
    : process.env.FUZZ_SEED
      ? Number(process.env.FUZZ_SEED)
      : DEFAULT_SEED;
const SCALE = process.env.FUZZ_SCALE ? Number(process.env.FUZZ_SCALE) : 1;
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));
console.info(`fuzz.test.ts: seed ${SEED} (replay with FUZZ_SEED=${SEED}), scale ${SCALE}`);

/** A stable seed per property: the run seed mixed with the property's label (FNV-1a). */
function seedFor(label: string): number {
  let h = 0x811c9dc5;
  for (const c of label) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  return ((h ^ SEED) >>> 0) & 0x7fffffff;
}

const BODY_LIMIT = 1024 * 1024;
const WS_MAX_PAYLOAD = 64 * 1024;
const ALLOWED_WS_PROTOCOL_CODES = new Set([1002, 1007, 1009]);
const isAllowedClose = (code: number) => (code >= 4000 && code <= 4999) || ALLOWED_WS_PROTOCOL_CODES.has(code);

const processProblems: string[] = [];
let currentBackend = 'setup';
const onRejection = (reason: unknown) => processProblems.push(`[${currentBackend}] unhandledRejection: ${describeError(reason)}`);
const onException = (err: unknown) => processProblems.push(`[${currentBackend}] uncaughtException: ${describeError(err)}`);
beforeAll(() => {
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
});
afterAll(() => {
  process.off('unhandledRejection', onRejection);
  process.off('uncaughtException', onException);
});

function describeError(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}\n${err.stack ?? ''}`.slice(0, 2000) : String(err);
}

/** global.gc, exposed at run time when vitest runs without --expose-gc. */
function obtainGc(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function settledHeap(gc: () => void): Promise<number> {
  const readings: number[] = [];
  for (let i = 0; i < 8; i++) {
    gc();
    await sleep(40);
    if (i >= 5) readings.push(process.memoryUsage().heapUsed);
  }
  return Math.min(...readings);
}

// ---------------------------------------------------------------------------------------------
// What the routes take (from src/shared/contract) and who may call them (src/server/routes)
// ---------------------------------------------------------------------------------------------

interface Route {
  method: string;
  url: string;
}
const keyOf = (r: Route) => `${r.method} ${r.url}`;

const QUERY_PARAMS: Record<string, string[]> = {
  'GET /api/brokers/accounts/info': ['only_broker_name', 'portfolio'],
  'GET /api/brokers/accounts/max-drawdown': ['account'],
  'GET /api/brokers/historical-deals': ['account', 'filter_rebalancing', 'start_date'],
  'GET /api/brokers/accounts/historical_infos': ['date_id'],
  'GET /api/stats/mae_mfe': ['symbol'],
  'GET /api/stats/analysis': ['account', 'utc_offset_minutes'],
  'GET /api/stats/rebates': ['group_by', 'portfolio'],
  'GET /api/audit': ['page', 'page_size'],
  'GET /api/copy/report': ['portfolio', 'period'],
  'GET /api/copy/health': ['portfolio'],
  'GET /api/copy/growth': ['account', 'period'],
  'GET /api/copy/relations': ['portfolio', 'include_ended'],
  'GET /ws/brokers/live-positions-aggregate': ['token', 'portfolio'],
  'GET /ws/brokers/live-positions-aggregate-by': ['token', 'portfolio', 'aggregate_by', 'account', 'broker_name'],
};

const BODY_FIELDS: Record<string, string[]> = {
  'POST /api/login': ['username', 'password'],
  'POST /api/positions/set-tp-sl-by-symbol': ['category', 'symbol', 'direction', 'currency', 'take_profit', 'stop_loss', 'portfolio'],
  'POST /api/positions/close-by-symbol': ['category', 'symbol', 'direction', 'currency', 'portfolio'],
  'POST /api/copy-rules/allowed-pairs': ['master_id', 'new_allowed_pairs'],
  'PUT /api/risk/limits': ['portfolio', 'max_drawdown_pct', 'min_margin_level_pct'],
  'PUT /api/risk/equity-stop': ['account', 'equity_stop'],
  'POST /api/copy/relations': ['master', 'follower', 'sizing', 'max_lot', 'equity_stop'],
  'PUT /api/copy/relations/:id': ['sizing', 'max_lot', 'equity_stop', 'rearm_equity_stop'],
  // Never the right current password: a change would end the sessions the fuzzing uses.
  'POST /api/account/password': ['current_password', 'new_password'],
};

/** preHandler requirePermission('write'). */
const WRITE_ROUTES = [
  'POST /api/positions/set-tp-sl-by-symbol',
  'POST /api/positions/close-by-symbol',
  'POST /api/copy-rules/allowed-pairs',
  'POST /api/bridge/start',
  'POST /api/bridge/stop',
  'POST /api/accounts/import-statement',
  'PUT /api/risk/limits',
  'PUT /api/risk/equity-stop',
  'POST /api/copy/relations',
  'PUT /api/copy/relations/:id',
  'DELETE /api/copy/relations/:id',
];
/**
 * Also refused to the investor, who has no permission at all: the rebates (read_rebate) and the
 * audit log (write), when the server has it.
 */
const INVESTOR_FORBIDDEN = new Set([...WRITE_ROUTES, 'GET /api/stats/rebates', 'GET /api/audit']);

/** The path parameters a permission-gated route's schema accepts. */
const WELL_FORMED_PARAMS: Record<string, string[]> = {
  'PUT /api/copy/relations/:id': ['1'],
  'DELETE /api/copy/relations/:id': ['1'],
};

/** The query a permission-gated GET route requires. */
const WELL_FORMED_QUERY: Record<string, QPart[]> = {
  'GET /api/stats/rebates': [{ n: 'portfolio', v: 'Global FX', e: 'pct' }],
  'GET /api/audit': [{ n: 'page', v: '1', e: 'pct' }],
};

/** Reachable without a key: sign-in and the operator's API documentation. */
const isPublic = (r: Route) =>
  (r.method === 'POST' && r.url === '/api/login') || /^\/api\/(openapi\.json|docs)(\/|$|\*)/.test(r.url);
const isProtected = (r: Route) => /^\/api(\/|$)/.test(r.url) && !isPublic(r);

const PORTFOLIOS = ['Consolidated Portfolio', 'Global FX', 'Global Equity', 'SMA', 'AMC', 'Global Forex', 'All'];

interface Domain {
  accounts: string[];
  brokers: string[];
  masters: string[];
  symbols: string[];
  dateIds: string[];
  pairs: string[];
}

// ---------------------------------------------------------------------------------------------
// Generated inputs: compact descriptions (what fast-check prints), turned into bytes on the wire
// ---------------------------------------------------------------------------------------------

/** A value: text, or a long run of one character (printed compactly). */
type Val = string | { repeat: string; times: number };
const valText = (v: Val) => (typeof v === 'string' ? v : v.repeat.repeat(v.times));

const CONTROL = fc
  .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }))
  .map((c) => String.fromCharCode(c));
const ODD_NUMBERS = [
  '1.0000', '1e309', '-1e309', '-0', '0', 'NaN', 'Infinity', '-Infinity', '0x10', '1_000', '1,5', ' 1', '1 ', '+1', '.5',
  '5.', '-1', '9007199254740993', '1e21', '00001', '１', '١٢٣', '1e-7', '2147483648', '-2147483649', '0b1', '1.2024',
  '12.2999', '13.2024', '0.2024', '1.1969', '1.3000', '1.99999', '01.2024', '1.2024.5', '1.', '.2024', '99.99999',
  '1.0000000000000000001', '1e1000', '-1.0000',
];
const SPECIALS = ['\u0000', '\u0001', '\u001f', '\u007f', '\u0085', '\u2028', '\ufeff', '\ud800', '😀', ' ', '%', '\\', "'", '"', "';--", '\n', '\r\n', '../', '<script>', '${x}', '{{x}}', '&', '=', '#', '+', '?'];

const longVal: fc.Arbitrary<Val> = fc.record({
  repeat: fc.constantFrom('a', 'é', '\u0000', '😀', '%', '1', ' '),
  times: fc.constantFrom(100, 101, 199, 200, 201, 1000, 5000, 20000),
});

function mutant(base: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(base, fc.nat(), fc.oneof(fc.constantFrom(...SPECIALS), CONTROL), fc.constantFrom('insert', 'prefix', 'suffix', 'case', 'pad', 'double'))
    .map(([s, at, x, how]) => {
      const i = s.length === 0 ? 0 : at % (s.length + 1);
      switch (how) {
        case 'insert':
          return s.slice(0, i) + x + s.slice(i);
        case 'prefix':
          return x + s;
        case 'suffix':
          return s + x;
        case 'case':
          return s === s.toUpperCase() ? s.toLowerCase() : s.toUpperCase();
        case 'pad':
          return ` ${s} `;
        default:
          return s + s;
      }
    });
}

function queryValueFor(name: string, d: Domain): fc.Arbitrary<string> {
  switch (name) {
    case 'only_broker_name':
    case 'filter_rebalancing':
    case 'include_ended':
      return fc.constantFrom('true', 'false');
    case 'portfolio':
      return fc.constantFrom(...PORTFOLIOS);
    case 'account':
      return fc.constantFrom(...d.accounts);
    case 'page':
    case 'page_size':
      return fc.constantFrom('1', '2', '50', '200', '201', '0', '1000000', '1000001');
    case 'start_date':
      return fc.integer({ min: 0, max: 2_000_000_000 }).map(String);
    case 'utc_offset_minutes':
      return fc.integer({ min: -900, max: 900 }).map(String);
    case 'date_id':
      return fc.oneof(
        fc.constantFrom(...d.dateIds),
        // Months and years at and past their bounds (the server takes 'M.YYYY').
        fc
          .tuple(
            fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constantFrom(0, 1, 12, 13)),
            fc.oneof(
              { weight: 3, arbitrary: fc.constantFrom('0000', '0001', '0999', '1969', '1970', '2999', '3000', '9999') },
              { weight: 1, arbitrary: fc.integer({ min: 0, max: 9999 }).map((y) => String(y).padStart(4, '0')) },
            ),
          )
          .map(([m, y]) => `${m}.${y}`),
      );
    case 'symbol':
      return fc.constantFrom(...d.symbols);
    case 'group_by':
    case 'aggregate_by':
      return fc.constantFrom('account', 'broker');
    case 'broker_name':
      return fc.constantFrom(...d.brokers);
    case 'token':
      return fc.base64String({ minLength: 4, maxLength: 48 });
    default:
      return fc.string({ maxLength: 8 });
  }
}

function valArb(known: fc.Arbitrary<string>): fc.Arbitrary<Val> {
  return fc.oneof(
    { weight: 6, arbitrary: known },
    { weight: 3, arbitrary: mutant(known) },
    { weight: 2, arbitrary: fc.tuple(known, fc.nat()).map(([v, at]) => `${v.slice(0, at % (v.length + 1))}\u0000${v.slice(at % (v.length + 1))}`) },
    { weight: 2, arbitrary: fc.constantFrom(...ODD_NUMBERS) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
    { weight: 1, arbitrary: fc.string({ unit: CONTROL, maxLength: 6 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: longVal },
  );
}

/** One query part: name=value (percent-encoded, raw or with '+'), or a raw fragment. */
type QPart = { n: string; v: Val; e: 'pct' | 'raw' | 'plus' } | { raw: string };

const RAW_QUERY = [
  '%', '%zz', '%E0%A4', '%00', '%C0%AE', '%FF%FE', '&&&', '=', '==', 'a==b', ';', 'a[]=1', 'a[b]=c', '__proto__=x',
  '__proto__[x]=1', 'constructor[prototype][x]=1', 'toString=1', 'hasOwnProperty=1', 'valueOf=', '?', '??a=1', '+', '%2B',
  '%26', '%3D', '#', 'a=%', 'a=%%', 'a=%u0041',
];

function queryArb(names: string[], d: Domain, maxExtras = 3): fc.Arbitrary<QPart[] | null> {
  const enc = fc.constantFrom<'pct' | 'raw' | 'plus'>('pct', 'pct', 'pct', 'raw', 'plus');
  // Each known parameter at most once (a repeated one is an array, refused before the handler runs).
  const known = fc.tuple(
    ...names.map((n) =>
      fc.option(fc.record({ n: fc.constant(n), v: valArb(queryValueFor(n, d)), e: enc }), { freq: 3 }),
    ),
  ).map((parts) => parts.filter((p) => p !== null) as QPart[]);
  const extraName = fc.oneof(
    { weight: 2, arbitrary: (names.length > 0 ? fc.constantFrom(...names) : fc.constant('q')).map((n) => (n === n.toUpperCase() ? n : n.toUpperCase())) },
    { weight: 1, arbitrary: (names.length > 0 ? fc.constantFrom(...names) : fc.constant('q')).map((n) => `${n}[]`) },
    { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 10 }) },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', '', ' ') },
  );
  const extra: fc.Arbitrary<QPart> = fc.oneof(
    { weight: 3, arbitrary: fc.record({ n: extraName, v: valArb(fc.string({ maxLength: 8 })), e: enc }) },
    { weight: 1, arbitrary: fc.record({ raw: fc.constantFrom(...RAW_QUERY) }) },
  );
  const extras = fc.oneof({ weight: 3, arbitrary: fc.constant([] as QPart[]) }, { weight: 1, arbitrary: fc.array(extra, { minLength: 1, maxLength: maxExtras }) });
  // Now and then a parameter given twice (an array), or the parts in another order.
  const parts = fc
    .tuple(known, extras, fc.option(fc.nat(), { freq: 5 }), fc.boolean())
    .map(([k, x, dup, reverse]) => {
      const all = [...k, ...x];
      if (dup !== null && all.length > 0) all.push(all[dup % all.length]!);
      return reverse ? all.reverse() : all;
    });
  return fc.option(parts, { freq: 8 });
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
function pct(text: string, keep: RegExp = UNRESERVED): string {
  let out = '';
  for (const ch of text) {
    if (ch.length === 1 && keep.test(ch)) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
const RAW_OK = /[\x21-\x7e]/;
function encodeQuery(parts: QPart[]): string {
  return parts
    .map((p) => {
      if ('raw' in p) return p.raw;
      const v = valText(p.v);
      if (p.e === 'raw') return `${pct(p.n, RAW_OK)}=${pct(v, RAW_OK)}`;
      if (p.e === 'plus') return `${pct(p.n).replace(/%20/g, '+')}=${pct(v).replace(/%20/g, '+')}`;
      return `${pct(p.n)}=${pct(v)}`;
    })
    .join('&');
}

/** Path mutations, applied in order to the route's path. */
type PathMut =
  | { m: 'encode'; at: number; upper: boolean }
  | { m: 'encodeAll' }
  | { m: 'double'; at: number }
  | { m: 'trailing' }
  | { m: 'flipCase'; at: number }
  | { m: 'upper' }
  | { m: 'append'; seg: string }
  | { m: 'replace'; at: number; seg: string }
  | { m: 'insert'; at: number; raw: string };

const RAW_PATH_BITS = ['/.', '/..', '/%2e', '/%2E%2E', ';x', ';jsessionid=1', '#f', '%00', '%2F', '%2f', '%C1%A1', '\\', '%', '%zz', '/', '//', '%20', '*', '~'];
const SEGMENT = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('.', '..', '%2e%2e', 'api', 'API', 'ws', '*', ':id', '%', '%zz', '%00', '%C0%AE', '%FF', '~', 'index.html', 'openapi.json', 'docs', 'x'.repeat(150)),
);

function pathMutArb(allowHash: boolean): fc.Arbitrary<PathMut> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.record({ m: fc.constant('encode' as const), at: fc.nat(), upper: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ m: fc.constant('encodeAll' as const) }) },
    { weight: 2, arbitrary: fc.record({ m: fc.constant('double' as const), at: fc.nat() }) },
    { weight: 2, arbitrary: fc.record({ m: fc.constant('trailing' as const) }) },
    { weight: 2, arbitrary: fc.record({ m: fc.constant('flipCase' as const), at: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ m: fc.constant('upper' as const) }) },
    { weight: 1, arbitrary: fc.record({ m: fc.constant('append' as const), seg: SEGMENT }) },
    { weight: 1, arbitrary: fc.record({ m: fc.constant('replace' as const), at: fc.nat(), seg: SEGMENT }) },
    {
      weight: 2,
      arbitrary: fc.record({
        m: fc.constant('insert' as const),
        at: fc.nat(),
        raw: fc.constantFrom(...RAW_PATH_BITS.filter((b) => allowHash || !b.includes('#'))),
      }),
    },
  );
}

const SEG_KEEP = /[A-Za-z0-9\-._~%*:]/;
function applyPathMut(path: string, mut: PathMut): string {
  const letters = [...path].flatMap((c, i) => (/[A-Za-z]/.test(c) ? [i] : []));
  const slashes = [...path].flatMap((c, i) => (c === '/' ? [i] : []));
  switch (mut.m) {
    case 'encode': {
      // A letter, not a hex digit of an escape already there.
      const plain = letters.filter((i) => path[i - 1] !== '%' && path[i - 2] !== '%');
      if (plain.length === 0) return path;
      const i = plain[mut.at % plain.length]!;
      const hex = path.charCodeAt(i).toString(16);
      return `${path.slice(0, i)}%${mut.upper ? hex.toUpperCase() : hex}${path.slice(i + 1)}`;
    }
    case 'encodeAll':
      return path.replace(/[A-Za-z]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
    case 'double': {
      if (slashes.length === 0) return `/${path}`;
      const i = slashes[mut.at % slashes.length]!;
      return `${path.slice(0, i)}/${path.slice(i)}`;
    }
    case 'trailing':
      return `${path}/`;
    case 'flipCase': {
      if (letters.length === 0) return path;
      const i = letters[mut.at % letters.length]!;
      const c = path[i]!;
      return path.slice(0, i) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + path.slice(i + 1);
    }
    case 'upper':
      return path.toUpperCase();
    case 'append':
      return `${path}/${pct(mut.seg, SEG_KEEP)}`;
    case 'replace': {
      const segs = path.split('/');
      const i = 1 + (mut.at % Math.max(1, segs.length - 1));
      segs[i] = pct(mut.seg, SEG_KEEP);
      return segs.join('/');
    }
    case 'insert': {
      const i = mut.at % (path.length + 1);
      return path.slice(0, i) + mut.raw + path.slice(i);
    }
  }
}

interface PathSpec {
  params: string[];
  muts: PathMut[];
}
function pathSpecArb(route: Route, opts: { mutFreq: number; allowHash: boolean }): fc.Arbitrary<PathSpec> {
  const nParams = route.url.split('/').filter((s) => s.startsWith(':') || s === '*').length;
  return fc.record({
    params: fc.array(fc.oneof(fc.string({ unit: 'binary', maxLength: 20 }), fc.constantFrom('1', 'x', '..', '%00')), {
      minLength: nParams,
      maxLength: nParams,
    }),
    muts: fc.oneof(
      { weight: opts.mutFreq, arbitrary: fc.array(pathMutArb(opts.allowHash), { minLength: 1, maxLength: 3 }) },
      { weight: 10 - opts.mutFreq, arbitrary: fc.constant([] as PathMut[]) },
    ),
  });
}
function buildPath(route: Route, spec: PathSpec): string {
  let i = 0;
  const base = route.url
    .split('/')
    .map((s) => (s.startsWith(':') || s === '*' ? pct(spec.params[i++] ?? 'x', SEG_KEEP) : s))
    .join('/');
  return spec.muts.reduce(applyPathMut, base);
}

/** A request body. */
type BodySpec =
  | { k: 'json'; v: unknown; ct: string | null }
  | { k: 'literal'; field: string; lit: string; ct: string | null }
  | { k: 'nested'; depth: number; obj: boolean; field: string | null }
  | { k: 'text'; t: string; ct: string | null }
  | { k: 'bytes'; b: number[]; ct: string | null }
  | { k: 'proto'; which: number }
  | { k: 'huge'; size: number; ct: string | null };

const JSON_CT = fc.constantFrom(
  'application/json', 'application/json; charset=utf-8', 'application/json;charset=UTF-8', 'APPLICATION/JSON',
  'Application/Json; charset=utf-16', 'application/json; charset=latin1', 'application/json; foo=bar', 'application/json ; charset=utf-8',
);
const OTHER_CT = fc.constantFrom(
  null, '', 'text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz',
  'application/xml', 'application/octet-stream', 'application/vnd.api+json', 'application/jsonx', 'text/json',
  'application/json, text/plain', '*/*', 'json', ';', 'application/', '/json', 'application/json\t',
);
const ANY_CT = fc.oneof({ weight: 3, arbitrary: JSON_CT }, { weight: 1, arbitrary: OTHER_CT });
const BIG_LITERALS = ['1e309', '-1e309', '123456789012345678901234567890', '1.0000', '-0', '0.1e-400', '1E400', '9007199254740993', '-0.0', '1e-324'];
const INVALID_UTF8 = [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82], [0x80], [0xfe, 0xff]];

function bodyValueFor(field: string, d: Domain): fc.Arbitrary<unknown> {
  switch (field) {
    case 'username':
      return fc.constantFrom('admin', 'investor', 'manager', 'nobody', 'ADMIN');
    case 'password':
      return fc.constantFrom('admin-demo', 'investor-demo', 'wrong', '');
    case 'category':
      return fc.constantFrom('Forex', 'Equities');
    case 'symbol':
      return fc.constantFrom(...d.symbols);
    case 'direction':
      return fc.constantFrom('long', 'short');
    case 'currency':
      return fc.constantFrom('USD', 'EUR', 'JPY', 'GBP', 'XXX');
    case 'take_profit':
    case 'stop_loss':
      return fc.double({ min: 0.0001, max: 1e6, noNaN: true });
    case 'portfolio':
      return fc.constantFrom(...PORTFOLIOS.filter((p) => p !== 'All'));
    case 'master_id':
      return fc.constantFrom(...d.masters);
    case 'new_allowed_pairs':
      return fc.subarray(d.pairs);
    case 'current_password':
      return fc.constantFrom('wrong-password', 'admin-demo ', 'ADMIN-DEMO', 'investor-demo!');
    case 'new_password':
      return fc.constantFrom('a-new-password-1', 'short', '');
    case 'max_drawdown_pct':
      return fc.option(fc.double({ min: 0.01, max: 100, noNaN: true }), { nil: null });
    case 'min_margin_level_pct':
      return fc.option(fc.double({ min: 0, max: 10_000, noNaN: true }), { nil: null });
    case 'account':
      return fc.constantFrom(...d.accounts);
    case 'equity_stop':
      return fc.option(fc.double({ min: 1, max: 1e9, noNaN: true }), { nil: null });
    case 'master':
    case 'follower':
      return fc.constantFrom(...d.accounts);
    case 'sizing':
      return fc.oneof(
        fc.record({ mode: fc.constant('ratio'), ratio: fc.double({ min: 0.0001, max: 100, noNaN: true }) }),
        fc.record({ mode: fc.constant('equity'), multiplier: fc.double({ min: 0.01, max: 100, noNaN: true }) }),
        fc.record({ mode: fc.constant('fixed'), lot: fc.double({ min: 0.01, max: 1000, noNaN: true }) }),
      );
    case 'max_lot':
      return fc.option(fc.double({ min: 0.01, max: 1000, noNaN: true }), { nil: null });
    case 'rearm_equity_stop':
      return fc.boolean();
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

function fieldValueArb(field: string, d: Domain): fc.Arbitrary<unknown> {
  const valid = bodyValueFor(field, d);
  const validText = valid.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  return fc.oneof(
    { weight: 6, arbitrary: valid },
    { weight: 2, arbitrary: mutant(validText) },
    { weight: 2, arbitrary: fc.tuple(validText, fc.nat()).map(([v, at]) => `${v.slice(0, at % (v.length + 1))}\u0000${v.slice(at % (v.length + 1))}`) },
    { weight: 1, arbitrary: fc.array(mutant(validText), { maxLength: 3 }) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<unknown>(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 5e-324, -0, 0, 1, true, false, null, [], {}, ''),
    },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.constantFrom('x'.repeat(101), 'x'.repeat(201), 'é'.repeat(300), '\u0000'.repeat(5)) },
  );
}

function bodyArb(key: string, d: Domain, isGet: boolean): fc.Arbitrary<BodySpec | null> {
  const fields = BODY_FIELDS[key] ?? [];
  const fieldName = fields.length > 0 ? fc.constantFrom(...fields) : fc.constant('x');
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of fields) model[f] = fieldValueArb(f, d);
  const valid: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of fields) valid[f] = bodyValueFor(f, d);
  const extras = fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...fields, 'x')), fc.jsonValue({ maxDepth: 2 }), {
    maxKeys: 2,
  });
  const objects = fc.oneof(
    { weight: 3, arbitrary: fc.record(valid) },
    { weight: 4, arbitrary: fc.record(model, { requiredKeys: [] }) },
    { weight: 2, arbitrary: fc.tuple(fc.record(model, { requiredKeys: [] }), extras).map(([a, b]) => ({ ...b, ...a })) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 3, withNullPrototype: true, withObjectString: true }) },
  );
  const spec: fc.Arbitrary<BodySpec> = fc.oneof(
    { weight: 12, arbitrary: fc.record({ k: fc.constant('json' as const), v: objects, ct: ANY_CT }) },
    { weight: 2, arbitrary: fc.record({ k: fc.constant('literal' as const), field: fieldName, lit: fc.constantFrom(...BIG_LITERALS), ct: JSON_CT }) },
    {
      weight: 1,
      arbitrary: fc.record({
        k: fc.constant('nested' as const),
        depth: fc.constantFrom(10, 100, 1000, 10_000, 100_000),
        obj: fc.boolean(),
        field: fc.option(fieldName),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        k: fc.constant('text' as const),
        t: fc.oneof(
          fc.string({ unit: 'binary', maxLength: 60 }),
          fc.constantFrom('', ' ', 'null', 'undefined', 'NaN', '{', '{"a":1,}', "{'a':1}", '[1,2', '\ufeff{}', '{"a":1}{"b":2}', '1e309', '"x"', 'true'),
          fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v).slice(0, -1)),
        ),
        ct: ANY_CT,
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        k: fc.constant('bytes' as const),
        b: fc.tuple(fc.uint8Array({ maxLength: 24 }), fc.constantFrom(...INVALID_UTF8)).map(([a, bad]) => [...a, ...bad]),
        ct: ANY_CT,
      }),
    },
    { weight: 1, arbitrary: fc.record({ k: fc.constant('proto' as const), which: fc.nat({ max: 3 }) }) },
    { weight: 1, arbitrary: fc.record({ k: fc.constant('huge' as const), size: fc.constantFrom(BODY_LIMIT - 64, BODY_LIMIT + 1, 3 * BODY_LIMIT), ct: ANY_CT }) },
  );
  return fc.oneof({ weight: isGet ? 3 : 1, arbitrary: fc.constant(null) }, { weight: isGet ? 1 : 8, arbitrary: spec });
}

const PROTO_BODIES = [
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"a":{"__proto__":{"x":1}},"b":[{"constructor":{"prototype":{}}}]}',
  '{"__proto__":null,"toString":1,"hasOwnProperty":"x"}',
];

function buildBody(b: BodySpec): { bytes: Buffer; ct: string | null } {
  switch (b.k) {
    case 'json':
      return { bytes: Buffer.from(JSON.stringify(b.v) ?? 'null', 'utf8'), ct: b.ct };
    case 'literal':
      return { bytes: Buffer.from(`{${JSON.stringify(b.field)}:${b.lit}}`), ct: b.ct };
    case 'nested': {
      const open = b.obj ? '{"a":' : '[';
      const close = b.obj ? '}' : ']';
      const inner = open.repeat(b.depth) + (b.obj ? '1' : '') + close.repeat(b.depth);
      return { bytes: Buffer.from(b.field === null ? inner : `{${JSON.stringify(b.field)}:${inner}}`), ct: 'application/json' };
    }
    case 'text':
      return { bytes: Buffer.from(b.t, 'utf8'), ct: b.ct };
    case 'bytes':
      return { bytes: Buffer.from(b.b), ct: b.ct };
    case 'proto':
      return { bytes: Buffer.from(PROTO_BODIES[b.which % PROTO_BODIES.length]!), ct: 'application/json' };
    case 'huge':
      return { bytes: Buffer.from(`{"master_id":"${'x'.repeat(Math.max(0, b.size - 17))}"}`), ct: b.ct };
  }
}

type User = 'admin' | 'investor' | 'none' | 'bogus';
type Bogus = { kind: 'str'; s: string } | { kind: 'mangled' } | { kind: 'dup' } | { kind: 'long' };
const HEADER_SAFE = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
const BOGUS: fc.Arbitrary<Bogus> = fc.oneof(
  fc.record({ kind: fc.constant('str' as const), s: fc.oneof(fc.string({ unit: HEADER_SAFE, maxLength: 60 }), fc.constantFrom('', 'null', 'undefined', '0', 'Bearer x')) }),
  fc.constantFrom<Bogus>({ kind: 'mangled' }, { kind: 'dup' }, { kind: 'long' }),
);

interface ReqSpec {
  user: User;
  bogus: Bogus;
  method: string;
  path: PathSpec;
  query: QPart[] | null;
  body: BodySpec | null;
  acceptEncoding: string | null;
  idempotencyKey: string | null;
}

/** A value meant to break a parameter: a near miss of a valid one, NUL, odd numbers, long, control… */
function hostileVal(known: fc.Arbitrary<string>): fc.Arbitrary<Val> {
  return fc.oneof(
    { weight: 2, arbitrary: known },
    { weight: 3, arbitrary: mutant(known) },
    { weight: 3, arbitrary: fc.tuple(known, fc.nat()).map(([v, at]) => `${v.slice(0, at % (v.length + 1))}\u0000${v.slice(at % (v.length + 1))}`) },
    { weight: 2, arbitrary: fc.constantFrom(...ODD_NUMBERS) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
    { weight: 1, arbitrary: fc.string({ unit: CONTROL, maxLength: 6 }) },
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: longVal },
  );
}

/**
 * An authenticated, well-aimed request: the exact path, every known parameter (or body field) valid
 * but one, which gets a hostile value. These reach the handlers, where the wild ones mostly stop at
 * the schema.
 */
function focusedArb(route: Route, d: Domain): fc.Arbitrary<ReqSpec> {
  const key = keyOf(route);
  const names = QUERY_PARAMS[key] ?? [];
  const fields = BODY_FIELDS[key] ?? [];
  const query: fc.Arbitrary<QPart[] | null> =
    names.length === 0
      ? fc.constant(null)
      : fc
          .tuple(
            fc.tuple(...names.map((n) => fc.tuple(queryValueFor(n, d), fc.boolean()))),
            // One hostile value, or (a third of the time) none: valid values at their bounds.
            fc.oneof(
              { weight: 2, arbitrary: fc.constantFrom(...names).chain((n) => hostileVal(queryValueFor(n, d)).map((v) => ({ n, v }))) },
              { weight: 1, arbitrary: fc.constant(null) },
            ),
          )
          .map(([valid, bad]) =>
            names.flatMap((n, i): QPart[] => {
              if (n === bad?.n) return [{ n, v: bad.v, e: 'pct' }];
              const [v, present] = valid[i]!;
              return present ? [{ n, v, e: 'pct' }] : [];
            }),
          );
  const validBody: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of fields) validBody[f] = bodyValueFor(f, d);
  const body: fc.Arbitrary<BodySpec | null> =
    fields.length === 0
      ? fc.constant(null)
      : fc
          .tuple(fc.record(validBody), fc.constantFrom(...fields).chain((f) => fieldValueArb(f, d).map((v) => ({ f, v }))))
          .map(([valid, bad]): BodySpec => ({ k: 'json', v: { ...valid, [bad.f]: bad.v }, ct: 'application/json' }));
  return fc.record({
    user: fc.constantFrom<User>('admin', 'admin', 'investor'),
    bogus: fc.constant<Bogus>({ kind: 'long' }),
    method: fc.constant(route.method),
    path: pathSpecArb(route, { mutFreq: 0, allowHash: false }),
    query,
    body,
    acceptEncoding: fc.constant(null),
    idempotencyKey: fc.option(fc.uuid(), { freq: 3 }),
  });
}

function reqArb(route: Route, d: Domain, focus: 'wild' | 'focused' = 'wild', users: User[] = ['admin', 'investor', 'none', 'bogus']): fc.Arbitrary<ReqSpec> {
  const [wild, focused] = focus === 'wild' ? [3, 2] : [2, 3];
  return fc.oneof({ weight: wild, arbitrary: wildArb(route, d, users) }, { weight: focused, arbitrary: focusedArb(route, d) });
}

/** Anything: any user, method, path variant, query, body, content type and headers. */
function wildArb(route: Route, d: Domain, users: User[]): fc.Arbitrary<ReqSpec> {
  const key = keyOf(route);
  return fc.record({
    user: fc.constantFrom(...users),
    bogus: BOGUS,
    method: fc.oneof(
      { weight: 12, arbitrary: fc.constant(route.method) },
      { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'PROPFIND') },
    ),
    path: pathSpecArb(route, { mutFreq: 3, allowHash: true }),
    query: queryArb(QUERY_PARAMS[key] ?? [], d),
    body: bodyArb(key, d, route.method === 'GET'),
    acceptEncoding: fc.option(fc.constantFrom('br', 'gzip', 'gzip, br', 'deflate', 'identity', '*', 'br;q=0', 'x-garbage', 'gzip;q=abc'), { freq: 3 }),
    idempotencyKey: fc.option(fc.oneof(fc.uuid(), fc.constantFrom('', 'k'.repeat(201), 'same-key'), fc.string({ unit: HEADER_SAFE, maxLength: 30 })), {
      freq: 4,
    }),
  });
}

// ---------------------------------------------------------------------------------------------
// The wire: node:http with exact paths, bodies and headers
// ---------------------------------------------------------------------------------------------

interface Wire {
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body: Buffer | null;
}
interface Answer {
  status: number;
  type: string;
  text: string;
  error?: string;
}

function rawSend(port: number, agent: http.Agent | false, w: Wire, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve) => {
    let req: http.ClientRequest;
    const headers = { ...w.headers };
    // Always a content-length with a body: without one, a GET body would be read as the next request.
    if (w.body !== null) headers['content-length'] = String(w.body.length);
    try {
      req = http.request({ host: '127.0.0.1', port, method: w.method, path: w.path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err) => resolve({ status: res.statusCode ?? 0, type: '', text: '', error: `response: ${err.message}` }));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          // A HEAD answer carries the headers of the GET (its content-encoding too) and no body.
          const enc = w.method.toUpperCase() === 'HEAD' ? '' : String(res.headers['content-encoding'] ?? '');
          let text: string;
          try {
            const plain =
              enc === 'br' ? zlib.brotliDecompressSync(raw) : enc === 'gzip' ? zlib.gunzipSync(raw) : enc === 'deflate' ? zlib.inflateSync(raw) : raw;
            text = plain.toString('utf8');
          } catch (err) {
            resolve({ status: res.statusCode ?? 0, type: '', text: '', error: `undecodable ${enc} body: ${(err as Error).message}` });
            return;
          }
          resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), text });
        });
      });
    } catch (err) {
      resolve({ status: -1, type: '', text: '', error: `client refused the request: ${(err as Error).message}` });
      return;
    }
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.on('error', (err) => resolve({ status: 0, type: '', text: '', error: err.message }));
    req.end(w.body ?? undefined);
  });
}

/** Sends on a keep-alive connection; a transport error is retried once on a fresh connection. */
async function send(ctx: Ctx, w: Wire, timeoutMs = 20_000): Promise<Answer> {
  const first = await rawSend(ctx.port, ctx.agent, w, timeoutMs);
  if (first.status !== 0) return first;
  const second = await rawSend(ctx.port, false, w, timeoutMs);
  return second.status === 0 ? { ...second, error: `${first.error} / retried: ${second.error}` } : second;
}

interface Ctx {
  server: TestServer;
  port: number;
  agent: http.Agent;
  keys: { admin: string; investor: string };
  userIds: { admin: number; investor: number };
  routes: Route[];
  /** The app's routes in a router of its own, built with the app's router options: which route a URL reaches. */
  mirror: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>;
  domain: Domain;
}

/**
 * The router Fastify uses (find-my-way), with the app's options and routes, each route as its store.
 * Fastify's own findRoute says whether a URL is routed (the same lookup as a real request) but not
 * to which route (its handler is shared by every route): the mirror says which.
 */
function mirrorRouter(app: TestServer['app'], routes: Route[]): FindMyWay.Instance<FindMyWay.HTTPVersion.V1> {
  const c = app.initialConfig as Record<string, unknown> & { routerOptions?: Record<string, unknown> };
  const opt = (k: string): unknown => c.routerOptions?.[k] ?? c[k];
  // useSemicolonDelimiter is an option of find-my-way 9 that its types do not list.
  const config = {
    caseSensitive: opt('caseSensitive') !== false,
    ignoreTrailingSlash: opt('ignoreTrailingSlash') === true,
    ignoreDuplicateSlashes: opt('ignoreDuplicateSlashes') === true,
    maxParamLength: typeof opt('maxParamLength') === 'number' ? (opt('maxParamLength') as number) : 100,
    useSemicolonDelimiter: opt('useSemicolonDelimiter') === true,
  };
  const router = FindMyWay(config);
  const noop = () => {};
  for (const r of routes) {
    router.on(r.method as FindMyWay.HTTPMethod, r.url, noop, r);
    if (r.method === 'GET' && !routes.some((x) => x.method === 'HEAD' && x.url === r.url)) {
      router.on('HEAD', r.url, noop, { method: 'HEAD', url: r.url });
    }
  }
  return router;
}

/** The route the server's router sends this method and URL to, if any. */
function routedTo(ctx: Ctx, method: string, url: string): Route | undefined {
  let routed: boolean;
  try {
    routed = ctx.server.app.findRoute({ method, url }) !== null;
  } catch {
    routed = false;
  }
  if (!routed) return undefined;
  try {
    const found = ctx.mirror.find(method as FindMyWay.HTTPMethod, url);
    if (found) return found.store as Route;
  } catch {
    /* below */
  }
  // Routed by the app, unknown to the mirror (should not happen): judged as a route of its own.
  return { method, url: `(unknown route for ${url})` };
}

const short = (s: string, n = 240) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);
const printable = (s: string) => JSON.stringify(short(s)).slice(1, -1);

async function materialise(ctx: Ctx, route: Route, spec: ReqSpec): Promise<{ wire: Wire; reached: Route | undefined }> {
  const path = buildPath(route, spec.path);
  const full = spec.query === null ? path : `${path}?${encodeQuery(spec.query)}`;
  const reached = routedTo(ctx, spec.method, full);
  const headers: Record<string, string | string[]> = {};
  if (spec.user === 'admin' || spec.user === 'investor') {
    // Signing out revokes the key: a route that signs out gets a fresh session of its own.
    headers['x-api-key'] =
      reached?.url === '/api/logout' ? await ctx.server.app.authStore.createSession(ctx.userIds[spec.user]) : ctx.keys[spec.user];
  } else if (spec.user === 'bogus') {
    const b = spec.bogus;
    headers['x-api-key'] =
      b.kind === 'str' ? b.s : b.kind === 'mangled' ? `${ctx.keys.admin.slice(0, -1)}~` : b.kind === 'dup' ? [ctx.keys.admin, ctx.keys.admin] : 'k'.repeat(201);
  }
  if (spec.acceptEncoding !== null) headers['accept-encoding'] = spec.acceptEncoding;
  if (spec.idempotencyKey !== null) headers['idempotency-key'] = spec.idempotencyKey;
  let body: Buffer | null = null;
  if (spec.body !== null) {
    const b = buildBody(spec.body);
    body = b.bytes;
    if (b.ct !== null) headers['content-type'] = b.ct;
  }
  // A body that reaches the password change never carries the right current password, however it
  // was generated or shrunk: a change would end the sessions (and the logins) the fuzzing uses.
  if (body !== null && reached?.url === '/api/account/password') {
    body = Buffer.from(body.toString('utf8').replace(/(admin|investor|manager)-demo(?![\w-])/g, '$1-demo-not'), 'utf8');
  }
  return { wire: { method: spec.method, path: full, headers, body }, reached };
}

function describeWire(w: Wire, user: User): string {
  const body = w.body === null ? '' : ` body(${String(w.headers['content-type'] ?? 'no content-type')}, ${w.body.length} B)=${printable(w.body.toString('utf8'))}`;
  return `${w.method} ${printable(w.path)} as ${user}${body}`;
}

/**
 * Every property a single answer must hold. `only` narrows them to one concern: the server's own
 * errors (5xx, no answer, a 4xx without a message) or access (401, 404, the investor), so that one
 * defect does not hide the other in a property that stops at its first counterexample.
 */
type Concern = 'errors' | 'access';
function judge(ctx: Ctx, user: User, w: Wire, reached: Route | undefined, a: Answer, only?: Concern): string[] {
  const all = judgeAll(ctx, user, w, reached, a);
  return only === undefined ? [...all.errors, ...all.access] : all[only];
}

function judgeAll(_ctx: Ctx, user: User, w: Wire, reached: Route | undefined, a: Answer): Record<Concern, string[]> {
  const v: string[] = [];
  const access: string[] = [];
  const result = { errors: v, access };
  const what = () => `${describeWire(w, user)} → ${a.status} ${printable(a.text)}${a.error ? ` [${a.error}]` : ''}`;
  if (a.status === -1) return result; // the client library itself refused to send it: nothing reached the server
  // A server that refuses a request it could not parse (431, 400) sends a body, which a HEAD client
  // cannot expect: the client's parse error is then no sign of a server fault.
  if (a.status === 0 && w.method === 'HEAD' && /Parse Error/.test(a.error ?? '')) return result;
  if (a.status === 0) return { errors: [`no answer: ${what()}`], access };
  if (a.status >= 500) v.push(`status ≥ 500: ${what()}`);
  if (a.error) v.push(`broken answer: ${what()}`);
  if (a.status >= 400 && a.status < 500 && /json/i.test(a.type) && w.method !== 'HEAD') {
    let message: unknown;
    try {
      message = (JSON.parse(a.text) as { message?: unknown } | null)?.message;
    } catch {
      v.push(`4xx answer labelled JSON is not JSON: ${what()}`);
    }
    if (typeof message !== 'string' || message.trim() === '') v.push(`4xx JSON answer without a message: ${what()}`);
  }
  const ok = a.status >= 200 && a.status < 300;
  if (reached === undefined) {
    if (ok) access.push(`a URL the router does not route answered 2xx: ${what()}`);
  } else if (isProtected(reached)) {
    // The agents' routes (the ingest API) take an agent's key: a user's session key is no key there.
    const agentsRoute = reached.url.startsWith('/api/ingest/');
    const keyless = user === 'none' || user === 'bogus' || agentsRoute;
    if (keyless && a.status !== 401 && a.status !== 414 && a.status !== 431) {
      access.push(`protected route ${keyOf(reached)} without a valid key answered ${a.status}, not 401: ${what()}`);
    }
    if ((user === 'admin' || user === 'investor') && !agentsRoute && a.status === 401) access.push(`a valid key was refused (401): ${what()}`);
    const plain: Route = { method: reached.method === 'HEAD' ? 'GET' : reached.method, url: reached.url };
    if (user === 'investor' && INVESTOR_FORBIDDEN.has(keyOf(plain)) && ok) {
      access.push(`the investor got ${a.status} from ${keyOf(plain)}: ${what()}`);
    }
  }
  return result;
}

async function runBatch(ctx: Ctx, route: Route, specs: ReqSpec[], only?: Concern): Promise<void> {
  const results = await Promise.all(
    specs.map(async (spec) => {
      const { wire, reached } = await materialise(ctx, route, spec);
      const answer = await send(ctx, wire);
      return judge(ctx, spec.user, wire, reached, answer, only);
    }),
  );
  const violations = results.flat();
  if (violations.length > 0) throw new Error(violations.slice(0, 4).join('\n'));
}

/** Runs a property; a failure (with fast-check's seed, path and shrunk counterexample) is collected. */
async function check<T>(
  findings: string[],
  label: string,
  arb: fc.Arbitrary<T>,
  predicate: (t: T) => Promise<void>,
  numRuns: number,
  timeLimitMs = 60_000,
): Promise<void> {
  const seed = seedFor(label);
  try {
    // The time limit bounds the shrinking too (a failure found stays a failure, shrunk as far as it got).
    await fc.assert(fc.asyncProperty(arb, predicate), { seed, numRuns, interruptAfterTimeLimit: timeLimitMs * Math.max(1, SCALE) });
  } catch (err) {
    // fast-check 4 keeps the property's own error as the cause.
    const cause = (err as Error).cause;
    const got = cause instanceof Error ? `\nGot error: ${cause.message}` : '';
    const text = `${(err as Error).message}${got}`
      .split('\n')
      .filter((line) => !/^\s+at /.test(line) && !line.startsWith('Hint: '))
      .join('\n');
    findings.push(`[${label}] (seed ${seed})\n${short(text, 8000)}`);
  }
}

async function healthy(ctx: Ctx): Promise<string | undefined> {
  const a = await send(ctx, { method: 'GET', path: '/api/bridge/status', headers: { 'x-api-key': ctx.keys.admin }, body: null });
  return a.status === 200 ? undefined : `health probe GET /api/bridge/status → ${a.status} ${short(a.text)} ${a.error ?? ''}`;
}

// ---------------------------------------------------------------------------------------------
// Websockets
// ---------------------------------------------------------------------------------------------

interface Sock {
  ws: WebSocket;
  messages: unknown[];
  closed: Promise<{ code: number; reason: string }>;
  isClosed: () => boolean;
  errors: string[];
}
type Refusal = { status: number; type: string; text: string; closedByServer: boolean };
type Upgrade =
  | { kind: 'open'; sock: Sock }
  | ({ kind: 'refused' } & Refusal)
  | { kind: 'failed'; error: string }
  | { kind: 'skipped'; error: string };

const openSockets = new Set<WebSocket>();
/** Server-side sockets of upgrade requests still open. */
const upgradedOnServer = new Set<Socket>();
/** Every TCP socket the tests opened, destroyed before the server closes. */
const clientSockets = new Set<Socket>();
const track = (socket: Socket) => {
  clientSockets.add(socket);
  socket.once('close', () => clientSockets.delete(socket));
};

function upgrade(ctx: Ctx, pathAndQuery: string): Promise<Upgrade> {
  return new Promise((resolve) => {
    let ws: WebSocket;
    try {
      ws = new WebSocket(`ws://127.0.0.1:${ctx.port}${pathAndQuery}`, { handshakeTimeout: 10_000 });
    } catch (err) {
      resolve({ kind: 'skipped', error: (err as Error).message }); // the client refuses such a URL
      return;
    }
    openSockets.add(ws);
    const messages: unknown[] = [];
    const errors: string[] = [];
    let isClosed = false;
    let settled = false;
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      ws.on('close', (code, reason) => {
        isClosed = true;
        openSockets.delete(ws);
        done({ code, reason: reason.toString('utf8') });
      }),
    );
    ws.on('message', (data: Buffer, isBinary) => {
      try {
        messages.push(isBinary ? { binary: data.length } : (JSON.parse(data.toString('utf8')) as unknown));
      } catch {
        messages.push({ unparsable: data.toString('utf8').slice(0, 100) });
      }
    });
    ws.on('upgrade', (res) => track(res.socket));
    ws.on('unexpected-response', (req, res) => {
      const socket = res.socket;
      track(socket);
      const chunks: Buffer[] = [];
      const timer = setTimeout(() => {
        settled = true;
        openSockets.delete(ws);
        req.destroy();
        socket.destroy();
        resolve({ kind: 'failed', error: `answered ${res.statusCode} ${JSON.stringify(res.headers)} but the body did not end in 8 s` });
      }, 8000);
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        settled = true;
        openSockets.delete(ws);
        // Whether the server closed the connection is checked by a property of its own (rawExchange).
        const byServer = socket.readableEnded || socket.destroyed;
        socket.destroy();
        req.destroy();
        resolve({
          kind: 'refused',
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type'] ?? ''),
          text: Buffer.concat(chunks).toString('utf8'),
          closedByServer: byServer,
        });
      });
    });
    ws.on('error', (err) => {
      errors.push(err.message);
      if (!settled) {
        settled = true;
        openSockets.delete(ws);
        resolve({ kind: 'failed', error: err.message });
      }
    });
    ws.once('open', () => {
      settled = true;
      resolve({ kind: 'open', sock: { ws, messages, closed, isClosed: () => isClosed, errors } });
    });
  });
}

/** A websocket frame the client sends. */
type Frame =
  | { f: 'ping' }
  | { f: 'pings'; n: number }
  | { f: 'text'; t: string }
  | { f: 'badUtf8'; b: number[] }
  | { f: 'binary'; b: number[] }
  | { f: 'huge'; size: number; ping: boolean }
  | { f: 'fragmented'; t: string; at: number }
  | { f: 'unmasked'; t: string }
  | { f: 'raw'; kind: 'rsv' | 'badClose' | 'longControl' | 'badOpcode' | 'continuation'; n: number };

const PING = '{"type":"ping"}';
const frameArb: fc.Arbitrary<Frame> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Frame>({ f: 'ping' }) },
  // A few pings at once (the server's budget is a burst of 20; floods have a property of their own).
  { weight: 1, arbitrary: fc.record({ f: fc.constant('pings' as const), n: fc.integer({ min: 2, max: 15 }) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      f: fc.constant('text' as const),
      t: fc.oneof(
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.constantFrom('{"type":"ping","x":1}', ' {"type":"ping"} ', '{"type":"PING"}', '{"type":["ping"]}', 'null', '"ping"', '[]', '{}', 'ping', '{"type":"ping"', '\u0000'),
        fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      ),
    }),
  },
  { weight: 2, arbitrary: fc.record({ f: fc.constant('badUtf8' as const), b: fc.tuple(fc.uint8Array({ maxLength: 8 }).map((a) => [...a].map((x) => x & 0x7f)), fc.constantFrom(...INVALID_UTF8)).map(([a, bad]) => [...a, ...bad]) }) },
  { weight: 2, arbitrary: fc.record({ f: fc.constant('binary' as const), b: fc.uint8Array({ maxLength: 32 }).map((a) => [...a]) }) },
  { weight: 1, arbitrary: fc.record({ f: fc.constant('huge' as const), size: fc.constantFrom(60_000, WS_MAX_PAYLOAD - 20, WS_MAX_PAYLOAD + 1, 200_000, 2_000_000), ping: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ f: fc.constant('fragmented' as const), t: fc.oneof(fc.constant(PING), fc.string({ maxLength: 20 })), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ f: fc.constant('unmasked' as const), t: fc.constantFrom(PING, 'x') }) },
  {
    weight: 2,
    arbitrary: fc.record({
      f: fc.constant('raw' as const),
      kind: fc.constantFrom<'rsv' | 'badClose' | 'longControl' | 'badOpcode' | 'continuation'>('rsv', 'badClose', 'longControl', 'badOpcode', 'continuation'),
      n: fc.nat({ max: 0xffff }),
    }),
  },
);

/** Is this text message the one the server accepts ({"type":"ping"})? */
function isPing(text: string): boolean {
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null && (parsed as { type?: unknown }).type === 'ping';
  } catch {
    return false;
  }
}
const hugeText = (size: number, ping: boolean) => `{"type":"${ping ? 'ping' : 'poke'}","pad":"${'x'.repeat(Math.max(0, size - 29))}"}`;

/** Pings the frame answers with a pong, or 'bad' when the server must close the socket for it. */
function expectedPongs(frame: Frame): number | 'bad' {
  switch (frame.f) {
    case 'ping':
      return 1;
    case 'pings':
      return frame.n;
    case 'text':
      return isPing(frame.t) ? 1 : 'bad';
    case 'fragmented':
      return isPing(frame.t) ? 1 : 'bad';
    case 'huge': {
      const text = hugeText(frame.size, frame.ping);
      return Buffer.byteLength(text) > WS_MAX_PAYLOAD || !frame.ping ? 'bad' : 1;
    }
    default:
      return 'bad';
  }
}

/** A masked client frame written straight to the TCP socket. */
function rawFrame(first: number, payload: Buffer, lengthOverride?: number): Buffer {
  const mask = Buffer.from([0x12, 0x34, 0x56, 0x78]);
  const len = lengthOverride ?? payload.length;
  const head = len < 126 ? Buffer.from([first, 0x80 | len]) : Buffer.from([first, 0x80 | 126, len >> 8, len & 0xff]);
  const body = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!));
  return Buffer.concat([head, mask, body]);
}

function sendFrame(sock: Sock, frame: Frame): void {
  const ws = sock.ws;
  const ignore = () => {};
  if (ws.readyState !== WebSocket.OPEN) return;
  switch (frame.f) {
    case 'ping':
      return ws.send(PING, ignore);
    case 'pings':
      for (let i = 0; i < frame.n; i++) ws.send(PING, ignore);
      return;
    case 'text':
      return ws.send(frame.t, ignore);
    case 'badUtf8':
      return ws.send(Buffer.from(frame.b), { binary: false }, ignore);
    case 'binary':
      return ws.send(Buffer.from(frame.b), { binary: true }, ignore);
    case 'huge':
      return ws.send(hugeText(frame.size, frame.ping), ignore);
    case 'fragmented': {
      const at = frame.t.length === 0 ? 0 : frame.at % frame.t.length;
      ws.send(frame.t.slice(0, at), { fin: false }, ignore);
      return ws.send(frame.t.slice(at), { fin: true }, ignore);
    }
    case 'unmasked':
      return ws.send(frame.t, { mask: false }, ignore);
    case 'raw': {
      const socket = (ws as unknown as { _socket: Socket })._socket;
      const code = Buffer.from([frame.n >> 8, frame.n & 0xff]);
      const bytes =
        frame.kind === 'rsv'
          ? rawFrame(0x80 | 0x30 | 0x1, Buffer.from(PING))
          : frame.kind === 'badClose'
            ? rawFrame(0x88, [999, 1004, 1005, 1006, 1015, 2999, 5000].includes(frame.n % 6000) ? code : Buffer.from([0x03, 0xe7]))
            : frame.kind === 'longControl'
              ? rawFrame(0x89, Buffer.alloc(130, 1))
              : frame.kind === 'badOpcode'
                ? rawFrame(0x80 | (3 + (frame.n % 5)), Buffer.from('x'))
                : rawFrame(0x80, Buffer.from(PING));
      socket.write(bytes);
      return;
    }
  }
}

const within = <T>(p: Promise<T>, ms: number): Promise<T | 'timeout'> =>
  Promise.race([p, sleep(ms).then(() => 'timeout' as const)]);

async function waitFor(cond: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await sleep(10);
  }
  return cond();
}

/** An answer refusing an upgrade; `zombie`: also check the server closed the connection after it. */
function judgeRefusal(where: string, u: Refusal, zombie = false): string[] {
  const v: string[] = [];
  if (u.status >= 500 || u.status === 0) v.push(`upgrade ${where} answered ${u.status} ${short(u.text)}`);
  if (u.status >= 400 && u.status < 500 && /json/i.test(u.type)) {
    let message: unknown;
    try {
      message = (JSON.parse(u.text) as { message?: unknown } | null)?.message;
    } catch {
      /* checked below */
    }
    if (typeof message !== 'string' || message.trim() === '') v.push(`upgrade ${where}: 4xx JSON without a message: ${short(u.text)}`);
  }
  if (zombie && !u.closedByServer) {
    v.push(`upgrade ${where} refused with ${u.status} but the server kept the connection open (a zombie socket, not read any more: app.close() waits for it)`);
  }
  return v;
}

const msgType = (m: unknown) => (typeof m === 'object' && m !== null ? (m as { type?: unknown }).type : undefined);

interface WsSpec {
  route: 0 | 1;
  user: 'admin' | 'investor';
  ticketMode: 'fresh' | 'twice' | 'twiceOther' | 'reused';
  query: QPart[] | null;
  frames: Frame[];
}

const WS_ROUTES = ['/ws/brokers/live-positions-aggregate', '/ws/brokers/live-positions-aggregate-by'] as const;

/** What the sockets met (printed after the run). */
const wsOutcomes = new Map<string, number>();
const outcome = (what: string) => wsOutcomes.set(what, (wsOutcomes.get(what) ?? 0) + 1);

async function runTicketedSocket(ctx: Ctx, spec: WsSpec): Promise<string[]> {
  const route = WS_ROUTES[spec.route];
  const t = await ticket(ctx.server, ctx.keys[spec.user]);
  let token = `token=${t}`;
  if (spec.ticketMode === 'twice') token = `token=${t}&token=${t}`;
  if (spec.ticketMode === 'twiceOther') token = `token=${t}&token=${await ticket(ctx.server, ctx.keys[spec.user])}`;
  if (spec.ticketMode === 'reused') {
    const first = await upgrade(ctx, `${route}?token=${t}${spec.route === 1 ? '&aggregate_by=broker' : ''}`);
    if (first.kind === 'open') {
      first.sock.ws.close();
      await within(first.sock.closed, 3000);
    }
  }
  const where = `${route}?${token.replace(/[A-Za-z0-9_-]{20,}/g, '<ticket>')}&${short(spec.query === null ? '' : encodeQuery(spec.query), 200)}`;
  const u = await upgrade(ctx, `${route}?${token}${spec.query === null ? '' : `&${encodeQuery(spec.query)}`}`);
  outcome(`ticketed ${u.kind}${u.kind === 'refused' ? ` ${u.status}` : ''}`);
  if (u.kind === 'skipped') return [];
  if (u.kind === 'failed') return [`upgrade ${where} failed without an HTTP answer: ${u.error}`];
  if (u.kind === 'refused') return judgeRefusal(where, u);
  const sock = u.sock;
  const v: string[] = [];
  // The server either streams (a snapshot first) or closes the socket with a code.
  await waitFor(() => sock.messages.length > 0 || sock.isClosed(), 5000);
  if (spec.ticketMode === 'reused' && sock.messages.some((m) => msgType(m) === 'snapshot')) v.push(`a spent ticket opened a feed: ${where}`);
  if (sock.isClosed()) {
    const { code, reason } = await sock.closed;
    outcome(`ticketed closed at once ${code}`);
    if (!isAllowedClose(code)) v.push(`socket ${where} closed at once with ${code} ${reason}`);
    return v;
  }
  if (sock.messages.length === 0) v.push(`socket ${where} neither streamed nor closed within 5 s`);
  else if (msgType(sock.messages[0]) !== 'snapshot') v.push(`first message on ${where} is not a snapshot: ${short(JSON.stringify(sock.messages[0]))}`);

  let pongs = 0;
  let bad = false;
  for (const frame of spec.frames) {
    const e = expectedPongs(frame);
    sendFrame(sock, frame);
    if (e === 'bad') {
      bad = true;
      break;
    }
    pongs += e;
  }
  const frames = short(JSON.stringify(spec.frames.map((f) => ('b' in f ? { ...f, b: `${f.b.length} bytes` } : f))), 400);
  if (bad) {
    const closed = await within(sock.closed, 8000);
    outcome(`ticketed bad frames → ${closed === 'timeout' ? 'still open' : closed.code}`);
    if (closed === 'timeout') v.push(`socket ${where} still open 8 s after bad frames ${frames}`);
    else if (!isAllowedClose(closed.code)) v.push(`socket ${where} closed with ${closed.code} '${closed.reason}' after frames ${frames}`);
  } else {
    const got = () => sock.messages.filter((m) => msgType(m) === 'pong').length;
    await waitFor(() => got() >= pongs || sock.isClosed(), 8000);
    outcome(`ticketed good frames → ${sock.isClosed() ? 'closed' : `${pongs} pongs expected`}`.replace(/\d+ pongs/, pongs > 0 ? 'pongs' : 'no pongs'));
    if (sock.isClosed()) {
      const { code, reason } = await sock.closed;
      outcome(`ticketed good frames → closed ${code}`);
      if (!isAllowedClose(code)) v.push(`socket ${where} closed with ${code} '${reason}' after good frames ${frames}`);
    } else if (got() !== pongs) {
      v.push(`socket ${where}: ${got()} pongs for ${pongs} pings (${frames})`);
    }
    sock.ws.close(1000);
    if ((await within(sock.closed, 3000)) === 'timeout') sock.ws.terminate();
  }
  const strange = sock.messages.filter((m) => msgType(m) !== 'snapshot' && msgType(m) !== 'pong');
  if (strange.length > 0) v.push(`socket ${where} sent unexpected messages: ${short(JSON.stringify(strange))}`);
  return v;
}

/**
 * A burst of n pings at once (text {"type":"ping"} or protocol pings): within the server's budget each
 * gets its pong; past it the socket is closed with a code the client can read (4429), never cut (1006).
 */
async function runFlood(ctx: Ctx, route: 0 | 1, n: number, protocol: boolean): Promise<string[]> {
  const t = await ticket(ctx.server, ctx.keys.admin);
  const u = await upgrade(ctx, `${WS_ROUTES[route]}?token=${t}${route === 1 ? '&aggregate_by=broker' : ''}`);
  if (u.kind !== 'open') return [`a valid socket did not open: ${JSON.stringify(u)}`];
  const sock = u.sock;
  await waitFor(() => sock.messages.length > 0 || sock.isClosed(), 5000);
  let pongs = 0;
  sock.ws.on('pong', () => pongs++);
  const ignore = () => {};
  for (let i = 0; i < n; i++) {
    if (protocol) sock.ws.ping(undefined, undefined, ignore);
    else sock.ws.send(PING, ignore);
  }
  const got = () => (protocol ? pongs : sock.messages.filter((m) => msgType(m) === 'pong').length);
  await waitFor(() => got() >= n || sock.isClosed(), 5000);
  const what = `${n} ${protocol ? 'protocol' : 'text'} pings at once on ${WS_ROUTES[route]}`;
  const v: string[] = [];
  if (sock.isClosed()) {
    const { code, reason } = await sock.closed;
    outcome(`flood closed ${code}`);
    if (!isAllowedClose(code)) v.push(`${what}: closed with ${code} '${reason}' (the client cannot tell why)`);
  } else {
    outcome('flood answered');
    if (got() !== n) v.push(`${what}: ${got()} pongs, socket still open`);
    sock.ws.close(1000);
    if ((await within(sock.closed, 3000)) === 'timeout') sock.ws.terminate();
  }
  return v;
}

interface BareSpec {
  route: 0 | 1;
  muts: PathMut[];
  query: QPart[] | null;
  token: { t: 'none' } | { t: 'random'; s: string } | { t: 'twice'; a: string; b: string } | { t: 'empty' } | { t: 'long' } | { t: 'array' };
}

async function runBareSocket(ctx: Ctx, spec: BareSpec): Promise<string[]> {
  const path = spec.muts.reduce(applyPathMut, WS_ROUTES[spec.route] as string);
  const tok = spec.token;
  const token =
    tok.t === 'none'
      ? ''
      : tok.t === 'random'
        ? `token=${pct(tok.s)}`
        : tok.t === 'twice'
          ? `token=${pct(tok.a)}&token=${pct(tok.b)}`
          : tok.t === 'empty'
            ? 'token='
            : tok.t === 'long'
              ? `token=${'t'.repeat(201)}`
              : 'token[]=a&token[]=b';
  const query = [token, spec.query === null ? '' : encodeQuery(spec.query)].filter((s) => s !== '').join('&');
  const url = query === '' ? path : `${path}?${query}`;
  const u = await upgrade(ctx, url);
  outcome(`bare ${u.kind}${u.kind === 'refused' ? ` ${u.status}` : ''}`);
  if (u.kind === 'skipped') return [];
  if (u.kind === 'failed') return [`upgrade ${short(url)} failed without an HTTP answer: ${u.error}`];
  if (u.kind === 'refused') return judgeRefusal(short(url), u);
  const v: string[] = [];
  const closed = await within(u.sock.closed, 5000);
  if (closed === 'timeout') {
    v.push(`socket ${short(url)} without a valid ticket stayed open 5 s`);
    u.sock.ws.terminate();
  } else if (!isAllowedClose(closed.code)) v.push(`socket ${short(url)} without a valid ticket closed with ${closed.code} '${closed.reason}'`);
  if (u.sock.messages.some((m) => msgType(m) === 'snapshot')) v.push(`socket ${short(url)} streamed data without a valid ticket`);
  return v;
}

interface HandshakeSpec {
  /** Index into the server's routes (any route: an upgrade may be asked of every URL). */
  target: number;
  muts: PathMut[];
  post: boolean;
  withKey: boolean;
  upgradeHeader: string;
  version: string | null;
  key: string | null;
  connection: string;
  query: string;
}

/**
 * An HTTP answer read off a raw TCP socket, and whether the server closed the connection within 1 s
 * of it. After refusing an upgrade the server must close it: once a request came in as an upgrade,
 * Node reads no more HTTP from that socket, so one left open (keep-alive) is a zombie that nothing
 * reads, that outlives its client, and that app.close() waits for.
 */
function rawExchange(port: number, request: string, timeoutMs: number): Promise<{ status: number; head: string; body: string; closedByServer: boolean } | string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    track(socket);
    let buf = Buffer.alloc(0);
    let ended = false;
    let done = false;
    const finish = (outcome: { status: number; head: string; body: string; closedByServer: boolean } | string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish(`no complete answer in ${timeoutMs} ms (got ${JSON.stringify(buf.toString('latin1').slice(0, 200))})`), timeoutMs);
    const complete = (): { status: number; head: string; body: string } | undefined => {
      const at = buf.indexOf('\r\n\r\n');
      if (at < 0) return undefined;
      const head = buf.subarray(0, at).toString('latin1');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      const rest = buf.subarray(at + 4);
      if (status === 101) return { status, head, body: '' };
      const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
      if (length !== undefined) return rest.length >= Number(length) ? { status, head, body: rest.subarray(0, Number(length)).toString('utf8') } : undefined;
      if (/\r\ntransfer-encoding: *chunked/i.test(head)) return rest.includes('0\r\n\r\n') ? { status, head, body: rest.toString('utf8') } : undefined;
      return ended ? { status, head, body: rest.toString('utf8') } : undefined;
    };
    let answer: { status: number; head: string; body: string } | undefined;
    const onAnswer = () => {
      if (answer) return;
      answer = complete();
      if (!answer) return;
      if (answer.status === 101 || ended) return finish({ ...answer, closedByServer: ended });
      const got = answer;
      setTimeout(() => finish({ ...got, closedByServer: ended }), 1000);
    };
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      onAnswer();
    });
    socket.on('end', () => {
      ended = true;
      if (answer) finish({ ...answer, closedByServer: true });
      else onAnswer();
      if (!answer) finish(`connection ended without an answer (got ${JSON.stringify(buf.toString('latin1').slice(0, 200))})`);
    });
    socket.on('error', (err) => finish(`socket error: ${err.message}`));
    socket.write(request);
  });
}

/** A hand-made upgrade request with odd handshake headers, to any route, over a raw TCP socket. */
async function runHandshake(ctx: Ctx, spec: HandshakeSpec, zombie: boolean): Promise<string[]> {
  const route = ctx.routes[spec.target % ctx.routes.length]!;
  const base = route.url.replace(/\/(:[^/]+|\*)/g, '/x');
  const path = `${spec.muts.reduce(applyPathMut, base)}${spec.query}`;
  const method = spec.post ? 'POST' : 'GET';
  const headers: Record<string, string> = { host: `127.0.0.1:${ctx.port}`, connection: spec.connection, upgrade: spec.upgradeHeader };
  if (spec.version !== null) headers['sec-websocket-version'] = spec.version;
  if (spec.key !== null) headers['sec-websocket-key'] = spec.key;
  if (spec.withKey) headers['x-api-key'] = ctx.keys.admin;
  if (spec.post) headers['content-length'] = '0';
  const reached = routedTo(ctx, method, path);
  const isUpgrade = /upgrade/i.test(spec.connection) && spec.upgradeHeader !== '';
  const where = `${method} ${printable(path)} ${JSON.stringify({ ...headers, host: undefined, 'x-api-key': spec.withKey ? '<admin>' : undefined })}`;
  const request = `${method} ${path} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  const a = await rawExchange(ctx.port, request, 8000);
  if (typeof a === 'string') return [`handshake ${where}: ${a}`];
  const v: string[] = [];
  const protectedWithoutKey = reached !== undefined && isProtected(reached) && !spec.withKey;
  if (a.status === 101) {
    if (protectedWithoutKey) v.push(`handshake ${where}: protected ${keyOf(reached)} upgraded (101) without a key`);
    return v;
  }
  const type = /\r\ncontent-type: *([^\r]*)/i.exec(a.head)?.[1] ?? '';
  // Only a request that came in as an upgrade must be closed after its answer (see closedByServer).
  v.push(...judgeRefusal(where, { status: a.status, type, text: a.body, closedByServer: a.closedByServer || !isUpgrade }, zombie));
  if (protectedWithoutKey && a.status !== 401) v.push(`handshake ${where}: protected ${keyOf(reached)} without a key answered ${a.status}, not 401`);
  return v;
}

async function freshSnapshot(ctx: Ctx, route: 0 | 1): Promise<string | undefined> {
  const t = await ticket(ctx.server, ctx.keys.admin);
  const u = await upgrade(ctx, `${WS_ROUTES[route]}?token=${t}${route === 1 ? '&aggregate_by=broker' : ''}`);
  if (u.kind !== 'open') return `a fresh valid socket on ${WS_ROUTES[route]} did not open: ${JSON.stringify(u)}`;
  await waitFor(() => u.sock.messages.length > 0 || u.sock.isClosed(), 5000);
  const first = u.sock.messages[0];
  u.sock.ws.close();
  await within(u.sock.closed, 3000);
  return msgType(first) === 'snapshot' ? undefined : `a fresh valid socket on ${WS_ROUTES[route]} got ${short(JSON.stringify(first) ?? 'nothing')}`;
}

// ---------------------------------------------------------------------------------------------
// The suites
// ---------------------------------------------------------------------------------------------

describe.each(BACKENDS)('fuzzing every route and socket (%s)', (backend) => {
  let ctx: Ctx;
  let gc: () => void;
  let heapBefore = 0;

  beforeAll(async () => {
    currentBackend = backend;
    const server = await startServer(backend);
    const port = Number(new URL(server.url).port);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const keys = { admin: await login(server, 'admin'), investor: await login(server, 'investor') };
    const admin = await server.app.authStore.findUser('admin');
    const investor = await server.app.authStore.findUser('investor');
    // Instrumentation only: the server-side sockets of upgrade requests, to end any left open at the close.
    server.app.server.prependListener('upgrade', (_req: http.IncomingMessage, socket: Socket) => {
      upgradedOnServer.add(socket);
      socket.once('close', () => upgradedOnServer.delete(socket));
    });
    const routes = [...server.app.routeList];
    const mirror = mirrorRouter(server.app, routes);
    // Real names to generate from: accounts, brokers, masters, months.
    const info = await jsonHttp<{ data: { account_id: string; account: string; broker_name: string }[] }>(server, 'GET', '/api/brokers/accounts/info', { key: keys.admin });
    const rules = await jsonHttp<{ copy_rules: { master_id: string }[] }>(server, 'GET', '/api/copy-rules/infos', { key: keys.admin });
    const nav = await jsonHttp<{ available_dates: Record<string, number[]> }>(server, 'GET', '/api/brokers/accounts/historical_infos', { key: keys.admin });
    const accounts = info.body.data;
    const domain: Domain = {
      accounts: [...accounts.slice(0, 4).map((a) => a.account_id), ...accounts.slice(-3).map((a) => a.account), 'unknown-account'],
      brokers: [...new Set(accounts.map((a) => a.broker_name)), 'Unknown Broker'],
      masters: [...rules.body.copy_rules.map((r) => r.master_id).slice(0, 4), 'no-such-master'],
      symbols: [...INSTRUMENTS.map((i) => i.symbol).slice(0, 10), 'NOPE'],
      dateIds: Object.keys(nav.body.available_dates ?? {}).slice(0, 3).concat('1.2000'),
      pairs: [...FOREX_PAIRS.slice(0, 6), 'AAPL', 'NOPE'],
    };
    ctx = { server, port, agent, keys, userIds: { admin: admin!.id, investor: investor!.id }, routes, mirror, domain };

    // Warm-up (every route, a socket), so that the heap measured next holds what any run needs.
    const warm: string[] = [];
    for (const r of routes) await check(warm, `warm-up ${keyOf(r)}`, fc.array(reqArb(r, domain), { minLength: 1, maxLength: 4 }), (specs) => runBatch(ctx, r, specs).catch(() => {}), 3);
    for (const route of [0, 1] as const) await freshSnapshot(ctx, route);
    gc = obtainGc();
    heapBefore = await settledHeap(gc);
  }, 180_000);

  afterAll(async () => {
    for (const ws of openSockets) ws.terminate();
    for (const socket of clientSockets) socket.destroy();
    ctx?.agent.destroy();
    await sleep(200);
    // A connection the server left open holds app.close() forever: bounded, said so, then ended by hand.
    const closing = ctx?.server.close();
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      closing.then(() => 'closed' as const),
      new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), 10_000))),
    ]);
    clearTimeout(timer);
    if (outcome === 'hung') {
      const left = upgradedOnServer.size;
      for (const socket of upgradedOnServer) socket.destroy();
      await Promise.race([closing, sleep(30_000)]);
      throw new Error(
        `[${backend}] app.close() did not finish within 10 s after the fuzzing, with every client socket closed: ` +
          `${left} server-side socket(s) of refused upgrade requests were still open (ended by the test to finish closing)`,
      );
    }
  }, 60_000);

  it('knows every route the server registered, and the write routes are among them', () => {
    const registered = ctx.routes.map(keyOf);
    expect(ctx.routes.length).toBeGreaterThan(10);
    for (const w of WRITE_ROUTES) expect(registered, w).toContain(w);
    for (const w of WS_ROUTES) expect(registered, w).toContain(`GET ${w}`);
  });

  it('every route answers generated queries, bodies, headers and paths without a 5xx, as admin, investor and without a key', async () => {
    const findings: string[] = [];
    let sent = 0;
    for (const route of ctx.routes) {
      // Sign-in runs scrypt on every well-formed attempt (and is rate limited): fewer runs there.
      const n = route.url === '/api/login' ? runs(8) : runs(30);
      // Two concerns judged apart (their own runs), so that neither hides the other: the server's
      // errors (mostly well-aimed requests that reach the handlers) and access (mostly wild ones).
      for (const concern of ['errors', 'access'] as const) {
        const arb = reqArb(route, ctx.domain, concern === 'errors' ? 'focused' : 'wild');
        await check(findings, `${backend} ${keyOf(route)} ${concern}`, fc.array(arb, { minLength: 4, maxLength: 8 }), (specs) => {
          sent += specs.length;
          return runBatch(ctx, route, specs, concern);
        }, n);
      }
      const sick = await healthy(ctx);
      if (sick) findings.push(`after ${keyOf(route)}: ${sick}`);
    }
    console.info(`[${backend}] route fuzz: ${sent} requests over ${ctx.routes.length} routes`);
    expect(findings, findings.join('\n\n')).toEqual([]);
  }, 600_000);

  it('without a valid key every protected /api route answers 401 on every path the router sends to it, and 404 on paths it does not route', async () => {
    const findings: string[] = [];
    const protectedRoutes = ctx.routes.filter(isProtected);
    // Every route, every structural variant, deterministic.
    const violations: string[] = [];
    for (const route of protectedRoutes) {
      const base = route.url.replace(/\/(:[^/]+|\*)/g, '/x');
      const letters = [...base].flatMap((c, i) => (/[A-Za-z]/.test(c) ? [i] : []));
      const slashes = [...base].flatMap((c, i) => (c === '/' ? [i] : []));
      const variants = new Set<string>([
        base,
        `${base}/`,
        `/${base}`,
        base.toUpperCase(),
        `/API${base.slice(4)}`,
        `/Api${base.slice(4)}`,
        `${base}?`,
        `${base}#x`,
        `${base};x`,
        `${base}%00`,
        `${base}/.`,
        `${base}/..`,
        `/x/..${base}`,
        `/api/..${base}`,
        `/./${base.slice(1)}`,
        applyPathMut(base, { m: 'encodeAll' }),
        ...letters.map((_, at) => applyPathMut(base, { m: 'encode', at, upper: false })),
        ...letters.map((_, at) => applyPathMut(base, { m: 'encode', at, upper: true })),
        ...slashes.map((_, at) => applyPathMut(base, { m: 'double', at })),
        ...slashes.slice(1).map((i) => `${base.slice(0, i)}%2F${base.slice(i + 1)}`),
        ...letters.map((_, at) => applyPathMut(base, { m: 'flipCase', at })),
      ]);
      const methods = route.method === 'GET' ? ['GET', 'HEAD'] : [route.method];
      const jobs: (() => Promise<void>)[] = [];
      const core = new Set([base, applyPathMut(base, { m: 'encodeAll' }), applyPathMut(base, { m: 'encode', at: 0, upper: false })]);
      for (const path of variants) {
        for (const method of methods) {
          // Without a key everywhere; with a bad key (unknown, or a valid one with a character added) on a few.
          for (const key of core.has(path) ? [undefined, 'not-a-key', `${ctx.keys.admin}x`] : [undefined]) {
            jobs.push(async () => {
              const reached = routedTo(ctx, method, path);
              const w: Wire = { method, path, headers: key === undefined ? {} : { 'x-api-key': key }, body: null };
              const a = await send(ctx, w);
              const what = `${method} ${path}${key === undefined ? ' (no key)' : ' (bad key)'} → ${a.status} ${short(a.text, 120)}${a.error ? ` [${a.error}]` : ''}`;
              if (reached && isProtected(reached) && a.status !== 401) violations.push(`routed to ${keyOf(reached)}, expected 401: ${what}`);
              if (!reached && a.status !== 404) violations.push(`not routed, expected 404: ${what}`);
            });
          }
        }
      }
      for (let i = 0; i < jobs.length; i += 8) await Promise.all(jobs.slice(i, i + 8).map((job) => job()));
    }
    if (violations.length > 0) findings.push(`[deterministic path variants] ${violations.length} violations:\n${violations.slice(0, 40).join('\n')}`);
    // And generated mutations of them.
    const arb = fc.array(
      fc.record({
        route: fc.constantFrom(...protectedRoutes),
        muts: fc.array(pathMutArb(true), { minLength: 1, maxLength: 4 }),
        user: fc.constantFrom<User>('none', 'bogus'),
        bogus: BOGUS,
        head: fc.boolean(),
        query: fc.option(fc.constant<QPart[]>([{ n: 'x', v: '1', e: 'pct' }])),
      }),
      { minLength: 4, maxLength: 8 },
    );
    await check(findings, `${backend} no-key path mutations`, arb, async (items) => {
      const all = await Promise.all(
        items.map(async (item) => {
          const spec: ReqSpec = {
            user: item.user,
            bogus: item.bogus,
            method: item.head && item.route.method === 'GET' ? 'HEAD' : item.route.method,
            path: { params: [], muts: item.muts },
            query: item.query,
            body: null,
            acceptEncoding: null,
            idempotencyKey: null,
          };
          const { wire, reached } = await materialise(ctx, item.route, spec);
          const a = await send(ctx, wire);
          const v = judge(ctx, item.user, wire, reached, a);
          if (!reached && a.status > 0 && a.status !== 404 && a.status !== 400 && a.status !== 414 && a.status !== 431) {
            v.push(`not routed, expected 404: ${describeWire(wire, item.user)} → ${a.status} ${short(a.text)}`);
          }
          return v;
        }),
      );
      const v = all.flat();
      if (v.length > 0) throw new Error(v.slice(0, 4).join('\n'));
    }, runs(60));
    const sick = await healthy(ctx);
    if (sick) findings.push(sick);
    expect(findings, findings.join('\n\n')).toEqual([]);
  }, 300_000);

  it('the investor never gets a 2xx from a write route (nor from the rebates), well-formed body or not', async () => {
    const findings: string[] = [];
    const gated = ctx.routes.filter((r) => INVESTOR_FORBIDDEN.has(keyOf(r)));
    for (const route of gated) {
      const key = keyOf(route);
      const fields = BODY_FIELDS[key] ?? [];
      const valid: Record<string, fc.Arbitrary<unknown>> = {};
      for (const f of fields) valid[f] = bodyValueFor(f, ctx.domain);
      const item = fc.record({
        // Only variants the router still sends to the route: letters percent-encoded.
        muts: fc.array(fc.record({ m: fc.constant('encode' as const), at: fc.nat(), upper: fc.boolean() }), { maxLength: 3 }),
        wellFormed: fc.boolean(),
        validBody: fc.record(valid),
        other: bodyArb(key, ctx.domain, route.method === 'GET'),
        query: queryArb(QUERY_PARAMS[key] ?? [], ctx.domain, 3),
        idempotencyKey: fc.option(fc.uuid()),
      });
      await check(findings, `${backend} investor ${key}`, fc.array(item, { minLength: 4, maxLength: 8 }), async (items) => {
        const all = await Promise.all(
          items.map(async (item) => {
            // Well-formed: what the route's schema accepts (a valid body, or the required query), so only
            // the permission stands between the investor and the route.
            const wellFormedBody: BodySpec | null = fields.length > 0 ? { k: 'json', v: item.validBody, ct: 'application/json' } : null;
            const spec: ReqSpec = {
              user: 'investor',
              bogus: { kind: 'long' },
              method: route.method,
              path: { params: item.wellFormed ? (WELL_FORMED_PARAMS[key] ?? []) : [], muts: item.muts },
              query: item.wellFormed ? (WELL_FORMED_QUERY[key] ?? null) : item.query,
              body: item.wellFormed ? wellFormedBody : item.other,
              acceptEncoding: null,
              idempotencyKey: item.idempotencyKey,
            };
            const { wire, reached } = await materialise(ctx, route, spec);
            const a = await send(ctx, wire);
            const v = judge(ctx, 'investor', wire, reached, a);
            if (reached !== undefined && a.status >= 200 && a.status < 300) v.push(`investor got ${a.status}: ${describeWire(wire, 'investor')}`);
            if (item.wellFormed && reached !== undefined && a.status !== 403) {
              v.push(`a well-formed request by the investor answered ${a.status}, not 403: ${describeWire(wire, 'investor')} → ${short(a.text)}`);
            }
            return v;
          }),
        );
        const v = all.flat();
        if (v.length > 0) throw new Error(v.slice(0, 4).join('\n'));
      }, runs(15));
    }
    expect(findings, findings.join('\n\n')).toEqual([]);
  }, 300_000);

  it('sockets with fresh tickets survive generated query strings and garbage frames: bad ones close with 4xxx (or 1002/1007/1009)', async () => {
    const findings: string[] = [];
    for (const route of [0, 1] as const) {
      const names = QUERY_PARAMS[`GET ${WS_ROUTES[route]}`]!.filter((n) => n !== 'token');
      const spec: fc.Arbitrary<WsSpec> = fc.record({
        route: fc.constant(route),
        user: fc.constantFrom('admin', 'investor'),
        ticketMode: fc.oneof(
          { weight: 12, arbitrary: fc.constant('fresh' as const) },
          { weight: 1, arbitrary: fc.constantFrom('twice' as const, 'twiceOther' as const, 'reused' as const) },
        ),
        query: fc.oneof(
          // Valid subscriptions (most of the runs), then generated ones.
          {
            weight: 3,
            arbitrary: fc
              .record({ portfolio: fc.option(fc.constantFrom('Global FX', 'Consolidated Portfolio', 'AMC')), by: fc.constantFrom('broker', 'account') })
              .map(({ portfolio, by }) => [
                ...(portfolio === null ? [] : [{ n: 'portfolio', v: portfolio, e: 'pct' as const }]),
                ...(route === 1 ? [{ n: 'aggregate_by', v: by, e: 'pct' as const }] : []),
              ]),
          },
          { weight: 2, arbitrary: queryArb(names, ctx.domain, 4) },
        ),
        frames: fc.array(frameArb, { maxLength: 5 }),
      });
      await check(findings, `${backend} ticketed socket ${WS_ROUTES[route]}`, fc.array(spec, { minLength: 1, maxLength: 3 }), async (specs) => {
        const v = (await Promise.all(specs.map((s) => runTicketedSocket(ctx, s)))).flat();
        if (v.length > 0) throw new Error(v.slice(0, 4).join('\n'));
      }, runs(40));
      const sick = await healthy(ctx);
      if (sick) findings.push(sick);
    }
    const flood = fc.record({ route: fc.constantFrom(0 as const, 1 as const), n: fc.integer({ min: 1, max: 400 }), protocol: fc.boolean() });
    await check(findings, `${backend} ping floods`, flood, async ({ route, n, protocol }) => {
      const v = await runFlood(ctx, route, n, protocol);
      if (v.length > 0) throw new Error(v.join('\n'));
    }, runs(25), 30_000);
    expect(findings, findings.join('\n\n')).toEqual([]);
  }, 400_000);

  it('socket upgrades without a valid ticket (none, garbage, given twice…) never answer 5xx and never stream', async () => {
    const findings: string[] = [];
    const tokenArb: fc.Arbitrary<BareSpec['token']> = fc.oneof(
      fc.constant({ t: 'none' as const }),
      fc.record({ t: fc.constant('random' as const), s: fc.oneof(fc.string({ unit: 'binary', maxLength: 50 }), fc.base64String({ maxLength: 60 }), fc.constantFrom('\u0000', 'a\u0000b', ' ', '%00')) }),
      fc.record({ t: fc.constant('twice' as const), a: fc.string({ minLength: 1, maxLength: 20 }), b: fc.string({ minLength: 1, maxLength: 20 }) }),
      fc.constant({ t: 'empty' as const }),
      fc.constant({ t: 'long' as const }),
      fc.constant({ t: 'array' as const }),
    );
    const bare = fc.record({
      route: fc.constantFrom(0 as const, 1 as const),
      muts: fc.oneof(fc.constant([] as PathMut[]), fc.array(pathMutArb(false), { minLength: 1, maxLength: 2 })),
      query: queryArb(['portfolio', 'aggregate_by', 'account', 'broker_name'], ctx.domain, 4),
      token: tokenArb,
    });
    await check(findings, `${backend} bare socket upgrades`, fc.array(bare, { minLength: 2, maxLength: 6 }), async (specs) => {
      const v = (await Promise.all(specs.map((s) => runBareSocket(ctx, s)))).flat();
      if (v.length > 0) throw new Error(v.slice(0, 4).join('\n'));
    }, runs(40), 30_000);
    const handshake: fc.Arbitrary<HandshakeSpec> = fc.record({
      target: fc.oneof(
        fc.constantFrom(...ctx.routes.keys()),
        fc.constantFrom(...ctx.routes.flatMap((r, i) => ((WS_ROUTES as readonly string[]).includes(r.url) ? [i] : []))),
      ),
      muts: fc.oneof(fc.constant([] as PathMut[]), fc.array(pathMutArb(false), { minLength: 1, maxLength: 2 })),
      post: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      withKey: fc.boolean(),
      upgradeHeader: fc.constantFrom('websocket', 'WebSocket', 'h2c', 'garbage', ''),
      version: fc.option(fc.constantFrom('13', '8', '', 'abc', '13, 8', '99999999999')),
      key: fc.option(fc.oneof(fc.constant('dGhlIHNhbXBsZSBub25jZQ=='), fc.constantFrom('', 'short', '!!!!'), fc.base64String({ maxLength: 40 }))),
      connection: fc.constantFrom('Upgrade', 'upgrade, keep-alive', 'keep-alive, Upgrade', 'keep-alive', 'close'),
      query: fc.constantFrom('', '?token=x', '?token=a&token=b', '?aggregate_by=broker', '?%', '?token=%00'),
    });
    await check(findings, `${backend} raw handshakes`, fc.array(handshake, { minLength: 2, maxLength: 6 }), async (specs) => {
      const v = (await Promise.all(specs.map((s) => runHandshake(ctx, s, false)))).flat();
      if (v.length > 0) throw new Error(v.slice(0, 4).join('\n'));
    }, runs(20), 30_000);
    // Apart, so that it hides nothing else: a refused upgrade must not leave its connection open.
    const upgradeRequest = handshake.chain((h) =>
      fc.record({
        connection: fc.constantFrom('Upgrade', 'upgrade, keep-alive', 'keep-alive, Upgrade'),
        upgradeHeader: fc.constantFrom('websocket', 'WebSocket', 'h2c', 'garbage'),
      }).map((u) => ({ ...h, ...u })),
    );
    await check(findings, `${backend} refused upgrades close their connection`, fc.array(upgradeRequest, { minLength: 1, maxLength: 4 }), async (specs) => {
      const v = (await Promise.all(specs.map((s) => runHandshake(ctx, s, true)))).flat();
      if (v.length > 0) throw new Error(v.slice(0, 4).join('\n'));
    }, runs(20), 30_000);
    const sick = await healthy(ctx);
    if (sick) findings.push(sick);
    console.info(`[${backend}] sockets: ${JSON.stringify(Object.fromEntries([...wsOutcomes].sort()))}`);
    wsOutcomes.clear();
    expect(findings, findings.join('\n\n')).toEqual([]);
  }, 300_000);

  it('afterwards: HTTP answers, a fresh socket gets a snapshot, no unhandled rejection, the heap is back within 10 %', async () => {
    const problems: string[] = [];
    const sick = await healthy(ctx);
    if (sick) problems.push(sick);
    for (const route of [0, 1] as const) {
      const wrong = await freshSnapshot(ctx, route);
      if (wrong) problems.push(wrong);
    }
    for (const ws of openSockets) ws.terminate();
    await waitFor(() => openSockets.size === 0, 3000);
    await sleep(200);
    const heapAfter = await settledHeap(gc);
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    console.info(`[${backend}] heap before ${mb(heapBefore)}, after ${mb(heapAfter)} (${((heapAfter / heapBefore - 1) * 100).toFixed(1)} %)`);
    expect(problems, problems.join('\n')).toEqual([]);
    expect(processProblems, processProblems.join('\n\n')).toEqual([]);
    expect(heapAfter, `heap ${mb(heapBefore)} → ${mb(heapAfter)}`).toBeLessThanOrEqual(heapBefore * 1.1);
  }, 120_000);
});
