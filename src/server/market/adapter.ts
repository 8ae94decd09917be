import type { Queryable } from '#server/db/database.ts';
import type { Side } from './trading.ts';

/** Runs inside the write's own transaction (the audit row). */
export type InTransaction = (tx: Queryable) => Promise<void>;

/**
 * What the rest of the server needs from a broker connection. The simulated market implements it;
 * a MetaTrader, cTrader or FIX bridge would implement the same and nothing else would change:
 * routes and the live feed only talk to this interface.
 */
export interface BrokerAdapter {
  /** Connects (or resumes from stored state) and starts streaming. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The latest state of the books: quotes, accounts and open positions. */
  snapshot(): MarketSnapshot;
  /** Called after every change of the books (about once a second). */
  onUpdate(listener: (snapshot: MarketSnapshot) => void): () => void;
  /** Sets take profit and stop loss on positions; returns how many changed. */
  modifyStops(
    positionIds: readonly number[],
    takeProfit: number | null,
    stopLoss: number | null,
    inTx?: InTransaction,
  ): Promise<number>;
  /** Closes positions at the market; returns how many closed. */
  close(positionIds: readonly number[], inTx?: InTransaction): Promise<number>;
  /** Starts or stops copying masters to followers. */
  setCopying(running: boolean): Promise<void>;
  /** The copy rules changed in the database: reload them. */
  reloadRules(): Promise<void>;
}

export interface BrokerInfo {
  id: number;
  broker_name: string;
  img_path: string;
  spread_pips: number;
  latency_ms: number;
  commission_per_lot: number;
  rebate_per_lot: number;
}

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
  is_master: boolean;
  master_id: number | null;
  copy_ratio: number;
  leverage: number;
  balance: number;
  equity: number;
  margin: number;
  ping: number;
  /** epoch seconds */
  last_update: number;
}

export interface LivePosition {
  id: number;
  account_id: number;
  master_position_id: number | null;
  symbol: string;
  type: Side;
  category: 'Forex' | 'Equities';
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
}

export interface MarketSnapshot {
  /** epoch ms of the tick */
  at: number;
  seq: number;
  mids: ReadonlyMap<string, number>;
  accounts: ReadonlyMap<number, LiveAccount>;
  positions: readonly LivePosition[];
  copying: boolean;
}
