/**
 * `npm run agent -- simulate` (scripts/agent.ts): the simulated market's accounts as the terminals of
 * one agent. The simulated market runs in that process (its own embedded database, the same seed) and
 * its accounts are read as their terminals would report them over Ingest API v1: the account state,
 * every open position, the deals closed since the last report (each closed trade as its MT5 in and out
 * deals, cash flows as balance deals) and the quotes. The reference agent's loop
 * (src/agent/reporter.ts) sends them; the server then sees the demo's accounts through the real path.
 */
import type { IngestAccount, IngestDeal } from '#shared/contract/ingest.ts';
import type { Deal } from '#shared/domain/deal.ts';
import { FOREX_PAIRS } from '#shared/domain/pairs.ts';
import { CopyEngine } from '#server/copy/copy-engine.ts';
import { listBrokers, type BrokerRow } from '#server/db/accounts-repo.ts';
import { booksStore } from '#server/db/books-store.ts';
import { activeRelations, type Relation } from '#server/db/copy-relations-repo.ts';
import { openPglite, type Database } from '#server/db/database.ts';
import { dealsAfter } from '#server/db/deals-repo.ts';
import { migrate } from '#server/db/migrations.ts';
import { Ledger } from '#server/ledger/ledger.ts';
import type { LiveAccount } from '#server/broker/port.ts';
import { generateHistory } from './history.ts';
import { createSimulator, type Simulator } from './index.ts';

/** One account's report as its terminal makes it (the reference agent's TerminalReport, src/agent/reporter.ts). */
type Report = Required<Pick<IngestAccount, 'login' | 'server' | 'state' | 'positions' | 'quotes'>> & { deals: IngestDeal[] };

export interface Simulation {
  db: Database;
  market: Simulator;
  brokers: BrokerRow[];
  accounts: LiveAccount[];
  /** Who copies whom in the simulation (its copy relations). */
  relations: Relation[];
  /** How many accounts its terminals hold. */
  readonly accountCount: number;
  /** Every account's report as its terminal would send it, with the deals after `cursor` (a deal id; 0: all). */
  read(cursor: number): Promise<{ reports: Report[]; next: number }>;
  stop(): Promise<void>;
}

/** The simulated market of this seed, with a month of history, running in this process. */
export async function startSimulation(seed: number, tickMs: number): Promise<Simulation> {
  const db = await openPglite(null);
  await migrate(db);
  await generateHistory(db, { seed, now: Date.now(), months: 1 });
  const ledger = new Ledger(booksStore(db));
  const market = createSimulator(db, ledger, { seed, now: Date.now, tickMs, autoTrade: true });
  const copier = new CopyEngine(db, market);
  await copier.start();
  await market.start();
  const accounts = [...market.snapshot().accounts.values()];
  return {
    db,
    market,
    brokers: await listBrokers(db),
    accounts,
    relations: await activeRelations(db),
    accountCount: accounts.length,
    read: (cursor) => reportsOf(db, market, cursor),
    async stop() {
      copier.stop();
      await market.stop();
      await db.close();
    },
  };
}

/** The admin CLI commands that register this simulation's brokers, accounts, copy relations, and its agent. */
export function setupCommands(sim: Simulation, agentName: string): string[] {
  const byId = new Map(sim.accounts.map((a) => [a.id, a]));
  const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  const label = (id: number) => `${byId.get(id)!.account}@${byId.get(id)!.server}`;
  return [
    ...sim.brokers.map((b) => `npm run admin -- broker add ${q(b.broker_name)} --logo ${q(b.img_path)}`),
    ...[...sim.accounts]
      .sort((a, b) => a.id - b.id)
      .map(
        (a) =>
          `npm run admin -- account add --broker ${q(a.broker.broker_name)} --login ${a.account} --server ${a.server} ` +
          `--name ${q(a.account_name)} --currency ${a.currency} --category ${q(a.teiko_category)} --leverage ${a.leverage}`,
      ),
    ...sim.relations.map((r) => {
      const s = r.terms.sizing;
      const sizing = s.mode === 'ratio' ? `--ratio ${s.ratio}` : s.mode === 'equity' ? `--equity ${s.multiplier}` : `--fixed ${s.lot}`;
      return `npm run admin -- copy add --master ${label(r.masterId)} --follower ${label(r.followerId)} ${sizing}`;
    }),
    `npm run admin -- agent create ${agentName} ${sim.accounts.map((a) => `--account ${a.account}@${a.server}:trade`).join(' ')}`,
  ];
}

/** A closed trade as MT5 deals (in, then out, on a position of its own); a cash flow as a balance deal. */
export function asMt5Deals(d: Deal & { id: number }): IngestDeal[] {
  if (d.kind !== 'trade') {
    return [{ ticket: d.id * 2, position_id: 0, time: d.at, type: 2, entry: 'in', symbol: '', volume: 0, price: 0, commission: 0, fee: 0, swap: 0, profit: d.amount }];
  }
  const buy = d.type === 'Buy';
  // The position the trade closed (the identifier its terminal reported it under), else one of its own.
  const common = { position_id: d.positionId ?? d.id, symbol: d.symbol ?? '', volume: d.quantity };
  return [
    { ...common, ticket: d.id * 2, time: d.openedAt ?? d.at, type: buy ? 0 : 1, entry: 'in', price: d.openPrice ?? 0, commission: 0, fee: 0, swap: 0, profit: 0 },
    { ...common, ticket: d.id * 2 + 1, time: d.at, type: buy ? 1 : 0, entry: 'out', price: d.closePrice ?? 0, commission: d.commission, fee: d.fee, swap: d.swap, profit: d.profit },
  ];
}

/** The simulation's accounts as their terminals report them now, with the deals after `cursor`. */
async function reportsOf(db: Database, market: Simulator, cursor: number): Promise<{ reports: Report[]; next: number }> {
  const snap = market.snapshot();
  const quotes = FOREX_PAIRS.flatMap((symbol) => {
    const mid = snap.mids.get(symbol);
    return mid === undefined ? [] : [{ symbol, bid: mid, ask: mid }];
  });
  const deals = await dealsAfter(db, cursor);
  const byAccount = new Map<number, IngestDeal[]>();
  for (const d of deals) byAccount.set(d.accountId, [...(byAccount.get(d.accountId) ?? []), ...asMt5Deals(d)]);
  const reports = [...snap.accounts.values()].map(
    (a): Report => ({
      login: a.account,
      server: a.server,
      state: { balance: a.balance, equity: a.equity, margin: a.margin, free_margin: a.equity - a.margin, leverage: a.leverage, currency: a.currency },
      positions: {
        full: true,
        closed: [],
        open: snap.positions
          .filter((p) => p.account_id === a.id)
          .map((p) => ({
            identifier: p.id, symbol: p.symbol, type: p.type === 'Buy' ? ('buy' as const) : ('sell' as const), volume: p.quantity,
            price_open: p.price_open, price_current: p.price_current, sl: p.sl ?? 0, tp: p.tp ?? 0, profit: p.profit, swap: p.swap,
            commission: p.commission, time: p.opened_at,
            // A copy names its master position by the master's identifier (here, the simulator's id).
            ...(p.master_position_id === null ? {} : { copy_of: p.master_position_id }),
          })),
      },
      quotes,
      deals: byAccount.get(a.id) ?? [],
    }),
  );
  return { reports, next: deals.at(-1)?.id ?? cursor };
}
