import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import type { WebSocket } from 'ws';
import { deltaText, encodeRows, snapshotText } from '#shared/contract/live.ts';
import type { EncodedRow } from '#shared/contract/live-delta.ts';
import type { Position } from '#shared/contract/positions.ts';
import { filterPositionsByPortfolio } from '#shared/domain/positions-filter.ts';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import type { MarketSnapshot } from '#server/broker/port.ts';
import { aggregatePositions, type GroupBy } from './aggregate.ts';
import type { ExcursionCache } from './excursion-cache.ts';
import { inScope, scopeOfPortfolios } from '#server/auth/scope.ts';

/** What one feed shows; equal subscriptions share one computation and one serialisation per tick. */
export interface Subscription {
  portfolio: Portfolio;
  groupBy: GroupBy;
  accountId?: number;
  brokerName?: string;
}

/** What the hub knows of one socket: whether it takes deltas, and the version of the rows it holds. */
interface SocketState {
  deltas: boolean;
  /** The feed's version this socket last got (a snapshot or a delta); undefined until its first. */
  version: number | undefined;
}

interface Feed {
  sub: Subscription;
  sockets: Map<WebSocket, SocketState>;
  /** The version of the last broadcast, and its rows as encoded (what a delta is made against). */
  version: number;
  rows: EncodedRow[] | undefined;
  timestamp: number;
}

/** Whose socket it is: the sessions sweep closes it when that session ends. */
export interface SocketOwner {
  userId: number;
  apiKeyId: number;
}

const MAX_BUFFERED = 1 << 20;
/** A feed sends at most once per this share of the interval [ours]. */
export const MIN_GAP = 0.8;

export function subscriptionKey(s: Subscription): string {
  return [s.portfolio, s.groupBy, s.accountId ?? '', s.brokerName ?? ''].join('|');
}

/** Rows of a subscription at a snapshot: positions in the portfolio, narrowed to an account or broker. */
export function feedRows(snapshot: MarketSnapshot, sub: Subscription, excursions: ExcursionCache): Position[] {
  const inPortfolio = snapshot.positions.filter((p) => {
    const acct = snapshot.accounts.get(p.account_id);
    if (!acct || !inScope(acct.teiko_category, [sub.portfolio])) return false;
    if (sub.accountId !== undefined && acct.id !== sub.accountId) return false;
    if (sub.brokerName !== undefined && acct.broker.broker_name !== sub.brokerName) return false;
    return true;
  });
  const categories = scopeOfPortfolios([sub.portfolio]).categories;
  return aggregatePositions(snapshot, filterPositionsByPortfolio(inPortfolio, sub.portfolio), sub.groupBy, {
    get: (symbol) => excursions.get(symbol, categories),
  });
}

/**
 * Fans market snapshots out to websockets, at most one message per feed per 0.8 interval (trailing,
 * so the last change always goes out). Each distinct feed is computed and serialised once per send, as
 * a snapshot and as a delta from the send before (for the sockets that asked for deltas and hold that
 * version); each is one Buffer that every socket of the feed writes as it is: the per-socket work is
 * ws's few header bytes and one write, not an encoding of the text per socket.
 */
export class LiveHub {
  private readonly feeds = new Map<string, Feed>();
  private readonly owners = new Map<WebSocket, SocketOwner>();
  private timer: NodeJS.Timeout | undefined;
  private lastSent = 0;
  private latest: MarketSnapshot | undefined;
  /** Serialisations made: a measure for the fan-out benchmark and tests. */
  computed = 0;
  /** Snapshot messages written to sockets (for /metrics). */
  snapshotsSent = 0;
  /**
   * Per broadcast that wrote to a socket, in nanoseconds: `spread` from its first socket write to its
   * last, `duration` from its start (the feeds' computation included) to its last write. /metrics
   * reads and resets them.
   */
  readonly fanout: { spread: RecordableHistogram; duration: RecordableHistogram } = {
    spread: createHistogram(),
    duration: createHistogram(),
  };

