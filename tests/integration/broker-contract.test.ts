import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { IngestBatch } from '#shared/contract/ingest.ts';
import { hashToken, newToken } from '#server/auth/tokens.ts';
import type { AgentBroker } from '#server/broker/agent/agent-broker.ts';
import type { BrokerAdapter, OpenOrder } from '#server/broker/port.ts';
import { ADAPTERS, type AdapterDeps, type AdapterFactory } from '#server/broker/registry.ts';
import { insertBroker } from '#server/db/accounts-repo.ts';
import { grantAccount, insertAgent } from '#server/db/agents-repo.ts';
import { openPglite, type Database } from '#server/db/database.ts';
import { migrate } from '#server/db/migrations.ts';
import { insertAgentAccount } from '#server/db/registry-repo.ts';
import { Ingest } from '#server/ingest/ingest.ts';
import { booksStore } from '#server/db/books-store.ts';
import { Ledger } from '#server/ledger/ledger.ts';
import { LocalBus } from '#server/scale/bus.ts';
import { brokerAdapterContract, type ContractHarness } from '../contract/broker-adapter.contract.ts';
import { FAKE_ACCOUNT, fakeAdapter } from '../fake-broker/fake-broker.ts';
import { startServer, testConfig } from './helpers/server.ts';

const silent = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child: () => silent } as unknown as FastifyBaseLogger;

/** The adapter of `factory`, built on its own in-memory database (no server around it). */
async function build(factory: AdapterFactory, demo: boolean, before?: (db: Database) => Promise<void>) {
  const db = await openPglite(null);
  await migrate(db);
  await before?.(db);
  const ledger = new Ledger(booksStore(db));
  const deps: AdapterDeps = { db, ledger, bus: new LocalBus(), config: testConfig('pglite', { demo }), demo, log: silent, seedDemoUsers: async () => {} };
  const instance = await factory.create(deps);
  if (!instance) throw new Error(`${factory.source} does not run here`);
  await instance.prepare?.();
  return { db, ledger, adapter: instance.adapter };
}

const newIds = (adapter: BrokerAdapter, before: ReadonlySet<number>) => adapter.snapshot().positions.filter((p) => !before.has(p.id)).map((p) => p.id);
const order = (accountId: number): OpenOrder => ({ accountId, symbol: 'EURUSD', type: 'Buy', quantity: 0.1, masterPositionId: null });

