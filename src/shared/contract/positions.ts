import { z } from 'zod';
import { EpochSeconds, Market, Measure, Money, PortfolioParam, Price as QuotedPrice, Side, Text } from './fields.ts';

/**
 * A live position row (docs/product.md#fields), one account's position or an aggregate of several with the same
 * symbol and direction. Amounts (profit) are in `currency`; the `*_currency` figures are in EUR, the
 * reporting currency, so rows of different accounts add up. An aggregate over accounts of different
 * currencies has currency 'EUR'. Prices are in the instrument's quote currency; price_open of an
 * aggregate is the volume-weighted average. MAE/MFE figures are in pips, from the symbol's closed deals.
 * Each field's meaning is in docs/architecture.md ("API decisions").
 */
export const Position = z.object({
  account_name: z.string(),
  account_nameBis: z.string(),
  u_symbol: z.string(),
  type: Side,
  category: Market,
  teiko_category: z.string(),
  time: EpochSeconds,
  price_open: QuotedPrice,
  price_current: QuotedPrice,
  /** Lots. */
  quantity: Measure,
  /** What the lots are worth at the open price, in EUR. */
  quantity_currency: Money,
  profit: Money,
  profit_currency: Money,
  /** The positions' fees in EUR (commission is commission_currency). */
  fee_currency: Money,
  /** Ours: the positions' commission in EUR. */
  commission_currency: Money,
  swap_currency: Money,
  sl: QuotedPrice.nullable(),
  tp: QuotedPrice.nullable(),
  breakeven: QuotedPrice.nullable(),
  breakevenMax: QuotedPrice.nullable(),
  breakevenMin: QuotedPrice.nullable(),
  is_master: z.boolean(),
  equity_market: z.string().nullable(),
  broker_name: z.string(),
  img_path: z.string(),
  server: z.string(),
  server_name: z.string(),
  login: z.string(),
  currency: z.string(),
  exec_duration_ms: Measure.nullable(),
  avgMae: Measure.nullable(),
  medianMae: Measure.nullable(),
  avgMfe: Measure.nullable(),
  medianMfe: Measure.nullable(),
  /** Number of account positions in the row. */
  legs: z.number().int(),
  /**
   * Ours: the day a broker statement marked the row's figures (epoch seconds of that day's start,
   * UTC), for positions known from statements only (an Interactive Brokers account fed by Flex): they
   * are that day's, not live. The oldest of its legs; absent for a live row.
   */
  as_of: EpochSeconds.optional(),
  /**
   * Ours: since when (epoch seconds) its terminal's full snapshots leave a leg out without a closing
   * deal: the row keeps its last figures, unconfirmed, until the close is confirmed or it is reported
   * again (docs/ingest-api.md, 'Closes need evidence'). The earliest of its legs; absent otherwise.
   */
  unconfirmed_since: EpochSeconds.optional(),
});
export type Position = z.infer<typeof Position>;

/** Every websocket snapshot: the feed's rows at `timestamp` (epoch ms); `version` on a feed of deltas (live-delta.ts). */
export const LiveMessage = z.object({
  type: z.literal('snapshot'),
  timestamp: z.number(),
  positionsAggregate: z.array(Position),
  version: z.number().int().nonnegative().optional(),
});
export type LiveMessage = z.infer<typeof LiveMessage>;

const Direction = z.enum(['long', 'short'], { error: () => "direction must be 'long' or 'short'" });
const Currency = z.string().regex(/^[A-Z]{3}$/, 'currency must be a 3-letter ISO code');
const Price = z
  .number({ error: (i) => (i.input === undefined ? 'is required' : 'must be a number') })
  .finite()
  .positive('must be a positive price')
  // Prices are stored as NUMERIC(20,6); no instrument trades anywhere near a billion.
  .max(1_000_000_000, 'must be at most 1000000000');

/** POST /api/positions/set-tp-sl-by-symbol. `portfolio` (ours, optional) narrows the positions touched. */
export const SetTpSlBody = z.strictObject({
  category: Market,
  symbol: Text('symbol', 20),
  direction: Direction,
  currency: Currency,
  take_profit: Price,
  stop_loss: Price,
  portfolio: PortfolioParam.optional(),
});
export type SetTpSlBody = z.infer<typeof SetTpSlBody>;

/** POST /api/positions/close-by-symbol. */
export const CloseBySymbolBody = z.strictObject({
  category: Market,
  symbol: Text('symbol', 20),
  direction: Direction,
  currency: Currency,
  portfolio: PortfolioParam.optional(),
});
export type CloseBySymbolBody = z.infer<typeof CloseBySymbolBody>;

/** Live feed query strings (docs/product.md#calls); `token` is the single-use ticket of POST /api/ws-ticket. */
/** How a feed's socket gets its rows: `snapshot` (all the rows in every message, the default) or `delta` (live-delta.ts). */
export const LiveUpdates = z.enum(['snapshot', 'delta'], { error: () => "updates must be 'snapshot' or 'delta'" });
export type LiveUpdates = z.infer<typeof LiveUpdates>;

export const LiveAggregateQuery = z.strictObject({
  token: Text('token', 200).optional(),
  portfolio: PortfolioParam.optional(),
  updates: LiveUpdates.optional(),
});
export const LiveAggregateByQuery = z.strictObject({
  token: Text('token', 200).optional(),
  portfolio: PortfolioParam.optional(),
  updates: LiveUpdates.optional(),
  aggregate_by: z.enum(['account', 'broker'], { error: () => "aggregate_by must be 'account' or 'broker'" }),
  account: Text('account', 100).optional(),
  broker_name: Text('broker_name', 100).optional(),
});