  constructor(
    private readonly excursions: ExcursionCache,
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  get socketCount(): number {
    let n = 0;
    for (const f of this.feeds.values()) n += f.sockets.size;
    return n;
  }

  /**
   * Adds a socket to its feed and sends it the current rows at once: with the feed's version when
   * they are the last broadcast's, else without one (a socket of deltas then gets the feed's
   * versioned snapshot at the next broadcast, and deltas after it).
   */
  add(socket: WebSocket, sub: Subscription, snapshot: MarketSnapshot, owner?: SocketOwner, deltas = false): void {
    const key = subscriptionKey(sub);
    const feed = this.feeds.get(key) ?? { sub, sockets: new Map<WebSocket, SocketState>(), version: 0, rows: undefined, timestamp: 0 };
    const state: SocketState = { deltas, version: undefined };
    feed.sockets.set(socket, state);
    this.feeds.set(key, feed);
    if (owner) this.owners.set(socket, owner);
    this.computed++;
    const rows = this.encodedRows(snapshot, sub);
    const text = snapshotText(snapshot.at, rows);
    // Unchanged since the feed's last broadcast: the socket joins its versions (its next message may be a delta).
    if (feed.rows !== undefined && snapshot.at === feed.timestamp && text === snapshotText(feed.timestamp, feed.rows)) {
      socket.send(snapshotText(feed.timestamp, feed.rows, feed.version));
      state.version = feed.version;
    } else socket.send(text);
    this.snapshotsSent++;
    socket.on('close', () => {
      this.owners.delete(socket);
      feed.sockets.delete(socket);
      if (feed.sockets.size === 0) this.feeds.delete(key);
    });
  }

  /** A socket of deltas missed one: it gets the feed's last snapshot, with its version, now. */
  resync(socket: WebSocket): void {
    for (const feed of this.feeds.values()) {
      const state = feed.sockets.get(socket);
      if (!state) continue;
      if (feed.rows === undefined) return; // no versioned snapshot yet: the next broadcast sends one
      socket.send(snapshotText(feed.timestamp, feed.rows, feed.version));
      state.version = feed.version;
      this.snapshotsSent++;
      return;
    }
  }

  update(snapshot: MarketSnapshot): void {
    this.latest = snapshot;
    if (this.timer) return;
    // The gap is measured from the last send, whose timer ran late by a little: a hold of a full
    // interval would add that lateness to every following tick's wait until a snapshot was skipped
    // (a follower hearing 1-second ticks over Redis drifted to half a second behind). Ticks a little
    // early go out at once; bursts (agents' reports between ticks) are still held.
    const wait = Math.max(0, this.lastSent + this.intervalMs * MIN_GAP - this.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.lastSent = this.now();
      if (this.latest) this.broadcast(this.latest);
    }, wait);
  }

  private encodedRows(snapshot: MarketSnapshot, sub: Subscription): EncodedRow[] {
    // Encoded through the contract, as an HTTP answer is: its figures are rounded there (money to the cent).
    return encodeRows(feedRows(snapshot, sub, this.excursions));
  }

  broadcast(snapshot: MarketSnapshot): void {
    const started = process.hrtime.bigint();
    void this.excursions.refresh().catch(() => undefined);
    // Every feed's payloads first, then the writes: no feed's computation delays another's sockets.
    const sends: { feed: Feed; version: number; full: () => Buffer; delta: Buffer | undefined }[] = [];
    for (const feed of this.feeds.values()) {
      try {
        this.computed++;
        const rows = this.encodedRows(snapshot, feed.sub);
        const base = feed.version;
        const version = base + 1;
        const anyDeltas = feed.rows !== undefined && [...feed.sockets.values()].some((s) => s.deltas && s.version === base);
        const delta = anyDeltas ? Buffer.from(deltaText(snapshot.at, base, version, feed.rows!, rows)) : undefined;
        let full: Buffer | undefined;
        sends.push({ feed, version, delta, full: () => (full ??= Buffer.from(snapshotText(snapshot.at, rows, version))) });
        feed.rows = rows;
        feed.version = version;
        feed.timestamp = snapshot.at;
      } catch (err) {
        // One feed's fault (a defect) must not take the other feeds, or the process, down.
        this.onError(err);
      }
    }
    let firstWrite: bigint | undefined;
    for (const { feed, version, full, delta } of sends) {
      for (const [socket, state] of feed.sockets) {
        // A socket that cannot keep up skips snapshots instead of buffering without bound (a socket
        // of deltas that skipped one gets the whole snapshot next).
        if (socket.readyState !== socket.OPEN || socket.bufferedAmount >= MAX_BUFFERED) continue;
        firstWrite ??= process.hrtime.bigint();
        const payload = state.deltas && delta && state.version === version - 1 ? delta : full();
        // A text frame whose payload is this Buffer, shared by every socket (ws does not copy it).
        socket.send(payload, { binary: false });
        state.version = version;
        this.snapshotsSent++;
      }
    }
    if (firstWrite === undefined) return;
    const done = process.hrtime.bigint();
    // A histogram records integers from 1.
    this.fanout.spread.record(Math.max(1, Number(done - firstWrite)));
    this.fanout.duration.record(Math.max(1, Number(done - started)));
  }

  /** The sessions behind the open sockets. */
  sessions(): number[] {
    return [...new Set([...this.owners.values()].map((o) => o.apiKeyId))];
  }

  /** Closes every socket opened under one of these sessions; returns how many. */
  closeSessions(apiKeyIds: ReadonlySet<number>, code: number, reason: string): number {
    let n = 0;
    for (const [socket, owner] of this.owners) {
      if (!apiKeyIds.has(owner.apiKeyId)) continue;
      socket.close(code, reason);
      this.owners.delete(socket);
      n++;
    }
    return n;
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const feed of this.feeds.values()) for (const s of feed.sockets.keys()) s.close(1001, 'Server shutting down');
    this.feeds.clear();
  }
}
