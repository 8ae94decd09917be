/**
 * The live fan-out (issue 19): one payload per feed, written to every socket of the feed as a text
 * frame; a socket that cannot keep up skips snapshots; /metrics tells how long the writes took.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { BACKENDS, http, login, simulatorOf, startServer, type TestServer } from './helpers/server.ts';
import { connect, ticket, type LiveClient } from './helpers/ws.ts';

type Snapshot = { type: string; timestamp: number; positionsAggregate: unknown[] };

/** The raw frames a client receives after this point: their text and whether they were binary. */
function frames(client: LiveClient): { text: string; binary: boolean }[] {
  const list: { text: string; binary: boolean }[] = [];
  client.socket.on('message', (data: Buffer, isBinary: boolean) => list.push({ text: data.toString('utf8'), binary: isBinary }));
  return list;
}

/** A stand-in for a socket, to see what the hub writes to it and to make it look slow. */
function fakeSocket(bufferedAmount: number) {
  const sent: { data: unknown; options: unknown }[] = [];
  let onClose = () => {};
  const socket = {
    OPEN: 1,
    readyState: 1,
    bufferedAmount,
    send(data: unknown, options?: unknown) {
      sent.push({ data, options });
    },
    on(event: string, listener: () => void) {
      if (event === 'close') onClose = listener;
    },
  };
  return { socket: socket as unknown as WebSocket, sent, close: () => onClose() };
}

const sample = (text: string, name: string, quantile: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{quantile="${quantile}"} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
};

