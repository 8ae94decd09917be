import { endpoints } from '#shared/contract/endpoints.ts';
import { decodeServerMessage, encodeClientMessage, LIVE_CLOSE, type LivePath } from '#shared/contract/live.ts';
import { applyDelta } from '#shared/contract/live-delta.ts';
import type { Position } from '#shared/contract/positions.ts';
import { DEFAULT_ATTEMPTS, reconnectDelay, WS_CONNECT_TIMEOUT_MS } from '#shared/domain/backoff.ts';
import { ApiError, apiRequest } from '#client/api/http.ts';
import { sessionStore } from '#client/auth/session-store.ts';
import { wsBaseUrl } from '#client/config/runtime-config.ts';

export type { LivePath };

/**
 * connecting: first connect under way; live: socket open; reconnecting: waiting for or making a
 * retry; offline: given up (attempts spent, refused by the server, or no session); closed: closed
 * normally, by the server (1000) or by close().
 */
export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'offline' | 'closed';

export const NO_AUTH_TOKEN = 'No authentication token found';
export const WS_ERROR = 'WebSocket error';
/** An open socket that answered nothing, not even a ping, for the heartbeat's whole allowance. */
export const WS_SILENT = 'WebSocket silent: no answer from the server';
export const wsClosedMessage = (code: number, reason: string): string => `WebSocket closed: ${code} ${reason}`;

/** Close codes after which retrying cannot help: normal close, then no ticket, forbidden, unknown account or broker. */
const NORMAL_CLOSE = LIVE_CLOSE.normal;
const REFUSED_CODES: ReadonlySet<number> = new Set([LIVE_CLOSE.unauthorized, LIVE_CLOSE.forbidden, LIVE_CLOSE.notFound]);
/** Refusals that stand whatever the connectivity; `unauthorized` may pass with a new ticket once the network is back. */
const PERMANENT_CODES: ReadonlySet<number> = new Set([LIVE_CLOSE.forbidden, LIVE_CLOSE.notFound]);
const OPEN = 1;

export type WebSocketCtor = new (url: string) => WebSocket;

export interface Timers {
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (id: unknown) => void;
}

export interface LiveSocketOptions {
  path: LivePath;
  /** Query parameters; undefined and null are left out. The ticket is added as `token`. */
  params: Readonly<Record<string, string | null | undefined>>;
  /** Reconnects after an unexpected close (POSITION_FEED_ATTEMPTS for position feeds). */
  maxAttempts?: number;
  onMessage: (positions: Position[], timestamp: number | null) => void;
  /** `waiting` is true while the feed is down for a reason the network's return may cure (not a refusal for good, not a missing session). */
  onStatus: (status: LiveStatus, error: string | null, waiting: boolean) => void;
  /** A fresh single-use ticket, or null when there is no session to ask one for. */
  fetchTicket?: (signal: AbortSignal) => Promise<string | null>;
  WebSocketImpl?: WebSocketCtor;
  timers?: Timers;
  /** ws(s)://host; defaults to the page's own origin. */
  baseUrl?: string;
  /**
   * Checks an open socket that has been silent: after `idleMs` without a message it sends a ping, and
   * when nothing arrives within `timeoutMs` more the socket is taken for dead (a network that drops
   * packets without closing the connection) and replaced like any unexpected close. Off when absent.
   */
  heartbeat?: { idleMs: number; timeoutMs: number };
  /** Ask for deltas (the default) or for every row in every message (`false`). */
  deltas?: boolean;
}

export interface LiveSocket {
  close(): void;
  /**
   * Resets the attempt count and, unless a socket is open or opening, connects at once. With
   * `abandonPending` (the server was just reached) a socket still opening or a ticket still on its way,
   * begun while the network was down, is dropped and the connect starts over; an open socket stays.
   */
  reconnectNow(options?: { abandonPending?: boolean }): void;
}

/** POST /api/ws-ticket with the session key (docs/architecture.md: the key itself never goes into a URL). */
export async function fetchWsTicket(signal: AbortSignal): Promise<string | null> {
  if (!sessionStore.get()?.api_key) return null;
  const response = await apiRequest(endpoints.wsTicket, { signal });
  return response.data.ticket;
}

function assertNever(value: never): never {
  throw new Error(`Unexpected live message: ${JSON.stringify(value)}`);
}

/** Replaces bare NaN, Infinity and -Infinity tokens (outside strings) with null so the text is JSON (docs/product.md#constants). */
export function replaceNonFiniteTokens(text: string): string {
  // One native regex pass: a string literal (escapes included) is kept whole, a bare token outside
  // strings becomes null. Most messages carry no such token and skip even that.
  if (!MAY_HOLD_NON_FINITE.test(text)) return text;
  return text.replace(STRING_OR_NON_FINITE, (match) => (match.startsWith('"') ? match : 'null'));
}
const MAY_HOLD_NON_FINITE = /NaN|Infinity/;
const STRING_OR_NON_FINITE = /"(?:[^"\\]|\\.)*"|-?(?:Infinity|NaN)/g;

