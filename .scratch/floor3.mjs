import net from 'node:net';
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
const N = Number(process.env.N ?? 4000);
const server = net.createServer();
const conns = [];
server.on('connection', (s) => { s.setNoDelay(true); conns.push(s); });
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const port = server.address().port;
const clients = [];
for (let i = 0; i < N; i += 200) {
  await Promise.all(Array.from({ length: Math.min(200, N - i) }, () => new Promise((r) => { const c = net.connect(port, '127.0.0.1', r); c.on('data', () => {}); clients.push(c); })));
}
while (conns.length < N) await new Promise((r) => setTimeout(r, 10));
const buf = Buffer.alloc(1300, 97);
const sab = new SharedArrayBuffer(4 * (N + 4));
const ctl = new Int32Array(sab);
const worker = new Worker(`
const { workerData } = require('node:worker_threads'); const fs = require('node:fs');
const ctl = new Int32Array(workerData.sab); const buf = Buffer.from(workerData.frame);
for (;;) { Atomics.wait(ctl, 0, 0); const n = ctl[1];
  for (let i = 0; i < n; i++) { try { fs.writeSync(ctl[4 + i], buf); } catch {} }
  Atomics.store(ctl, 0, 0); Atomics.store(ctl, 2, 1); Atomics.notify(ctl, 2); }
`, { eval: true, workerData: { sab, frame: buf } });
await new Promise((r) => setTimeout(r, 300));
for (let round = 0; round < 8; round++) {
  const par = round % 2 === 1;
  const t = process.hrtime.bigint();
  if (par) {
    const half = conns.length >> 1;
    for (let i = 0; i < half; i++) ctl[4 + i] = conns[half + i]._handle.fd;
    ctl[1] = half; Atomics.store(ctl, 2, 0); Atomics.store(ctl, 0, 1); Atomics.notify(ctl, 0);
    for (let i = 0; i < half; i++) conns[i].write(buf);
    Atomics.wait(ctl, 2, 0);
  } else for (const s of conns) s.write(buf);
  const t2 = process.hrtime.bigint();
  console.log(`${par ? 'two threads' : 'one thread'} ${N} writes ${(Number(t2 - t) / 1e6).toFixed(1)} ms = ${(Number(t2 - t) / N / 1000).toFixed(2)} µs each`);
  await new Promise((r) => setTimeout(r, 300));
}
process.exit(0);
