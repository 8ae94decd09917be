import { z } from 'zod';
import type { InstrumentInfo, LiveAccount, LivePosition, MarketSnapshot } from '#server/broker/port.ts';

/**
 * Every channel of the bus between the instances of an installation, with the schema of its
 * payload (docs/architecture.md, "One wire contract"). Publishing encodes a value through its
 * channel's schema; a message from another instance is decoded through it, and one that fails it
 * is logged and dropped, never handed to a subscriber. Values published on this instance reach its
 * own subscribers as they are.
 */
export interface Channel<T> {
  readonly name: string;
  /** Output: the value subscribers get; input: its form on the wire (JSON). */
  readonly schema: z.ZodType<T>;
}

/** A channel: its name on the bus and its payload's schema. The installation's channels are `channels` below. */
export const channel = <T>(name: string, schema: z.ZodType<T>): Channel<T> => ({ name, schema });

/** A message that says only that something happened. */
const Signal = z.literal(0);

/** A row checked for the fields named in `shape`, typed as the whole row (its other fields pass as they are). */
const rowOf = <T>(shape: z.ZodType) => z.custom<T>((v) => shape.safeParse(v).success);

const Entries = <K extends z.ZodType, V extends z.ZodType>(key: K, value: V) => z.array(z.tuple([key, value]));

/**
 * A snapshot on the wire: its maps as entry lists. The figures and the keys are checked; of the
 * rows (instruments, accounts, positions) the fields the instances join and filter on.
 */
const SnapshotWire = z.object({
  at: z.number(),
  seq: z.number(),
  instruments: Entries(z.string(), rowOf<InstrumentInfo>(z.object({ symbol: z.string(), category: z.string() }))),
  rates: Entries(z.string(), z.number()),
  mids: Entries(z.string(), z.number()),
  accounts: Entries(z.number(), rowOf<LiveAccount>(z.object({ id: z.number(), teiko_category: z.string(), broker: z.object({ broker_name: z.string() }) }))),
  positions: z.array(rowOf<LivePosition>(z.object({ id: z.number(), account_id: z.number(), symbol: z.string() }))),
});

export const SnapshotPayload = z.codec(SnapshotWire, z.custom<MarketSnapshot>(), {
  decode: (w) => ({
    at: w.at,
    seq: w.seq,
    instruments: new Map(w.instruments),
    rates: new Map(w.rates),
    mids: new Map(w.mids),
    accounts: new Map(w.accounts),
    positions: w.positions,
  }),
  encode: (s) => ({
    at: s.at,
    seq: s.seq,
    instruments: [...s.instruments],
    rates: [...s.rates],
    mids: [...s.mids],
    accounts: [...s.accounts],
    positions: [...s.positions],
  }),
});

const AuditEntry = z.object({ userId: z.number(), action: z.string(), details: z.record(z.string(), z.unknown()) });

/** An order for the copy engine, wherever it runs (ClusterOrders). */
const OrderRequest = z.discriminatedUnion('op', [
  z.object({ op: z.literal('close'), ids: z.array(z.number()), audit: AuditEntry }),
  z.object({ op: z.literal('modifyStops'), ids: z.array(z.number()), tp: z.number().nullable(), sl: z.number().nullable(), audit: AuditEntry }),
  z.object({ op: z.literal('reloadRules') }),
  z.object({ op: z.literal('syncBridge') }),
  z.object({ op: z.literal('ping') }),
]);
export type OrderRequest = z.infer<typeof OrderRequest>;

const OrderEnvelope = z.object({ id: z.string(), from: z.string(), request: OrderRequest });
export type OrderEnvelope = z.infer<typeof OrderEnvelope>;

const OrderReply = z.object({
  id: z.string(),
  to: z.string(),
  ok: z.boolean(),
  value: z.number().optional(),
  /** Why it failed: the broker error's kind and message (src/server/broker/errors.ts). */
  error: z.object({ kind: z.string(), message: z.string() }).optional(),
});
export type OrderReply = z.infer<typeof OrderReply>;

const Quote = z.object({ symbol: z.string(), bid: z.number(), ask: z.number() });
export type Quote = z.infer<typeof Quote>;

export const channels = {
  /** The ledger or the settings changed: cached answers are stale (Changes). */
  changes: channel('changes', Signal),
  /** The leader's market snapshot. */
  marketSnapshot: channel('market:snapshot', SnapshotPayload),
  /** An instance that just started asks the leader for its snapshot. */
  marketHello: channel('market:hello', Signal),
  /** The leader is there, whether or not the market changed. */
  marketHeartbeat: channel('market:heartbeat', Signal),
  /** An order for the leader's copy engine. */
  ordersRequest: channel('orders:request', OrderEnvelope),
  /** The leader's answer to an order. */
  ordersReply: channel('orders:reply', OrderReply),
  /** Quotes a terminal agent reported. */
  agentsReported: channel('agents:reported', z.array(Quote)),
  /** Agents with commands queued for them. */
  commandsQueued: channel('commands:queued', z.array(z.number().int())),
  /** A command was answered (its id). */
  commandsAnswered: channel('commands:answered', z.string()),
  /** Statements were booked into accounts fed by statements (their ids): the leader reads them again. */
  statementsBooked: channel('statements:booked', z.array(z.number().int())),
} as const;
