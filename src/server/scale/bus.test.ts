import { afterEach, describe, expect, it } from 'vitest';
import type { MarketSnapshot } from '#server/broker/port.ts';
import { LocalBus, RedisBus, type Bus } from './bus.ts';
import { z } from 'zod';
import { channel, SnapshotPayload } from './channels.ts';

const C = channel('c', z.unknown());
const SNAP = channel('snap', SnapshotPayload);

const REDIS = process.env.TEST_REDIS_URL;
const open: Bus[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((b) => b.close()));
});

const snapshot: MarketSnapshot = {
  at: 1_700_000_000_000,
  seq: 7,
  instruments: new Map([['EURUSD', { symbol: 'EURUSD', category: 'Forex', quote: 'USD', contract: 100_000, pip: 0.0001, digits: 5, exchange: null }]]),
  rates: new Map([['USD', 0.92]]),
  mids: new Map([['EURUSD', 1.0825]]),
  accounts: new Map(),
  positions: [],
};

describe('the bus of one instance', () => {
  it('delivers a message to this instance\'s subscribers, awaited, as the value itself', async () => {
    const bus = new LocalBus();
    const heard: unknown[] = [];
    bus.subscribe(C, async (v) => {
      await new Promise((r) => setTimeout(r, 10));
      heard.push(v);
    });
    const value = { a: 1 };
    await bus.publish(C, value);
    expect(heard).toEqual([value]);
    expect(heard[0]).toBe(value);
  });

  it('does not deliver a message meant only for the other instances', async () => {
    const bus = new LocalBus();
    const heard: unknown[] = [];
    bus.subscribe(C, (v) => void heard.push(v));
    await bus.publish(C, 1, { remoteOnly: true });
    expect(heard).toEqual([]);
  });
});

describe('a snapshot on the wire', () => {
  it('comes back equal, its maps as maps', () => {
    const wire = JSON.parse(JSON.stringify(z.encode(SnapshotPayload, snapshot))) as unknown;
    const back = z.decode(SnapshotPayload, wire as z.input<typeof SnapshotPayload>);
    expect(back).toEqual(snapshot);
    expect(back.rates.get('USD')).toBe(0.92);
  });
});

describe.runIf(REDIS)('the bus of several instances (Redis)', () => {
  const ns = `bus-test-${process.pid}-${Date.now()}`;

  it('delivers to the other instance, decoded, and not back to the sender twice', async () => {
    const a = await RedisBus.connect(REDIS!, ns, () => undefined);
    const b = await RedisBus.connect(REDIS!, ns, () => undefined);
    open.push(a, b);
    const onA: MarketSnapshot[] = [];
    const onB: MarketSnapshot[] = [];
    a.subscribe(SNAP, (s) => void onA.push(s));
    b.subscribe(SNAP, (s) => void onB.push(s));
    await a.publish(SNAP, snapshot);
    await expect.poll(() => onB.length).toBe(1);
    expect(onB[0]).toEqual(snapshot);
    // A heard its own message once, at publish time.
    await new Promise((r) => setTimeout(r, 100));
    expect(onA).toHaveLength(1);
  });

  it('keeps installations apart by namespace', async () => {
    const a = await RedisBus.connect(REDIS!, `${ns}-1`, () => undefined);
    const b = await RedisBus.connect(REDIS!, `${ns}-2`, () => undefined);
    open.push(a, b);
    const heard: unknown[] = [];
    b.subscribe(C, (v) => void heard.push(v));
    await a.publish(C, 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(heard).toEqual([]);
  });

  it('drops a message whose payload fails its channel\'s schema, and reports it', async () => {
    const errors: unknown[] = [];
    const a = await RedisBus.connect(REDIS!, `${ns}-bad`, () => undefined);
    const b = await RedisBus.connect(REDIS!, `${ns}-bad`, (err) => void errors.push(err));
    open.push(a, b);
    const heard: unknown[] = [];
    b.subscribe(SNAP, (s) => void heard.push(s));
    await a.client.publish(`${ns}-bad:bus`, JSON.stringify({ from: a.id, channel: SNAP.name, value: { at: 'soon' } }));
    await expect.poll(() => errors.length).toBe(1);
    expect(String(errors[0])).toMatch(/bus channel 'snap' does not match its schema/);
    expect(heard).toEqual([]);
  });

  it('says clearly when Redis is unreachable', async () => {
    await expect(RedisBus.connect('redis://127.0.0.1:1', ns, () => undefined)).rejects.toThrow(/Redis at redis:\/\/127\.0\.0\.1:1 is unreachable/);
  });
});
