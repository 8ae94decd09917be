import net from 'node:net';
const N = Number(process.env.N ?? 10000);
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
for (let round = 0; round < 5; round++) {
  const t = process.hrtime.bigint();
  for (const s of conns) s.write(buf);
  const t2 = process.hrtime.bigint();
  let t3;
  if (conns[0]._handle?.writeBuffer) {
    // raw handle write for comparison
  }
  console.log(`round ${round}: ${N} writes in ${(Number(t2 - t) / 1e6).toFixed(1)} ms = ${(Number(t2 - t) / N / 1000).toFixed(2)} µs each`);
  await new Promise((r) => setTimeout(r, 300));
}
process.exit(0);
