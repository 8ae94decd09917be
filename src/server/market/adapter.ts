import type { Queryable } from '#server/db/database.ts';
import type { AccountRow, BrokerRow } from '#server/db/accounts-repo.ts';
import type { PositionRow } from '#server/db/positions-repo.ts';
import type { EurRates } from '#shared/domain/fx.ts';

export type Side = 'Buy' | 'Sell';
export type InstrumentCategory = 'Forex' | 'Equities';

/** Runs inside the write's own transaction (the audit row). */
export type InTransaction = (tx: Queryable) => Promise<void>;

/**
 * What the rest of the server needs from a broker connection. The simulated market implements it;
 * a MetaTrader, cTrader or FIX bridge implements the same and nothing else changes: app.ts, routes,
 * the live feed and the copy engine only talk to this interface. The adapter hands closed deals, day
 * ends and account thresholds to the ledger, which keeps the books.
 */
export interface BrokerAdapter {
  /** Connects (or resumes from stored state) and starts streaming. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Stops the clock and refuses writes (503) without touching the database: this process lost the
   * right to run the broker connection (its lock's connection died).
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

/** What the rest of the server knows of an instrument: it comes with the adapter's snapshot. */
export interface InstrumentInfo {
  symbol: string;
  category: InstrumentCategory;
  /** Currency the price is quoted in. */
  quote: string;
  /** Units per lot (100,000 for forex, 1 share for equities). */
  contract: number;
  pip: number;
  digits: number;
  exchange: string | null;
}

/** A broker: its terms (spread, latency, commission, IB rebate) and logo. */
export type BrokerInfo = BrokerRow;

/** An account as the broker reports it, with its broker. */
export type LiveAccount = Omit<AccountRow, 'broker_id'> & { broker: BrokerInfo };

/** An open position as the terminal reports it (the positions table holds the same). */
export type LivePosition = PositionRow;

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