/** One websocket message's text through the contract; null when it is not JSON or fails the contract. */
function decodeFrame(data: unknown): ReturnType<typeof decodeServerMessage> {
  if (typeof data !== 'string') return null;
  let json: unknown;
  try {
    json = JSON.parse(replaceNonFiniteTokens(data));
  } catch {
    return null;
  }
  return decodeServerMessage(json);
}

/** Rows and timestamp of one snapshot message; null for a message without all the rows or one that fails the contract. */
export function parseLiveMessage(data: unknown): { positions: Position[]; timestamp: number | null } | null {
  const message = decodeFrame(data);
  if (message?.type === 'rows') return { positions: message.positionsAggregate, timestamp: null };
  if (message?.type === 'snapshot') return { positions: message.positionsAggregate, timestamp: message.timestamp };
  return null;
}

/** What one message of a feed gives: its rows now, a request to send for the whole snapshot, or nothing to show. */
export type FeedRead = { positions: Position[]; timestamp: number | null } | 'resync' | null;

/**
 * The rows one socket's messages add up to: a snapshot gives them whole (and a version, on a feed
 * of deltas), a delta changes the rows of its base version (the shared contract's applyDelta). A
 * delta that does not apply (a message missed) asks for a resync once, and deltas are ignored until
 * the snapshot that answers it.
 */
export function createFeedReader(): (data: unknown) => FeedRead {
  let rows: Position[] = [];
  let version: number | null = null;
  let resyncAsked = false;
  return (data) => {
    const message = decodeFrame(data);
    if (message === null) return null;
    switch (message.type) {
      case 'rows':
      case 'snapshot':
        rows = message.positionsAggregate;
        version = message.type === 'snapshot' ? (message.version ?? null) : null;
        resyncAsked = false;
        return { positions: rows, timestamp: message.type === 'snapshot' ? message.timestamp : null };
      case 'delta': {
        const next = applyDelta(rows, version, message);
        if (next === null) {
          version = null;
          if (resyncAsked) return null;
          resyncAsked = true;
          return 'resync';
        }
        rows = next;
        version = message.version;
        return { positions: rows, timestamp: message.timestamp };
      }
      case 'pong':
        return null;
      default:
        return assertNever(message);
    }
  };
}

const defaultTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (id) => globalThis.clearTimeout(id as ReturnType<typeof globalThis.setTimeout>),
};

/**
 * One live feed: fetches a fresh ticket before every connect, gives up on a connect after 15 s,
 * reconnects after an unexpected close with reconnectDelay(attempt) up to maxAttempts times, and
 * never after a normal close or a refusal (docs/product.md#calls–9).
 */
