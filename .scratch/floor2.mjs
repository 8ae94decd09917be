import net from 'node:net';
const N = Number(process.env.N ?? 4000);
const server = net.createServer();
const conns = [];
server.on('connection', (s) => { conns.push(s); });
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const port = server.address().port;
const clients = [];
for (let i = 0; i < N; i += 200) {
  await Promise.all(Array.from({ length: Math.min(200, N - i) }, () => new Promise((r) => { const c = net.connect(port, '127.0.0.1', r); c.on('data', () => {}); clients.push(c); })));
}
while (conns.length < N) await new Promise((r) => setTimeout(r, 10));
const buf = Buffer.alloc(1300, 97);
const { WriteWrap } = process.binding('stream_wrap');
for (let round = 0; round < 6; round++) {
  const raw = round % 2 === 1;
  const t = process.hrtime.bigint();
  if (raw) {
    for (const s of conns) { const req = new WriteWrap(); req.handle = s._handle; req.oncomplete = () => {}; req.async = false; s._handle.writeBuffer(req, buf); }
  } else for (const s of conns) s.write(buf);
  const t2 = process.hrtime.bigint();
  console.log(`${raw ? 'handle' : 'stream'} ${N} writes ${(Number(t2 - t) / 1e6).toFixed(1)} ms = ${(Number(t2 - t) / N / 1000).toFixed(2)} µs each`);
  await new Promise((r) => setTimeout(r, 300));
}
process.exit(0);
