import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path';
import { startProcess } from '../tests/bench/spawn.ts';
import { benchFanout } from '../tests/bench/fanout.ts';
import { signIn } from '../tests/bench/memory.ts';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-server-'));
const server = await startProcess([...(process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []), 'src/server/main.ts'], { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '1', LOG_LEVEL: 'info', STATIC_DIR: '/nonexistent', ...(process.env.PROF ? { NODE_OPTIONS: '--cpu-prof --cpu-prof-dir=/tmp/prof' } : {}) });
const headers = await signIn(server.url);
const counts = (process.env.COUNTS ?? '1000,10000').split(',').map(Number);
for (const n of counts) {
  const t = Date.now();
  console.log(JSON.stringify(await benchFanout({ url: server.url, pid: server.child.pid! }, headers, n, Number(process.env.SECS ?? 10), (process.env.MODE as any) ?? 'delta')), 'in', Date.now() - t, 'ms');
}
server.child.kill('SIGTERM');
await new Promise((r) => server.child.once('exit', r));
