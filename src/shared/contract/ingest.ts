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
export const MAX_DROPPED_PER_BATCH = 50;
/** A batch whose clock is further than this from the server's is answered with `clock_skew_flagged`. */
export const CLOCK_SKEW_LIMIT_S = 60;
/**
 * `sent_at` is epoch milliseconds of this era: from 2000-01-01 to 2099-12-31 (UTC). 0, seconds or
 * microseconds are refused; a clock wrong by years within it is taken and flagged.
 */
export const SENT_AT_MIN_MS = Date.UTC(2000, 0, 1);
export const SENT_AT_MAX_MS = Date.UTC(2100, 0, 1) - 1;
/**
 * How far a broker time (`time`) may be ahead of the server's clock: the broker's clock runs up to
 * 14 hours ahead of UTC (UTC+14), and an hour more for clocks that are off.
 */
export const BROKER_CLOCK_LEAD_S = 15 * 3600;

/** The latest broker time a batch may carry when the server's clock reads `nowMs`. */
export function latestBrokerTime(nowMs: number): number {
  return Math.floor(nowMs / 1000) + BROKER_CLOCK_LEAD_S;
}

const Money = z.number().finite().min(-1e12).max(1e12);
const Price = z.number().finite().min(0).max(1e9);
/** Lots, kept to 4 decimal places: an open position holds at least 0.0001 lot. */
const Volume = z.number().finite().min(0.0001, 'volume must be at least 0.0001 lot').max(1e9);
/**
 * Broker server time as the terminal shows it, in seconds since 1970 (not UTC: see utc_offset_minutes),
 * from 2000-01-01 on: no terminal that speaks this API reported a trade before then, and a time of 0
 * or 1 is a fault of the agent (each day from an account's first deal gets an end-of-day NAV row).
 * The server also refuses one past latestBrokerTime (it needs its clock, so it checks that itself).
 */
export const BROKER_TIME_MIN_S = Date.UTC(2000, 0, 1) / 1000;
const BROKER_TIME = "time must be the broker's clock in seconds since 1970, from 2000-01-01 on";
const BrokerTime = z.number({ error: BROKER_TIME }).int(BROKER_TIME).min(BROKER_TIME_MIN_S, BROKER_TIME).max(32_503_680_000, BROKER_TIME);
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
  /**
   * The terminal is connected to its trade server (MT5 TERMINAL_CONNECTED) and trading is allowed
   * (TERMINAL_TRADE_ALLOWED and ACCOUNT_TRADE_ALLOWED). A position missing from full snapshots is
   * closed by its absence only while both are true (docs/ingest-api.md, 'Closes need evidence');
   * absent: not known, taken as true.
   */
  connected: z.boolean().optional(),
  trade_allowed: z.boolean().optional(),
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
  comment: Text('comment', 64, { allowEmpty: true }).optional(),
  /**
   * A copy: the `master_position_id` of the open command that made it, i.e. the master position's
   * own identifier in its terminal (MT5 POSITION_IDENTIFIER, MT4 ticket). Keep it with the position
   * (the order comment or magic number) and send it in every report of it (docs/copying.md).
   */
  copy_of: Ticket.optional(),
});
export type IngestPosition = z.infer<typeof IngestPosition>;

/**
 * MT5 ENUM_DEAL_TYPE: what a deal is (what each does to the books: src/shared/domain/deal-types.ts,
 * docs/ingest-api.md). 10/11 agent commission is an introducing broker's rebate.
 */
export const DEAL_TYPE = {
  buy: 0,
  sell: 1,
  balance: 2,
  credit: 3,
  charge: 4,
  correction: 5,
  bonus: 6,
  commission: 7,
  commissionDaily: 8,
  commissionMonthly: 9,
  agentDaily: 10,
  agentMonthly: 11,
  interest: 12,
  buyCanceled: 13,
  sellCanceled: 14,
  dividend: 15,
  dividendFranked: 16,
  tax: 17,
} as const;
/** MT5 ENUM_DEAL_ENTRY: in, out, in/out (a reversal), out by (closed by an opposite position). */
export const DealEntryType = z.enum(['in', 'out', 'inout', 'out_by']);
export type DealEntryType = z.infer<typeof DealEntryType>;

export const IngestDeal = z.strictObject({
  ticket: Ticket,
  /** The position the deal belongs to (0 for balance operations). */
  position_id: Ticket,
  order: Ticket.optional(),
  time: BrokerTime,
  type: z.number().int().min(0).max(20),
  entry: DealEntryType,
  /** Empty for balance operations. */
  symbol: Text('symbol', 32, { allowEmpty: true }),
  volume: z.number().finite().min(0).max(1e9),
  price: Price,
  commission: Money,
  fee: Money.default(0),
  swap: Money,
  profit: Money,
  comment: Text('comment', 64, { allowEmpty: true }).optional(),
});
export type IngestDeal = z.infer<typeof IngestDeal>;

