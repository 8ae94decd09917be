// npm run bench -- scale: one instance vs two behind the checked-in HAProxy configuration, on
// PostgreSQL and Redis (TEST_DATABASE_URL / DATABASE_URL, TEST_REDIS_URL / REDIS_URL). Each setup
// gets N websockets through the balancer (SCALE_SOCKETS, default 1,000 per instance) and a constant
// request load on accounts/info; it prints snapshots delivered per second, leader tick → client p99,
// request rate, p99 and errors, and the ratio 2 / 1. Targets 127.0.0.1 only, bounded, stops by itself.
import autocannon from 'autocannon';
import WebSocket from 'ws';
import {
  freePort,
  freshSchema,
  startBalancer,
  startInstance,
  stopInstance,
  type Balancer,
  type Instance,
} from '../integration/helpers/cluster.ts';

const DB = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
const PER_INSTANCE = Number(process.env.SCALE_SOCKETS ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

const pct = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin-demo' }) });
  return ((await res.json()) as { data: { api_key: string } }).data.api_key;
}

interface Figures {
  setup: string;
  sockets: number;
  'snapshots/s': number;
  'tick → client p50 ms': number;
  'tick → client p99 ms': number;
  'accounts/info req/s': number;
  'request p99 ms': number;
  errors: number;
}

async function measure(setup: string, lb: Balancer, sockets: number): Promise<Figures> {
  const key = await signIn(lb.url);
  const delays: number[] = [];
  let received = 0;
  let counting = false;
  const clients: WebSocket[] = [];
  // Connected in batches, each with its own single-use ticket, through the balancer.
  for (let i = 0; i < sockets; i += 100) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(100, sockets - i) }, async () => {
        const res = await fetch(`${lb.url}/api/ws-ticket`, { method: 'POST', headers: { 'x-api-key': key } });
        const { ticket } = ((await res.json()) as { data: { ticket: string } }).data;
        return new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(`${lb.url.replace('http', 'ws')}/ws/brokers/live-positions-aggregate?portfolio=Consolidated%20Portfolio&token=${ticket}`);
          ws.on('message', (data: Buffer) => {
            if (!counting) return;
            // The timestamp leads the message: no need to parse the rows.
            const m = /"timestamp":(\d+)/.exec(data.subarray(0, 80).toString());
            if (!m) return;
            received++;
            delays.push(Date.now() - Number(m[1]));
          });
          ws.once('open', () => resolve(ws));
          ws.once('error', reject);
        });
      }),
    );
    clients.push(...batch);
  }
  await new Promise((r) => setTimeout(r, 1500));
  counting = true;
  const load = await autocannon({ url: `${lb.url}/api/brokers/accounts/info`, connections: 10, duration: SECONDS, headers: { 'x-api-key': key } });
  counting = false;
  for (const ws of clients) ws.terminate();
  return {
    setup,
    sockets,
    'snapshots/s': Math.round(received / SECONDS),
    'tick → client p50 ms': pct(delays, 50),
    'tick → client p99 ms': pct(delays, 99),
    'accounts/info req/s': Math.round(load.requests.average),
    'request p99 ms': load.latency.p99,
    errors: load.errors + load.non2xx,
  };
}

export async function benchScale(): Promise<void> {
  if (!DB || !REDIS) {
    console.log('scale: set TEST_DATABASE_URL (or DATABASE_URL) and TEST_REDIS_URL (or REDIS_URL) to run it');
    return;
  }
  const { schema, drop } = await freshSchema('bench_scale');
  const env = { DATABASE_URL: DB, DATABASE_SCHEMA: schema, REDIS_URL: REDIS, DEMO: '1', LOG_LEVEL: 'warn', TRUST_PROXY: 'loopback' };
  const instances: Instance[] = [];
  const rows: Figures[] = [];
  try {
    instances.push(await startInstance({ ...env, LOG_LEVEL: 'info' }, await freePort()));
    let lb = await startBalancer([instances[0]!.port]);
    rows.push(await measure('1 instance', lb, PER_INSTANCE));
    // The same total as the two instances get, on one: what the second instance buys.
    rows.push(await measure('1 instance, 2 N sockets', lb, 2 * PER_INSTANCE));
    await lb.stop();
    instances.push(await startInstance({ ...env, LOG_LEVEL: 'info' }, await freePort()));
    lb = await startBalancer(instances.map((i) => i.port));
    rows.push(await measure('2 instances', lb, 2 * PER_INSTANCE));
    await lb.stop();
  } finally {
    await Promise.all(instances.map((i) => stopInstance(i)));
    await drop();
  }
  const [one, oneDouble, two] = rows as [Figures, Figures, Figures];
  console.table(rows);
  console.table([
    { figure: 'snapshots/s, 2 / 1', value: (two['snapshots/s'] / one['snapshots/s']).toFixed(2) },
    { figure: 'accounts/info req/s, 2 / 1', value: (two['accounts/info req/s'] / one['accounts/info req/s']).toFixed(2) },
    { figure: 'tick → client p99 with 2 N sockets: 1 instance / 2 instances', value: `${oneDouble['tick → client p99 ms']} / ${two['tick → client p99 ms']} ms` },
  ]);
}