export function createLiveSocket(options: LiveSocketOptions): LiveSocket {
  const {
    path,
    params,
    maxAttempts = DEFAULT_ATTEMPTS,
    onMessage,
    onStatus,
    fetchTicket = fetchWsTicket,
    WebSocketImpl = globalThis.WebSocket,
    timers = defaultTimers,
  } = options;

  let disposed = false;
  let permanentlyRefused = false;
  let attempts = 0;
  let everConnected = false;
  let socket: WebSocket | null = null;
  let ticketRequest: AbortController | null = null;
  let retryTimer: unknown = null;
  let connectTimer: unknown = null;
  let heartbeatTimer: unknown = null;
  /** Bumped on every connect so events of an abandoned socket or ticket request are ignored. */
  let generation = 0;
  let status: LiveStatus = 'connecting';
  /** The last failure, kept on screen while retrying until the feed is live again. */
  let lastError: string | null = null;

  const report = (next: LiveStatus, error: string | null) => {
    status = next;
    lastError = error;
    const waiting = next === 'reconnecting' || (next === 'offline' && !permanentlyRefused && error !== NO_AUTH_TOKEN);
    if (!disposed) onStatus(next, error, waiting);
  };

  const clearTimer = (id: unknown) => {
    if (id !== null) timers.clearTimeout(id);
  };

  const dropSocket = () => {
    clearTimer(connectTimer);
    connectTimer = null;
    clearTimer(heartbeatTimer);
    heartbeatTimer = null;
    if (!socket) return;
    const s = socket;
    socket = null;
    s.onopen = null;
    s.onmessage = null;
    s.onerror = null;
    s.onclose = null;
    try {
      s.close(NORMAL_CLOSE);
    } catch {
      // Already closing: nothing left to release.
    }
  };

  const buildUrl = (ticket: string): string => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null) query.set(key, value);
    // Our screens take deltas (src/shared/contract/live-delta.ts): what changed since the last message, not every row.
    if (options.deltas !== false) query.set('updates', 'delta');
    query.set('token', ticket);
    return `${options.baseUrl ?? wsBaseUrl()}${path}?${query.toString()}`;
  };

  /** After a failed connect or an unexpected close: retry with backoff, or give up. */
  const retryOrGiveUp = (error: string) => {
    dropSocket();
    if (attempts >= maxAttempts) {
      report('offline', error);
      return;
    }
    const delay = reconnectDelay(attempts);
    attempts += 1;
    report('reconnecting', error);
    retryTimer = timers.setTimeout(() => {
      retryTimer = null;
      void connect();
    }, delay);
  };

  const connect = async (): Promise<void> => {
    if (disposed) return;
    const current = ++generation;
    dropSocket();
    ticketRequest?.abort();
    report(everConnected || attempts > 0 ? 'reconnecting' : 'connecting', lastError);

    const request = new AbortController();
    ticketRequest = request;
    let ticket: string | null;
    try {
      ticket = await fetchTicket(request.signal);
    } catch (err) {
      if (disposed || current !== generation) return;
      ticketRequest = null;
      const message = err instanceof Error ? err.message : WS_ERROR;
      // A refused session will not be accepted on a retry.
      if (err instanceof ApiError && err.status === 401) report('offline', message);
      else retryOrGiveUp(message);
      return;
    }
    if (disposed || current !== generation) return;
    ticketRequest = null;
    if (ticket === null) {
      report('offline', NO_AUTH_TOKEN);
      return;
    }

    let ws: WebSocket;
    try {
      ws = new WebSocketImpl(buildUrl(ticket));
    } catch {
      retryOrGiveUp(WS_ERROR);
      return;
    }
    socket = ws;
    connectTimer = timers.setTimeout(() => {
      connectTimer = null;
      if (socket === ws && ws.readyState !== OPEN) retryOrGiveUp(WS_ERROR);
    }, WS_CONNECT_TIMEOUT_MS);

    /** (Re)arms the silence check: a ping after `idleMs` of silence, the socket dropped after `timeoutMs` more. */
    const watch = () => {
      const beat = options.heartbeat;
      if (!beat || socket !== ws) return;
      clearTimer(heartbeatTimer);
      heartbeatTimer = timers.setTimeout(() => {
        if (socket !== ws) return;
        try {
          ws.send(encodeClientMessage({ type: 'ping' }));
        } catch {
          // A socket that cannot send is about to close; its close event decides.
        }
        heartbeatTimer = timers.setTimeout(() => {
          heartbeatTimer = null;
          if (socket === ws) retryOrGiveUp(WS_SILENT);
        }, beat.timeoutMs);
      }, beat.idleMs);
    };
    ws.onopen = () => {
      clearTimer(connectTimer);
      connectTimer = null;
      everConnected = true;
      report('live', null);
      watch();
    };
    const read = createFeedReader();
    ws.onmessage = (event: MessageEvent) => {
      watch();
      const message = read(event.data);
      if (message === 'resync') {
        try {
          ws.send(encodeClientMessage({ type: 'resync' }));
        } catch {
          // A socket that cannot send is about to close; the next socket starts with a snapshot.
        }
        return;
      }
      if (!message) return;
      // A feed that delivers is healthy again: the next outage gets the full allowance.
      attempts = 0;
      if (!disposed) onMessage(message.positions, message.timestamp);
    };
    ws.onerror = () => {
      // The close event follows with the code; report the error meanwhile.
      report(status, WS_ERROR);
    };
    ws.onclose = (event: CloseEvent) => {
      if (socket !== ws) return;
      const error = wsClosedMessage(event.code, event.reason);
      if (event.code === NORMAL_CLOSE) {
        dropSocket();
        report('closed', null);
      } else if (REFUSED_CODES.has(event.code)) {
        dropSocket();
        permanentlyRefused = PERMANENT_CODES.has(event.code);
        report('offline', error);
      } else {
        retryOrGiveUp(error);
      }
    };
  };

  void connect();

  return {
    close() {
      if (disposed) return;
      clearTimer(retryTimer);
      retryTimer = null;
      ticketRequest?.abort();
      ticketRequest = null;
      dropSocket();
      onStatus('closed', null, false);
      disposed = true;
    },
    reconnectNow({ abandonPending = false } = {}) {
      if (disposed || permanentlyRefused) return;
      attempts = 0;
      // An open socket is left alone; so is one opening, or a ticket on its way, unless abandoned.
      if (socket?.readyState === OPEN) return;
      if ((socket || ticketRequest) && !abandonPending) return;
      ticketRequest?.abort();
      ticketRequest = null;
      clearTimer(retryTimer);
      retryTimer = null;
      void connect();
    },
  };
}

/** Calls `callback` when the browser is back online or the page becomes visible again; returns the unsubscribe. */
export function onConnectivityRegained(callback: () => void): () => void {
  const onOnline = () => callback();
  const onVisibility = () => {
    if (document.visibilityState === 'visible') callback();
  };
  window.addEventListener('online', onOnline);
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    window.removeEventListener('online', onOnline);
    document.removeEventListener('visibilitychange', onVisibility);
  };
}
