import { z } from 'zod';
import { Text } from './fields.ts';

/**
 * Ingest API v1: what a terminal agent (an Expert Advisor in MetaTrader, a cTrader cBot, a script
 * beside a FIX session) pushes, and what it is told back. Field names follow MetaTrader 5's own
 * (deal `entry`, `position_id`, position `identifier`), so an agent maps them one to one.
 */

/** Header carrying an agent's key (issued by `npm run admin -- agent create`). */
export const AGENT_KEY_HEADER = 'x-agent-key';
export const MAX_DEALS_PER_BATCH = 500;
export const MAX_POSITIONS_PER_BATCH = 500;
export const MAX_ACCOUNTS_PER_BATCH = 20;
export const MAX_QUOTES_PER_BATCH = 500;
/** A batch whose clock is further than this from the server's is answered with `clock_skew_flagged`. */
export const CLOCK_SKEW_LIMIT_S = 60;

const Money = z.number().finite().min(-1e12).max(1e12);
const Price = z.number().finite().min(0).max(1e9);
const Volume = z.number().finite().positive().max(1e9);
/** Broker server time as the terminal shows it, in seconds since 1970 (not UTC: see utc_offset_minutes). */
const BrokerTime = z.number().int().min(0).max(32_503_680_000);
const Ticket = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** MetaTrader gives 0 for a stop loss or take profit that is not set. */
const Stop = Price;

export const IngestAccountState = z.strictObject({
  balance: Money,
  equity: Money,
  margin: Money.min(0),
  free_margin: Money,
  leverage: z.number().int().min(1).max(10_000),
  currency: z.string().regex(/^[A-Z]{3}$/, 'currency must be a 3-letter ISO code'),
});
export type IngestAccountState = z.infer<typeof IngestAccountState>;

export const IngestPosition = z.strictObject({
  /** Never changes for the life of the position (MT5 POSITION_IDENTIFIER). */
  identifier: Ticket,
  /** May change (MT5 POSITION_TICKET). */
  ticket: Ticket.optional(),
  /** As the broker names it, suffix included (EURUSD.m): mapped to the canonical symbol. */
  symbol: Text('symbol', 32),
  type: z.enum(['buy', 'sell']),
  volume: Volume,
  price_open: Price,
  price_current: Price,
  sl: Stop,
  tp: Stop,
  profit: Money,
  swap: Money,
  commission: Money.optional(),
  time: BrokerTime,
  comment: z.string().max(64).optional(),
  /**
   * A copy: the `master_position_id` of the open command that made it, i.e. the master position's
   * own identifier in its terminal (MT5 POSITION_IDENTIFIER, MT4 ticket). Keep it with the position
   * (the order comment or magic number) and send it in every report of it (docs/copying.md).
   */
  copy_of: Ticket.optional(),
});
export type IngestPosition = z.infer<typeof IngestPosition>;

/** MT5 ENUM_DEAL_TYPE: 0 buy, 1 sell, 2 balance, ..., 10/11 agent commission (an IB rebate). */
export const DEAL_TYPE = { buy: 0, sell: 1, balance: 2, credit: 3, charge: 4, correction: 5, bonus: 6, agentDaily: 10, agentMonthly: 11 } as const;
/** MT5 ENUM_DEAL_ENTRY: in, out, in/out (a reversal), out by (closed by an opposite position). */
export const DealEntryType = z.enum(['in', 'out', 'inout', 'out_by']);

export const IngestDeal = z.strictObject({
  ticket: Ticket,
  /** The position the deal belongs to (0 for balance operations). */
  position_id: Ticket,
  order: Ticket.optional(),
  time: BrokerTime,
  type: z.number().int().min(0).max(20),
  entry: DealEntryType,
  symbol: z.string().max(32),
  volume: z.number().finite().min(0).max(1e9),
  price: Price,
  commission: Money,
  fee: Money.default(0),
  swap: Money,
  profit: Money,
  comment: z.string().max(64).optional(),
});
export type IngestDeal = z.infer<typeof IngestDeal>;

export const IngestQuote = z.strictObject({ symbol: Text('symbol', 32), bid: Price, ask: Price });

