/**
 * The live feeds' wire, for the server that writes it and the client that reads it
 * (docs/architecture.md, "One wire contract"): the two feeds (path and query), what the server
 * sends (a snapshot of rows, a delta of them, a pong), what a client may send (a ping, a resync), and the close codes. Every
 * message is encoded by encodeServerMessage / encodeClientMessage and decoded by
 * decodeServerMessage / decodeClientMessage, here and nowhere else.
 */
import { z } from 'zod';
import { LiveDelta, rowChanges, type EncodedRow } from './live-delta.ts';
import { LiveAggregateByQuery, LiveAggregateQuery, LiveMessage, Position } from './positions.ts';

/** The feeds: a portfolio's positions by symbol, or by account or broker. */
export const liveFeeds = {
  aggregate: { path: '/ws/brokers/live-positions-aggregate', query: LiveAggregateQuery },
  aggregateBy: { path: '/ws/brokers/live-positions-aggregate-by', query: LiveAggregateByQuery },
} as const;
export type LivePath = (typeof liveFeeds)[keyof typeof liveFeeds]['path'];
/**
 * A feed and the parameters a screen asks it with, typed by the feed table (the z.input of its
 * query); the ticket and the delta mode are the socket's own.
 */
export type LiveFeedRequest = {
  [K in keyof typeof liveFeeds]: { path: (typeof liveFeeds)[K]['path']; params: Omit<z.input<(typeof liveFeeds)[K]['query']>, 'token' | 'updates'> };
}[keyof typeof liveFeeds];

/**
 * Why the server closed a socket. 4401: no or bad ticket, or the session ended (a new ticket may
 * pass); 4403: not authorised for the portfolio; 4404: unknown account or broker (or one outside
 * the portfolio); 4400: a message other than a ping; 4429: too many messages; 4503: no broker connected.
 */
export const LIVE_CLOSE = {
  normal: 1000,
  unauthorized: 4401,
  forbidden: 4403,
  notFound: 4404,
  badMessage: 4400,
  tooMany: 4429,
  unavailable: 4503,
} as const;
export type LiveCloseCode = (typeof LIVE_CLOSE)[keyof typeof LIVE_CLOSE];

const Pong = z.object({ type: z.literal('pong') });
/** What the server sends: the feed's rows (LiveMessage, type 'snapshot'), what changed in them (a feed of deltas), or the answer to a ping. */
export const LiveServerMessage = z.discriminatedUnion('type', [LiveMessage, LiveDelta, Pong]);
export type LiveServerMessage = z.infer<typeof LiveServerMessage>;
/** In broker mode an older server may send the bare array of rows. */
export const LiveBareRows = z.array(Position);

/** What a client may send: a ping now and then, or, on a feed of deltas, a request for the full snapshot (it missed a delta). */
export const LiveClientMessage = z.discriminatedUnion('type', [z.object({ type: z.literal('ping') }), z.object({ type: z.literal('resync') })]);
export type LiveClientMessage = z.infer<typeof LiveClientMessage>;

/** A server message as the text of its frame (figures rounded by their schemas). */
export function encodeServerMessage(message: LiveServerMessage): string {
  return JSON.stringify(z.encode(LiveServerMessage, message));
}

/** A feed's rows as the contract encodes them (figures rounded): what snapshots and deltas are made of. */
export function encodeRows(rows: Position[]): EncodedRow[] {
  return z.encode(LiveBareRows, rows);
}

/** The text of a snapshot made of rows encoded already (encodeRows): the same text encodeServerMessage gives. */
export function snapshotText(timestamp: number, rows: EncodedRow[], version?: number): string {
  return JSON.stringify({ type: 'snapshot', timestamp, positionsAggregate: rows, ...(version === undefined ? {} : { version }) });
}

/** The text of a delta from version `base` to `version`, between two encoded sets of rows (live-delta.ts). */
export function deltaText(timestamp: number, base: number, version: number, before: EncodedRow[], after: EncodedRow[]): string {
  return JSON.stringify({ type: 'delta', timestamp, version, base, length: after.length, changes: rowChanges(before, after) });
}

/** A client message as the text of its frame. */
export function encodeClientMessage(message: LiveClientMessage): string {
  return JSON.stringify(z.encode(LiveClientMessage, message));
}

/** A frame's parsed JSON as a server message (the bare rows of broker mode as a snapshot without time), or null. */
export function decodeServerMessage(json: unknown): LiveServerMessage | { type: 'rows'; positionsAggregate: Position[] } | null {
  if (Array.isArray(json)) {
    const rows = LiveBareRows.safeParse(json);
    return rows.success ? { type: 'rows', positionsAggregate: rows.data } : null;
  }
  const parsed = LiveServerMessage.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** A client frame's text as a client message, or null when it is anything else. */
export function decodeClientMessage(text: string): LiveClientMessage | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = LiveClientMessage.safeParse(json);
  return parsed.success ? parsed.data : null;
}
