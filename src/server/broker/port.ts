import type { EurRates } from '#shared/domain/fx.ts';
import type { InstrumentSpec } from '#shared/domain/instruments.ts';
import type { Market } from '#shared/domain/market.ts';
import type { Side } from '#shared/domain/side.ts';

/**
 * The broker port: what the rest of the server needs from a broker connection, in the core's own
 * vocabulary. Adapters (src/server/broker/<name>/) implement it; the repositories map their rows
 * to these types at their edge. Nothing here knows of the database (docs/architecture.md).
 */

declare const writeContextBrand: unique symbol;
/**
 * The write an order is part of, opaque to the port: the ledger and the database layer know what
 * it is (src/server/db/write-context.ts) and write their rows in it.
 */
export interface WriteContext {
  readonly [writeContextBrand]: true;
}

/** Runs inside the write's own transaction (the audit row). */
export type InTransaction = (ctx: WriteContext) => Promise<void>;

/**
 * What the rest of the server needs from a broker connection. The simulated market implements it;
 * a MetaTrader, cTrader or FIX bridge implements the same and nothing else changes: app.ts, routes,
 * the live feed and the copy engine only talk to this interface. The adapter hands closed deals, day
 * ends and account thresholds to the ledger, which keeps the books. Writes refused for a reason the
 * user should hear throw the domain errors of ./errors.ts.
 */
export interface BrokerAdapter {
  /** Connects (or resumes from stored state) and starts streaming. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Stops the clock and refuses writes (MarketPaused) without touching the database: this process
   * lost the right to run the broker connection (its lock's connection died).
   */
  pause(): void;
  /** The right is back: reload from the database (the truth) and run again. */
  resume(): Promise<void>;
  /** The latest state: instruments, rates, quotes, accounts and open positions. */
  snapshot(): MarketSnapshot;
  /** Called after every change of the books (about once a second). */
  onUpdate(listener: (snapshot: MarketSnapshot) => void): () => void;
  /**
   * Trades as the terminals report them (opened, closed). Listeners run inside the adapter's step
   * and may place orders from there (the copy engine copies a master's trade at once).
   */
  onTrade(listener: (event: TradeEvent) => Promise<void>): () => void;
  /** Opens a position at the market (a copy of a master's trade); it shows in a later snapshot. */
  open(order: OpenOrder): Promise<void>;
  /** Sets take profit and stop loss on positions; returns how many changed. */
  modifyStops(
    positionIds: readonly number[],
    takeProfit: number | null,
    stopLoss: number | null,
    inTx?: InTransaction,
  ): Promise<number>;
  /** Closes positions at the market; returns how many closed. */
  close(positionIds: readonly number[], inTx?: InTransaction): Promise<number>;
  /** Ticks run since start (for /metrics). */
  readonly ticks: number;
}

/**
 * The market every instance of the server sees: the adapters where this process leads, else the
 * snapshots the leader publishes (src/server/scale/cluster-market.ts). `isLeader`: this process runs
 * the adapters and the copy engine.
 */
export interface SharedMarket extends BrokerAdapter {
  readonly isLeader: boolean;
}

export interface OpenOrder {
  accountId: number;
  symbol: string;
  type: Side;
  quantity: number;
  /** The master position this order copies. */
  masterPositionId: number | null;
  /** epoch seconds the master's trade opened (a copy is dated like its master's fill). */
  openedAt?: number;
  sl?: number | null;
  tp?: number | null;
}

export type TradeEvent =
  | { kind: 'opened'; position: LivePosition; account: LiveAccount }
  | { kind: 'closed'; positions: readonly LivePosition[] };

/**
 * What the rest of the server knows of an instrument: the classifier's figures (market, quote
 * currency, contract size, pip, digits: src/shared/domain/instruments.ts) and the exchange it trades
 * on. It comes with the adapter's snapshot.
 */
export interface InstrumentInfo extends Pick<InstrumentSpec, 'symbol' | 'category' | 'quote' | 'contract' | 'pip' | 'digits'> {
  exchange: string | null;
}

/** A broker: its terms (spread, latency, commission, IB rebate) and logo. */
export interface BrokerInfo {
  id: number;
  broker_name: string;
  img_path: string;
  spread_pips: number;
  latency_ms: number;
  commission_per_lot: number;
  rebate_per_lot: number;
}

/** An account as the broker reports it, with its broker. */
export interface LiveAccount {
  id: number;
  account_id: string;
  account: string;
  account_name: string;
  broker: BrokerInfo;
  server: string;
  server_name: string;
  teiko_category: string;
  currency: string;
  /** A master unless it follows one: read from its copy relation (docs/copying.md). */
  is_master: boolean;
  /** The account it copies now (its active copy relation); null for a master. */
  master_id: number | null;
  leverage: number;
  balance: number;
  equity: number;
  margin: number;
  ping: number;
  /** epoch seconds */
  last_update: number;
}

/** An open position as the terminal reports it. */
export interface LivePosition {
  id: number;
  account_id: number;
  /** The master position this one copies (null for a master's own trade). */
  master_position_id: number | null;
  symbol: string;
  type: Side;
  category: Market;
  quantity: number;
  price_open: number;
  price_current: number;
  price_low: number;
  price_high: number;
  sl: number | null;
  tp: number | null;
  /** account currency */
  profit: number;
  swap: number;
  commission: number;
  fee: number;
  exec_duration_ms: number;
  /** epoch seconds */
  opened_at: number;
  /**
   * epoch seconds: the day a broker statement marked it, for a position known from statements only
   * (its figures are that day's, not live); absent for a live one.
   */
  as_of?: number;
  /**
   * epoch seconds since its terminal's full snapshots have left it out without a closing deal: it is
   * kept with its last figures, unconfirmed, until a closing deal or a long enough absence confirms
   * its close (docs/ingest-api.md, 'Closes need evidence'); absent while it is reported.
   */
  unconfirmed_since?: number;
}

export interface MarketSnapshot {
  /** epoch ms of the tick */
  at: number;
  seq: number;
  instruments: ReadonlyMap<string, InstrumentInfo>;
  /** One unit of each currency in EUR. */
  rates: EurRates;
  mids: ReadonlyMap<string, number>;
  accounts: ReadonlyMap<number, LiveAccount>;
  positions: readonly LivePosition[];
}

/** How an account's broker connection is doing, as its adapter tells (bridge health). */
export interface AccountContact {
  /** How it is fed: the simulated market, a terminal that reports live, or the broker's statements. */
  feed: 'simulated' | 'terminal' | 'statement';
  /** epoch seconds the broker was last heard from for it; null: never (absent for a simulated feed). */
  lastSeen?: number | null;
}
