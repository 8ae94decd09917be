import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FanoutWriters, PARALLEL_FROM } from './fanout-writers.ts';

/** `count` loopback connections: the server's ends (written to) and what each client end has read. */
async function connections(count: number) {
  const server = net.createServer();
  const accepted: net.Socket[] = [];
  server.on('connection', (s) => accepted.push(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  const clients: { socket: net.Socket; chunks: Buffer[] }[] = [];
  for (let i = 0; i < count; i += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, count - i) }, () => new Promise<void>((resolve) => {
        const c = { socket: net.connect(port, '127.0.0.1', resolve), chunks: [] as Buffer[] };
        c.socket.on('data', (d: Buffer) => c.chunks.push(d));
        clients.push(c);
      })),
    );
  }
  while (accepted.length < count) await new Promise((r) => setTimeout(r, 5));
  // The i-th client is the i-th accepted socket's peer: match them by port.
  const byPort = new Map(accepted.map((s) => [s.remotePort, s]));
  const ends = clients.map((c) => byPort.get(c.socket.localPort)!);
  return {
    ends,
    clients,
    read: (i: number) => Buffer.concat(clients[i]!.chunks),
    close: async () => {
      for (const c of clients) c.socket.destroy();
      for (const s of accepted) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

const until = async (test: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error('not in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('fan-out writer threads', () => {
  const writers = new FanoutWriters(1);
  let conns: Awaited<ReturnType<typeof connections>>;

  beforeAll(async () => {
    conns = await connections(PARALLEL_FROM + 44);
  });
  afterAll(async () => {
    await writers.close();
    await conns.close();
  });

  it('deliver every socket its frame, whole and in order, over several broadcasts', async () => {
    const frames = [Buffer.from('first frame|'), Buffer.from('second, longer frame|'), Buffer.from('third|')];
    for (const [round, frame] of frames.entries()) {
      // Two frames in a round: each socket gets one of them, by its index.
      const other = Buffer.from(`other ${round}|`);
      const sent = writers.write(conns.ends.map((socket, i) => ({ socket, frame: i % 3 === 0 ? other : frame })));
      expect(sent.every(Boolean)).toBe(true);
    }
    const expected = (i: number) => frames.map((f, round) => (i % 3 === 0 ? `other ${round}|` : f.toString())).join('');
    await until(() => conns.ends.every((_, i) => conns.read(i).length === expected(i).length));
    for (let i = 0; i < conns.ends.length; i++) expect(conns.read(i).toString()).toBe(expected(i));
  });

  it('a peer that does not read: every frame reported sent arrives whole and in order, and no other byte', async () => {
    const stalled = conns.clients[7]!.socket;
    stalled.pause();
    const before = conns.read(7).length;
    const frame = Buffer.alloc(64 * 1024, 'x');
    frame.write('<', 0);
    frame.write('>', frame.length - 1);
    let sentFrames = 0;
    let rounds = 0;
    // Writes until this socket's buffers are full: the kernel's (a refusal, or a write taken in part,
    // whose rest Node then holds), then Node's past 1 MB, where the hub stops writing to a socket.
    while (conns.ends[7]!.writableLength < 1 << 20 && rounds < 400) {
      const sent = writers.write(conns.ends.map((socket, i) => ({ socket, frame: i === 7 ? frame : Buffer.from('.') })));
      if (sent[7]) sentFrames++;
      rounds++;
    }
    expect(rounds).toBeLessThan(400);
    stalled.resume();
    await until(() => conns.read(7).length - before === sentFrames * frame.length, 20_000);
    const text = conns.read(7).subarray(before).toString('latin1');
    // Only whole frames, one after the other.
    expect(text).toMatch(/^(<x*>)+$/);
    expect(text.split('><').length).toBe(sentFrames);
  });
});