/** How the suite drives each adapter of the registry: a new adapter adds its line here. */
const HARNESSES: Record<string, (factory: AdapterFactory) => Promise<ContractHarness>> = {
  // The simulated market fills orders at once.
  async simulated(factory) {
    const { db, adapter } = await build(factory, true);
    const harness: ContractHarness = {
      adapter,
      get order() {
        return order([...adapter.snapshot().accounts.values()].find((a) => a.is_master)!.id);
      },
      async openPosition() {
        const before = new Set(adapter.snapshot().positions.map((p) => p.id));
        await adapter.open(harness.order);
        const [id] = newIds(adapter, before);
        if (id === undefined) throw new Error('the order opened nothing');
        return id;
      },
      async closePosition(id) {
        expect(await adapter.close([id])).toBe(1);
      },
      dispose: () => db.close(),
    };
    return harness;
  },
  // Terminal agents: positions open and close as the terminal reports them.
  async agent(factory) {
    let accountId = 0;
    let agentId = 0;
    const { db, ledger, adapter } = await build(factory, false, async (db) => {
      const broker = await insertBroker(db, { broker_name: 'Pepperstone', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
      accountId = await insertAgentAccount(db, {
        account_id: 'pp-81000001', account: '81000001', account_name: 'Contract', broker_id: broker, server: 'Pepperstone-Demo',
        server_name: 'Pepperstone-Demo', teiko_category: 'global forex', currency: 'EUR', leverage: 100,
      });
      agentId = await insertAgent(db, 'agent-contract', hashToken(newToken()));
      await grantAccount(db, agentId, accountId, 'trade');
    });
    const agents = adapter as AgentBroker;
    const ingest = new Ingest(db, ledger, Date.now);
    const session = randomUUID();
    let seq = 0;
    let identifier = 9000;
    const open = new Map<number, number>();
    const report = async () => {
      const batch = IngestBatch.parse({
        session, seq: ++seq, batch_id: randomUUID(), utc_offset_minutes: 0, sent_at: Date.now(),
        accounts: [{
          login: '81000001', server: 'Pepperstone-Demo',
          state: { balance: 10_000, equity: 10_000, margin: 0, free_margin: 10_000, leverage: 100, currency: 'EUR' },
          positions: {
            full: true, closed: [],
            open: [...open.keys()].map((ident) => ({
              identifier: ident, symbol: 'EURUSD', type: 'buy', volume: 0.1, price_open: 1.08, price_current: 1.08, sl: 0, tp: 0, profit: 0, swap: 0,
              time: Math.floor(Date.now() / 1000),
            })),
          },
        }],
      });
      await ingest.apply({ id: agentId, name: 'agent-contract' }, batch);
      await agents.refresh();
    };
    await report();
    return {
      adapter,
      order: order(accountId),
      async openPosition() {
        const before = new Set(adapter.snapshot().positions.map((p) => p.id));
        const ident = ++identifier;
        open.set(ident, 0);
        await report();
        const [id] = newIds(adapter, before);
        if (id === undefined) throw new Error('the report opened nothing');
        open.set(ident, id);
        return id;
      },
      async closePosition(id) {
        for (const [ident, pid] of open) if (pid === id) open.delete(ident);
        await report();
      },
      dispose: () => db.close(),
    };
  },
  // The test's fake: in memory.
  async fake(factory) {
    const instance = await factory.create({} as AdapterDeps);
    const adapter = instance!.adapter;
    return {
      adapter,
      order: order(FAKE_ACCOUNT.id),
      async openPosition() {
        const before = new Set(adapter.snapshot().positions.map((p) => p.id));
        await adapter.open(order(FAKE_ACCOUNT.id));
        return newIds(adapter, before)[0]!;
      },
      async closePosition(id) {
        expect(await adapter.close([id])).toBe(1);
      },
      dispose: async () => {},
    };
  },
};

/** Every adapter of the registry, and the fake (registered here only). */
const UNDER_TEST: readonly AdapterFactory[] = [...ADAPTERS, fakeAdapter];

describe('the broker registry', () => {
  it('has a contract harness for every adapter it lists', () => {
    for (const factory of UNDER_TEST) expect(Object.keys(HARNESSES)).toContain(factory.source);
    expect(new Set(UNDER_TEST.map((f) => f.source)).size).toBe(UNDER_TEST.length);
  });

  it('lets buildApp run a fake beside the registry: its accounts and positions in the market, its adapter by source', async () => {
    const server = await startServer('pglite', { demo: false, adapters: UNDER_TEST });
    try {
      const fake = server.app.adapters.get('fake')!;
      expect(fake).toBeDefined();
      expect(server.app.market.snapshot().accounts.get(FAKE_ACCOUNT.id)?.account_name).toBe(FAKE_ACCOUNT.account_name);
      await fake.open(order(FAKE_ACCOUNT.id));
      expect(server.app.market.snapshot().positions.some((p) => p.account_id === FAKE_ACCOUNT.id)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('refuses to start when an account names a source no adapter runs', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctm-contract-'));
    try {
      const first = await startServer('pglite', { demo: false, dataDir });
      const db = first.app.db;
      const broker = await insertBroker(db, { broker_name: 'X', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
      await insertAgentAccount(db, {
        account_id: 'x-1', account: '1', account_name: 'Elsewhere', broker_id: broker, server: 'X', server_name: 'X', teiko_category: 'global forex', currency: 'EUR', leverage: 100,
      });
      await db.query("UPDATE accounts SET source = 'mt4-bridge'");
      await first.close();
      await expect(startServer('pglite', { demo: false, dataDir })).rejects.toThrow(/'mt4-bridge' have no broker adapter/);
      // With an adapter of that source, it starts.
      const second = await startServer('pglite', { demo: false, dataDir, adapters: [...ADAPTERS, { ...fakeAdapter, source: 'mt4-bridge' }] });
      await second.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

for (const factory of UNDER_TEST) brokerAdapterContract(factory.source, () => HARNESSES[factory.source]!(factory));