export const IngestQuote = z.strictObject({ symbol: Text('symbol', 32), bid: Price, ask: Price });

/** Adds an issue at each later occurrence of a key already seen ("ticket 13 is given twice in …"). */
function refuseDuplicates<T>(
  ctx: z.RefinementCtx,
  items: readonly T[],
  keyOf: (item: T) => string | number,
  path: (index: number) => PropertyKey[],
  what: (item: T) => string,
): void {
  const seen = new Set<string | number>();
  items.forEach((item, i) => {
    const k = keyOf(item);
    if (seen.has(k)) ctx.addIssue({ code: 'custom', path: path(i), message: what(item) });
    seen.add(k);
  });
}

/**
 * What a trade history report states beyond its deals, sent by an agent that replays one (`npm run agent
 * -- replay`) after its deals (docs/statements.md): the balance before the report's first deal, booked
 * as the account's opening balance, and the floating result of the open positions it lists, which with
 * the balance makes the account's equity until a terminal reports it.
 */
export const IngestStatement = z.strictObject({
  /** The balance just before deal `before_ticket` (the report's first, already sent); null when the report does not say. */
  opening: z.strictObject({ before_ticket: Ticket, balance: Money }).nullable(),
  /** Profit + swap + commission of the open positions the report lists (0 without any). */
  floating: Money,
});
export type IngestStatement = z.infer<typeof IngestStatement>;

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
  /** A replayed statement's own figures (after its deals). */
  statement: IngestStatement.optional(),
}).superRefine((account, ctx) => {
  // A batch is one state of the account: one deal per ticket, one position per identifier.
  refuseDuplicates(ctx, account.deals?.items ?? [], (d) => d.ticket, (i) => ['deals', 'items', i, 'ticket'],
    (d) => `ticket ${d.ticket} is given twice in this batch's deals`);
  refuseDuplicates(ctx, account.positions?.open ?? [], (p) => p.identifier, (i) => ['positions', 'open', i, 'identifier'],
    (p) => `identifier ${p.identifier} is given twice in this batch's open positions`);
});
export type IngestAccount = z.infer<typeof IngestAccount>;

const SENT_AT = "sent_at must be the agent's clock in UTC epoch milliseconds (2000 to 2099), e.g. 1795000000000: not 0, seconds or microseconds";

export const IngestBatch = z.strictObject({
  /** The agent's session: a new one (a restart) starts its sequence again and sends a full snapshot. */
  session: Text('session', 64),
  /** 1, 2, 3 … within a session; a gap asks for a resync. */
  seq: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  /** Idempotency: the same batch sent twice is applied once and answered the same. */
  batch_id: z.uuid({ error: 'batch_id must be a UUID' }),
  /** Broker server time − UTC, in minutes (changes with daylight saving). */
  utc_offset_minutes: z.number().int().min(-720).max(840),
  /** The agent's clock (UTC, epoch ms) when it sent the batch: SENT_AT_MIN_MS … SENT_AT_MAX_MS. */
  sent_at: z
    .number({ error: SENT_AT })
    .int(SENT_AT)
    .min(SENT_AT_MIN_MS, SENT_AT)
    .max(SENT_AT_MAX_MS, SENT_AT),
  accounts: z.array(IngestAccount).max(MAX_ACCOUNTS_PER_BATCH),
  /**
   * What the agent left out of this batch because the server refused it before (a 400 naming it): each
   * item once, with the server's words. The server keeps the latest on the agent's status.
   */
  dropped: z
    .array(z.strictObject({ item: Text('item', 100), reason: Text('reason', 500) }))
    .max(MAX_DROPPED_PER_BATCH)
    .optional(),
}).superRefine((batch, ctx) => {
  refuseDuplicates(ctx, batch.accounts, (a) => JSON.stringify([a.login, a.server]), (i) => ['accounts', i],
    (a) => `the account ${a.login} on ${a.server} is given twice in this batch`);
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
  message: Text('message', 500, { allowEmpty: true }).optional(),
  /**
   * An `open` command done: the identifier of the position it opened (MT5 POSITION_IDENTIFIER, MT4
   * ticket). The server links the copy to its master by it, whatever the broker does to its comment.
   */
  identifier: Ticket.optional(),
});
export const CommandParams = z.strictObject({ id: z.uuid({ error: 'id must be a command UUID' }) });
