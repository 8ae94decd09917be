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
import { capabilitiesOf, type AdapterDeps, type AdapterFactory } from '#server/broker/factory.ts';
import { ADAPTERS } from '#server/broker/registry.ts';
import type { IbkrBroker } from '#server/broker/ibkr/ibkr-broker.ts';
import { activeRelations, insertRelation } from '#server/db/copy-relations-repo.ts';
import { allRules, insertRule } from '#server/db/copy-rules-repo.ts';
import { findAccountRef } from '#server/db/accounts-repo.ts';
import { importFile } from '#server/import/import-file.ts';
import type { StatementFile } from '#shared/statements/readers.ts';
import { insertBroker } from '#server/db/accounts-repo.ts';
import { grantAccount, insertAgent } from '#server/db/agents-repo.ts';
import { openPglite, type Database } from '#server/db/database.ts';
import { migrate } from '#server/db/migrations.ts';
import { insertRegisteredAccount } from '#server/db/registry-repo.ts';
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
  const deps: AdapterDeps = {
    db, ledger, bus: new LocalBus(), config: testConfig('pglite', { demo }), demo, log: silent, seedDemoUsers: async () => {},
    capabilities: capabilitiesOf(ADAPTERS), booksChanged: async () => {},
  };
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
    const { db, ledger, adapter } = await build(factory, true);
    // One of its relations in force, and a pair its master's rule allows.
    const relation = (await activeRelations(db))[0]!;
    const pair = (await allRules(db)).find((r) => r.master_id === relation.masterId)!.allowed_pairs[0]!;
    const harness: ContractHarness = {
      adapter,
      books: { db, ledger },
      copy: {
        db,
        async openMaster() {
          const before = new Set(adapter.snapshot().positions.map((p) => p.id));
          await adapter.open({ accountId: relation.masterId, symbol: pair, type: 'Buy', quantity: 0.1, masterPositionId: null });
          return newIds(adapter, before).find((id) => adapter.snapshot().positions.find((p) => p.id === id)!.account_id === relation.masterId)!;
        },
        async fillAndCloseCopy(master) {
          const copies = adapter.snapshot().positions.filter((p) => p.master_position_id === master).map((p) => p.id);
          expect(copies.length).toBeGreaterThan(0);
          expect(await adapter.close(copies)).toBe(copies.length);
        },
      },
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
    let followerId = 0;
    let agentId = 0;
    const { db, ledger, adapter } = await build(factory, false, async (db) => {
      const broker = await insertBroker(db, { broker_name: 'Pepperstone', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
      accountId = await insertRegisteredAccount(db, { source: 'agent',
        account_id: 'pp-81000001', account: '81000001', account_name: 'Contract', broker_id: broker, server: 'Pepperstone-Demo',
        server_name: 'Pepperstone-Demo', teiko_category: 'global forex', currency: 'EUR', leverage: 100,
      });
      // A follower of it, in force, on a terminal of the same agent; the master's rule allows EURUSD.
      followerId = await insertRegisteredAccount(db, { source: 'agent',
        account_id: 'pp-81000002', account: '81000002', account_name: 'Contract follower', broker_id: broker, server: 'Pepperstone-Demo',
        server_name: 'Pepperstone-Demo', teiko_category: 'global forex', currency: 'EUR', leverage: 100,
      });
      await insertRelation(db, { masterId: accountId, followerId, terms: { sizing: { mode: 'ratio', ratio: 1 }, maxLot: null }, equityStop: null, startedAt: new Date(Date.now() - 60_000) });
      await insertRule(db, { master_id: accountId, market_type: 'Forex', allowed_pairs: ['EURUSD'] });
      agentId = await insertAgent(db, 'agent-contract', hashToken(newToken()));
      await grantAccount(db, agentId, accountId, 'trade');
      await grantAccount(db, agentId, followerId, 'trade');
    });
    const agents = adapter as AgentBroker;
    const ingest = new Ingest(db, ledger, Date.now);
    const session = randomUUID();
    let seq = 0;
    let identifier = 9000;
    let ticket = 50_000;
    const open = new Map<number, number>();
    /** The closing deals of the next report: a terminal reports a close with its out deal. */
    let followerClosing: ReturnType<typeof closeDeal>[] = [];
    let closing: { ticket: number; position_id: number; type: number; entry: 'out'; symbol: string; volume: number; price: number; commission: number; swap: number; profit: number; time: number }[] = [];
    /** The follower's copies, by their identifier: the master identifier each copies. */
    const copies = new Map<number, number>();
    const state = { balance: 10_000, equity: 10_000, margin: 0, free_margin: 10_000, leverage: 100, currency: 'EUR' };
    const position = (ident: number, copyOf?: number) => ({
      identifier: ident, symbol: 'EURUSD', type: 'buy', volume: 0.1, price_open: 1.08, price_current: 1.08, sl: 0, tp: 0, profit: 0, swap: 0,
      time: Math.floor(Date.now() / 1000), ...(copyOf === undefined ? {} : { copy_of: copyOf }),
    });
    const report = async () => {
      const batch = IngestBatch.parse({
        session, seq: ++seq, batch_id: randomUUID(), utc_offset_minutes: 0, sent_at: Date.now(),
        accounts: [
          {
            login: '81000001', server: 'Pepperstone-Demo', state, positions: { full: true, closed: [], open: [...open.keys()].map((ident) => position(ident)) },
            ...(closing.length ? { deals: { items: closing, deleted: [] } } : {}),
          },
          {
            login: '81000002', server: 'Pepperstone-Demo', state, positions: { full: true, closed: [], open: [...copies].map(([ident, of]) => position(ident, of)) },
            ...(followerClosing.length ? { deals: { items: followerClosing, deleted: [] } } : {}),
          },
        ],
      });
      closing = [];
      followerClosing = [];
      await ingest.apply({ id: agentId, name: 'agent-contract' }, batch);
      await agents.refresh();
    };
    const closeDeal = (ident: number) => ({
      ticket: ++ticket, position_id: ident, type: 1, entry: 'out' as const, symbol: 'EURUSD', volume: 0.1, price: 1.081, commission: 0, swap: 0, profit: 10,
      time: Math.floor(Date.now() / 1000),
    });
    await report();
    const harness: ContractHarness = {
      adapter,
      books: { db, ledger },
      copy: {
        db,
        async openMaster() {
          return harness.openPosition();
        },
        async fillAndCloseCopy(master) {
          // The follower's terminal takes the copy order, reports the copy (copy_of: the master's identifier), then reports it gone.
          const ident = [...open].find(([, id]) => id === master)![0];
          copies.set(ident + 100_000, ident);
          await report();
          expect(adapter.snapshot().positions.some((p) => p.account_id === followerId && p.master_position_id === master)).toBe(true);
          for (const ident of copies.keys()) followerClosing.push(closeDeal(ident));
          copies.clear();
          await report();
        },
      },
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
        for (const [ident, pid] of open) {
          if (pid !== id) continue;
          open.delete(ident);
          closing.push(closeDeal(ident));
        }
        await report();
      },
      dispose: () => db.close(),
    };
    return harness;
  },
  // Interactive Brokers: positions open and close as its statements list them.
  async ibkr(factory) {
    let accountId = 0;
    const { db, ledger, adapter } = await build(factory, false, async (db) => {
      const broker = await insertBroker(db, { broker_name: 'Interactive Brokers', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
      accountId = await insertRegisteredAccount(db, { source: 'ibkr',
        account_id: 'interactive-brokers-U7700001', account: 'U7700001', account_name: 'Contract IB', broker_id: broker, server: 'IBKR',
        server_name: 'IBKR', teiko_category: 'global equity', currency: 'USD', leverage: 1,
      });
    });
    const ib = adapter as IbkrBroker;
    let conid = 400_000;
    const held = new Set<number>();
    // A statement of the account listing what is open at its end, booked as an import books it.
    const statement = async () => {
      const found = await findAccountRef(db, 'U7700001');
      if (!('found' in found)) throw new Error('no account');
      const file: StatementFile = {
        format: 'ibkr-flex', formatName: 'Interactive Brokers Flex statement', warnings: [],
        statements: [{
          accountId: 'U7700001', currency: 'USD', currencyRule: 'AccountInformation@currency', from: null, to: null, events: [], opening: null, floating: 0,
          stated: { balance: 1_000, equity: 1_000, asOf: '2026-11-27' }, nav: [], cash: [], missingRates: [],
          positions: [...held].map((c) => ({
            symbol: `S${c}`, description: 'Contract share', assetClass: 'stock' as const, conid: c, side: 'Buy' as const, quantity: 10, multiplier: 1,
            markPrice: 20, value: 200, costBasis: 190, unrealized: 10, currency: 'USD', rate: 1, reportDate: '2026-11-27',
          })),
        }],
      };
      await importFile({ db, ledger, sources: (s) => capabilitiesOf(ADAPTERS).get(s), booksChanged: (ids) => ib.booked(ids), now: Date.now }, found.found, file, 0, undefined);
    };
    return {
      adapter,
      books: { db, ledger },
      order: order(accountId),
      async openPosition() {
        const before = new Set(adapter.snapshot().positions.map((p) => p.id));
        held.add(++conid);
        await statement();
        await ib.reload();
        const [id] = newIds(adapter, before);
        if (id === undefined) throw new Error('the statement opened nothing');
        return id;
      },
      async closePosition(id) {
        const symbol = adapter.snapshot().positions.find((p) => p.id === id)?.symbol;
        for (const c of held) if (`S${c}` === symbol) held.delete(c);
        await statement();
        await ib.reload();
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
      await insertRegisteredAccount(db, { source: 'agent',
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

/** What each harness gives beyond the port (the fake keeps no books). */
const FEATURES: Record<string, { books: boolean; copy: boolean }> = {
  simulated: { books: true, copy: true },
  agent: { books: true, copy: true },
  ibkr: { books: true, copy: false },
  fake: { books: false, copy: false },
};

for (const factory of UNDER_TEST) {
  const features = { takesOrders: factory.capabilities.orders !== null, ...FEATURES[factory.source]! };
  brokerAdapterContract(factory.source, () => HARNESSES[factory.source]!(factory), features);
}