export const IngestAccount = z.strictObject({
  /** The account's login and server, as registered by an operator. */
  login: Text('login', 32),
  server: Text('server', 64),
  state: IngestAccountState.optional(),
  positions: z
    .strictObject({
      /** true: every open position of the account (any other is closed); false: only these changed. */
      full: z.boolean(),
      open: z.array(IngestPosition).max(MAX_POSITIONS_PER_BATCH),
      /** Identifiers of positions closed since the last batch (changes only). */
      closed: z.array(Ticket).max(MAX_POSITIONS_PER_BATCH).default([]),
    })
    .optional(),
  deals: z
    .strictObject({
      items: z.array(IngestDeal).max(MAX_DEALS_PER_BATCH),
      /** Tickets the broker deleted. */
      deleted: z.array(Ticket).max(MAX_DEALS_PER_BATCH).default([]),
    })
    .optional(),
  quotes: z.array(IngestQuote).max(MAX_QUOTES_PER_BATCH).optional(),
});
export type IngestAccount = z.infer<typeof IngestAccount>;

export const IngestBatch = z.strictObject({
  /** The agent's session: a new one (a restart) starts its sequence again and sends a full snapshot. */
  session: Text('session', 64),
  /** 1, 2, 3 … within a session; a gap asks for a resync. */
  seq: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  /** Idempotency: the same batch sent twice is applied once and answered the same. */
  batch_id: z.uuid({ error: 'batch_id must be a UUID' }),
  /** Broker server time − UTC, in minutes (changes with daylight saving). */
  utc_offset_minutes: z.number().int().min(-720).max(840),
  /** The agent's clock (UTC, epoch ms) when it sent the batch. */
  sent_at: z.number().int().min(0),
  accounts: z.array(IngestAccount).max(MAX_ACCOUNTS_PER_BATCH),
});
export type IngestBatch = z.infer<typeof IngestBatch>;

export const IngestAnswer = z.object({
  /** The last sequence number applied. */
  ack: z.number().int(),
  /** Send a full snapshot (state, every open position, deals from history_from) in the next batch. */
  resync: z.boolean(),
  /** Per account: resume deal history from this UTC time (epoch seconds), the last deal stored. */
  history_from: z.record(z.string(), z.number().int().nullable()),
  /** Server clock − agent clock, seconds; flagged past CLOCK_SKEW_LIMIT_S. */
  clock_skew_s: z.number(),
  clock_skew_flagged: z.boolean(),
  /** What the batch changed. */
  applied: z.object({ positions: z.number().int(), deals: z.number().int(), deleted: z.number().int() }),
});
export type IngestAnswer = z.infer<typeof IngestAnswer>;

/** GET /api/ingest/v1/commands?wait=25: waits up to `wait` seconds for commands. */
export const CommandsQuery = z.strictObject({
  wait: z.coerce.number({ error: 'wait must be a number of seconds' }).int().min(0).max(30).default(25),
});

/** A command to a terminal: run it once, then answer it (POST /api/ingest/v1/commands/{id}). */
export const AgentCommand = z.object({
  id: z.uuid(),
  login: z.string(),
  server: z.string(),
  kind: z.enum(['modify', 'close', 'open']),
  /**
   * modify: identifier, sl, tp (0 = none); close: identifier, volume; open (a copy): symbol, type,
   * volume, sl, tp, master_position_id (the master position's identifier in its terminal: report it
   * back as the copy's `copy_of`), master_login, master_server. Each also repeats expires_at.
   */
  payload: z.record(z.string(), z.unknown()),
  /** UTC epoch ms: a command not run by then is answered 'expired' and never run. */
  expires_at: z.number().int(),
});
export const CommandsResponse = z.object({ commands: z.array(AgentCommand) });

export const CommandAnswer = z.strictObject({
  state: z.enum(['done', 'rejected', 'not_found', 'expired']),
  /** The terminal's own words (its error for a refusal). */
  message: z.string().max(500).optional(),
});
export const CommandParams = z.strictObject({ id: z.uuid({ error: 'id must be a command UUID' }) });