describe.each(BACKENDS)('live fan-out (%s)', (backend) => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startServer(backend);
    admin = await login(server, 'admin');
  });
  afterAll(async () => {
    await server.close();
  });

  const open = async (path: string, query: Record<string, string>) => {
    const client = await connect(server, path, { token: await ticket(server, admin), ...query });
    if (!client.messages.length) await client.next();
    return client;
  };

  it('writes each feed’s snapshot to all its sockets as one text frame, the same a socket joining then gets', async () => {
    const feeds = [
      ['/ws/brokers/live-positions-aggregate', { portfolio: 'Consolidated Portfolio' }],
      ['/ws/brokers/live-positions-aggregate', { portfolio: 'AMC' }],
      ['/ws/brokers/live-positions-aggregate-by', { portfolio: 'Consolidated Portfolio', aggregate_by: 'broker' }],
    ] as const;
    const groups = await Promise.all(feeds.map(([path, query]) => Promise.all(Array.from({ length: 3 }, () => open(path, query)))));
    const initial = (groups[0]![0]!.messages[0] as Snapshot).timestamp;
    const received = groups.map((clients) => clients.map(frames));
    const next = groups.flat().map((c) => c.next());
    const before = server.app.hub.computed;
    await simulatorOf(server.app).tick();
    await Promise.all(next);
    expect(server.app.hub.computed - before).toBe(feeds.length);

    for (const [i, [path, query]] of feeds.entries()) {
      const lists = received[i]!;
      for (const list of lists) expect(list).toHaveLength(1);
      const [first] = lists.map((list) => list[0]!);
      expect(first!.binary).toBe(false);
      expect(new Set(lists.map((list) => list[0]!.text)).size).toBe(1);
      const snapshot = JSON.parse(first!.text) as Snapshot;
      expect(snapshot.type).toBe('snapshot');
      expect(snapshot.timestamp).toBeGreaterThan(initial);
      expect(snapshot.positionsAggregate.length).toBeGreaterThan(0);
      // A socket that joins now is sent the same snapshot, serialised on its own.
      const late = await open(path, query);
      expect(JSON.stringify(late.messages[0])).toBe(first!.text);
      late.socket.close();
    }
    // The feeds differ: a portfolio's rows are not the consolidated ones.
    expect(received[1]![0]![0]!.text).not.toBe(received[0]![0]![0]!.text);
    for (const c of groups.flat()) c.socket.close();
  });

  it('skips a socket with more than 1 MB unsent and writes the others the shared payload', async () => {
    const hub = server.app.hub;
    const sub = { portfolio: 'SMA', groupBy: 'symbol' } as const;
    const slow = fakeSocket(2 << 20);
    const ready = fakeSocket(0);
    hub.add(slow.socket, sub, server.app.market.snapshot());
    hub.add(ready.socket, sub, server.app.market.snapshot());
    const real = await open('/ws/brokers/live-positions-aggregate', { portfolio: 'SMA' });
    const realFrames = frames(real);
    const next = real.next();
    await simulatorOf(server.app).tick();
    await next;

    expect(slow.sent).toHaveLength(1); // only the snapshot sent when it joined
    expect(ready.sent).toHaveLength(2);
    const { data, options } = ready.sent[1]!;
    expect(Buffer.isBuffer(data)).toBe(true);
    expect(options).toEqual({ binary: false });
    expect((data as Buffer).toString('utf8')).toBe(realFrames[0]!.text);
    slow.close();
    ready.close();
    real.socket.close();
  });

  it('puts the spread of the socket writes of the broadcasts since the last scrape on /metrics', async () => {
    const metrics = async () => (await http<string>(server, 'GET', '/metrics')).body;
    const clients = await Promise.all(Array.from({ length: 3 }, () => open('/ws/brokers/live-positions-aggregate', { portfolio: 'Global FX' })));
    await metrics(); // starts a new window
    const next = clients.map((c) => c.next());
    await simulatorOf(server.app).tick();
    await Promise.all(next);
    const text = await metrics();
    for (const name of ['ws_fanout_spread_seconds', 'ws_fanout_duration_seconds']) {
      for (const q of ['0.5', '0.99', '1']) expect(sample(text, name, q)).toBeGreaterThanOrEqual(0);
    }
    expect(text).toContain('nodejs_eventloop_lag_p99_seconds');
    // Nothing broadcast since: no figures rather than stale ones.
    expect(sample(await metrics(), 'ws_fanout_spread_seconds', '0.99')).toBeUndefined();
    for (const c of clients) c.socket.close();
  });

  type Row = Record<string, unknown>;
  type Message = { type: string; timestamp: number; version?: number; base?: number; length?: number; positionsAggregate?: Row[]; changes?: [number, Row][] };

  /** A client of deltas, as a third-party client would write it from the API description. */
  function follow(client: LiveClient) {
    let rows: Row[] = [];
    let version: number | undefined;
    const shown = new Map<number, Row[]>();
    const take = (m: Message) => {
      if (m.type === 'snapshot') {
        rows = m.positionsAggregate!;
        version = m.version;
      } else if (m.type === 'delta') {
        expect(m.base).toBe(version);
        const next = rows.slice(0, m.length);
        for (const [i, patch] of m.changes!) next[i] = { ...(next[i] ?? {}), ...patch };
        rows = next;
        version = m.version;
      } else return;
      shown.set(m.timestamp, rows);
    };
    for (const m of client.messages) take(m as Message);
    client.socket.on('message', (data: Buffer) => take(JSON.parse(data.toString('utf8')) as Message));
    return shown;
  }


  it('deltas: a versioned snapshot, then what changed; applied, they show what a snapshot socket shows at every tick', async () => {
    const query = { portfolio: 'Consolidated Portfolio', aggregate_by: 'account' };
    const plain = await open('/ws/brokers/live-positions-aggregate-by', query);
    const deltas = await open('/ws/brokers/live-positions-aggregate-by', { ...query, updates: 'delta' });
    const snapshots = new Map<number, Row[]>();
    plain.socket.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString('utf8')) as Message;
      if (m.type === 'snapshot') snapshots.set(m.timestamp, m.positionsAggregate!);
    });
    const shown = follow(deltas);
    const from = deltas.messages.length;
    for (let i = 0; i < 4; i++) {
      const next = [plain.next(), deltas.next()];
      await simulatorOf(server.app).tick();
      await Promise.all(next);
    }
    const kinds = deltas.messages.slice(from).map((m) => (m as Message).type);
    expect(kinds.filter((k) => k === 'delta').length).toBeGreaterThanOrEqual(2);
    const plainBytes = JSON.stringify(plain.messages.at(-1)).length;
    const deltaBytes = JSON.stringify(deltas.messages.at(-1)).length;
    expect(deltaBytes).toBeLessThan(plainBytes / 2);
    let compared = 0;
    for (const [timestamp, rows] of snapshots) {
      if (!shown.has(timestamp)) continue;
      expect(shown.get(timestamp)).toEqual(rows);
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(3);
    plain.socket.close();
    deltas.socket.close();
  });

  it('deltas: a resync is answered with the whole snapshot of the last version, and only snapshots to a socket that did not ask for deltas', async () => {
    const plain = await open('/ws/brokers/live-positions-aggregate', { portfolio: 'SMA' });
    const deltas = await open('/ws/brokers/live-positions-aggregate', { portfolio: 'SMA', updates: 'delta' });
    for (let i = 0; i < 2; i++) {
      const next = [plain.next(), deltas.next()];
      await simulatorOf(server.app).tick();
      await Promise.all(next);
    }
    const last = deltas.messages.at(-1) as Message;
    expect(last.type).toBe('delta');
    const answer = deltas.next();
    deltas.socket.send(JSON.stringify({ type: 'resync' }));
    const full = (await answer) as Message;
    expect(full).toMatchObject({ type: 'snapshot', version: last.version, timestamp: last.timestamp });
    expect(plain.messages.every((m) => (m as Message).type === 'snapshot')).toBe(true);
    plain.socket.close();
    deltas.socket.close();
  });

  it('refuses an unknown updates mode before the upgrade', async () => {
    const res = await http(server, 'GET', `/ws/brokers/live-positions-aggregate?portfolio=SMA&updates=diff`, {});
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain("updates must be 'snapshot' or 'delta'");
  });
});
