import autocannon from 'autocannon';
import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path';
import { startProcess } from '../tests/bench/spawn.ts';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-server-'));
const server = await startProcess(['src/server/main.ts'], { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '1', LOG_LEVEL: 'info', STATIC_DIR: path.resolve('dist') });
const login = await fetch(`${server.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin-demo' }) });
const key = ((await login.json()) as any).data.api_key;
const run = async (url: string, headers = {}) => { const r = await autocannon({ url, connections: 50, duration: 5, headers }); return `${Math.round(r.requests.average)} req/s p50 ${r.latency.p50} p99 ${r.latency.p99} err ${r.errors + r.non2xx}`; };
await run(`${server.url}/manifest.webmanifest`);
for (let i = 0; i < 2; i++) {
  console.log('static', await run(`${server.url}/manifest.webmanifest`));
  console.log('accounts/info', await run(`${server.url}/api/brokers/accounts/info`, { 'x-api-key': key }));
  console.log('bridge/status', await run(`${server.url}/api/bridge/status`, { 'x-api-key': key }));
}
server.child.kill('SIGTERM');
