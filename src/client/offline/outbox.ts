/**
 * The outbox: TP/SL edits and copy-rule changes made while the device had no connection, kept on
 * the device until the user confirms them against what the server holds now (docs/client.md, "Edits
 * made offline"). Everything here is pure: what a change keeps, when it expires, whether it still
 * matches the position or rule as it is now, and what a failed send does with it. The IndexedDB part
 * is outbox-store.ts; fetching the current state and sending, outbox-sync.ts.
 *
 * A close is never queued: closing later, at whatever price the market has by then, is not what the
 * user asked for.
 */
import { z } from 'zod';
import { AllowedPairsBody, type CopyRule } from '#shared/contract/copy-rules.ts';
import { SetTpSlBody, type Position } from '#shared/contract/positions.ts';
import { formatPrice } from '#shared/format/numbers.ts';

/**
 * How long a change made offline may wait for the network before it is dropped unsent.
 * - TP/SL: 15 minutes. Stops are set against the market of the moment; after a quarter of an hour
 *   the price may have moved past them, and the user should decide again on what he sees then.
 * - Allowed pairs: 24 hours. Which pairs a master's followers copy does not depend on the minute;
 *   after a day the user may have forgotten making the change, so it is not sent.
 */
export const OUTBOX_EXPIRY_MS = {
  'tp-sl': 15 * 60 * 1000,
  'allowed-pairs': 24 * 60 * 60 * 1000,
} as const;

/** Shown on the change, and on the position or rule it is about, while it waits. */
export const PENDING_NOTE = 'Pending — will be sent when you are back online';
/** The toast when a change is kept instead of sent. */
export const KEPT_TOAST = `No connection: your change is kept on this device. ${PENDING_NOTE}.`;
/** Why the Close buttons are disabled offline. */
export const CLOSE_NEEDS_CONNECTION = 'Closing needs a connection: a close is never sent later';

const Side = z.enum(['Buy', 'Sell']);

/** A TP/SL edit: set-tp-sl-by-symbol, and the position row the user edited as he saw it. */
const TpSlEntry = z.object({
  kind: z.literal('tp-sl'),
  /** The Idempotency-Key of every attempt to send this change (crypto.randomUUID()). */
  key: z.string().min(1),
  /** When the change was made, and when it stops being sent (epoch ms). */
  created_at: z.number(),
  expires_at: z.number(),
  request: SetTpSlBody,
  seen: z.object({
    /** positionKey of the row: account name, symbol and direction. */
    position_key: z.string(),
    account_name: z.string(),
    u_symbol: z.string(),
    type: Side,
    sl: z.number().nullable(),
    tp: z.number().nullable(),
    price_current: z.number(),
  }),
});

/** A master's allowed pairs, and the pairs the user saw when he changed them. */
const AllowedPairsEntry = z.object({
  kind: z.literal('allowed-pairs'),
  key: z.string().min(1),
  created_at: z.number(),
  expires_at: z.number(),
  request: AllowedPairsBody,
  seen: z.object({
    master_id: z.string(),
    account_name: z.string(),
    allowed_pairs: z.array(z.string()),
  }),
});

export const OutboxEntry = z.discriminatedUnion('kind', [TpSlEntry, AllowedPairsEntry]);
export type OutboxEntry = z.infer<typeof OutboxEntry>;
export type TpSlEntry = z.infer<typeof TpSlEntry>;
export type AllowedPairsEntry = z.infer<typeof AllowedPairsEntry>;

/** The entries of a stored value that still read as entries; anything else (another build's shape) is left out. */
export function parseStoredOutbox(value: unknown): OutboxEntry[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const parsed = OutboxEntry.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

const positionKeyOf = (p: Pick<Position, 'account_name' | 'u_symbol' | 'type'>) => `${p.account_name}|${p.u_symbol}|${p.type}`;
const newKey = () => crypto.randomUUID();

/** A TP/SL edit of `position` (the row as the user saw it) to be sent as `request`. */
export function createTpSlEntry(
  request: z.input<typeof SetTpSlBody>,
  position: Pick<Position, 'account_name' | 'u_symbol' | 'type' | 'sl' | 'tp' | 'price_current'>,
  now: number,
  key: string = newKey(),
): TpSlEntry {
  return {
    kind: 'tp-sl',
    key,
    created_at: now,
    expires_at: now + OUTBOX_EXPIRY_MS['tp-sl'],
    request: SetTpSlBody.parse(request),
    seen: {
      position_key: positionKeyOf(position),
      account_name: position.account_name,
      u_symbol: position.u_symbol,
      type: position.type,
      sl: position.sl,
      tp: position.tp,
      price_current: position.price_current,
    },
  };
}

/** A change of `rule`'s allowed pairs (the rule as the user saw it) to be sent as `request`. */
export function createAllowedPairsEntry(
  request: z.input<typeof AllowedPairsBody>,
  rule: Pick<CopyRule, 'master_id' | 'account_name' | 'allowed_pairs'>,
  now: number,
  key: string = newKey(),
): AllowedPairsEntry {
  return {
    kind: 'allowed-pairs',
    key,
    created_at: now,
    expires_at: now + OUTBOX_EXPIRY_MS['allowed-pairs'],
    request: AllowedPairsBody.parse(request),
    seen: { master_id: rule.master_id, account_name: rule.account_name, allowed_pairs: [...rule.allowed_pairs] },
  };
}

/**
 * What a change is about: one write replaces another of the same target. TP/SL is set on every
 * position of a symbol and direction (and currency) in a portfolio; pairs belong to a master.
 */
export function targetOf(entry: OutboxEntry): string {
  if (entry.kind === 'allowed-pairs') return `allowed-pairs|${entry.request.master_id}`;
  const r = entry.request;
  return `tp-sl|${r.portfolio ?? ''}|${r.category}|${r.symbol}|${r.direction}|${r.currency}`;
}

/**
 * The outbox with `entry` added. A newer change of the same target replaces the older one (the
 * server would end with the newer anyway), but keeps what the user saw before his first change: the
 * newer was made on top of the pending one, and the server's state is still the one seen then.
 */
export function addToOutbox(entries: readonly OutboxEntry[], entry: OutboxEntry): OutboxEntry[] {
  const target = targetOf(entry);
  const older = entries.find((e) => targetOf(e) === target);
  const kept = older ? ({ ...entry, seen: older.seen } as OutboxEntry) : entry;
  return [...entries.filter((e) => targetOf(e) !== target), kept];
}

/** The outbox without the entries of these Idempotency-Keys. */
export function withoutKeys(entries: readonly OutboxEntry[], keys: Iterable<string>): OutboxEntry[] {
  const drop = new Set(keys);
  return entries.filter((e) => !drop.has(e.key));
}

/** The outbox without any change of `target` (one sent online supersedes a pending one). */
export function withoutTarget(entries: readonly OutboxEntry[], target: string): OutboxEntry[] {
  return entries.filter((e) => targetOf(e) !== target);
}

export function isExpired(entry: OutboxEntry, now: number): boolean {
  return now >= entry.expires_at;
}

/**
 * Whether a write that just failed is kept in the outbox rather than shown as an error: only when
 * no answer came back (status 0: no network) or the browser knows it is offline. An answer of the
 * server, even a 5xx, is the server's: it is shown, not kept.
 */
export function keepAfterFailure(error: unknown, browserOnline: boolean): boolean {
  if (!browserOnline) return true;
  return typeof error === 'object' && error !== null && 'status' in error && error.status === 0;
}

/** A confirmed send that failed: a 4xx is the server refusing the change (dropped); anything else may pass later (kept). */
export function failedSendOutcome(error: unknown): 'refused' | 'kept' {
  const status = typeof error === 'object' && error !== null && 'status' in error ? error.status : undefined;
  return typeof status === 'number' && status >= 400 && status < 500 ? 'refused' : 'kept';
}

/** Where the current state of an entry is read: the portfolio's position feed, or the copy rules. */
export interface FreshNeeds {
  /** Portfolios whose live positions are needed ('' for none given: the user's default). */
  portfolios: string[];
  rules: boolean;
}

export function freshNeeds(entries: readonly OutboxEntry[]): FreshNeeds {
  const portfolios = new Set<string>();
  let rules = false;
  for (const e of entries) {
    if (e.kind === 'tp-sl') portfolios.add(e.request.portfolio ?? '');
    else rules = true;
  }
  return { portfolios: [...portfolios], rules };
}

/** The server's state now, as fetched for a review. */
export interface CurrentState {
  /** The position rows (by account) of each portfolio of FreshNeeds. */
  positions: ReadonlyMap<string, readonly Position[]>;
  rules: readonly CopyRule[] | null;
}

/** The row an entry was made on, or the rule it changes, as it is now; null when it is gone. */
export function currentOf(entry: TpSlEntry, state: CurrentState): Position | null;
export function currentOf(entry: AllowedPairsEntry, state: CurrentState): CopyRule | null;
export function currentOf(entry: OutboxEntry, state: CurrentState): Position | CopyRule | null;
export function currentOf(entry: OutboxEntry, state: CurrentState): Position | CopyRule | null {
  if (entry.kind === 'allowed-pairs') return state.rules?.find((r) => r.master_id === entry.request.master_id) ?? null;
  const rows = state.positions.get(entry.request.portfolio ?? '') ?? [];
  return rows.find((p) => positionKeyOf(p) === entry.seen.position_key) ?? null;
}

export type DropReason = 'expired' | 'gone' | 'changed' | 'applied';
export type Review = { verdict: 'ready' } | { verdict: 'drop'; reason: DropReason; message: string };

/** Prices as the feed rounds them: equal within a billionth of their size. */
export function samePrice(a: number | null, b: number | null): boolean {
  if (a === null || b === null) return a === b;
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

export function samePairs(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((p) => right.has(p));
}

/** "15 min", "24 h": an expiry as the messages give it. */
export function formatDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = minutes / 60;
  return Number.isInteger(hours) ? `${hours} h` : `${Math.floor(hours)} h ${minutes % 60} min`;
}

/** The change in a few words: what it is about. */
export function entryLabel(entry: OutboxEntry): string {
  if (entry.kind === 'allowed-pairs') return `Pairs of ${entry.seen.account_name}`;
  return `TP/SL of ${entry.seen.u_symbol} ${entry.seen.type} (${entry.seen.account_name})`;
}

/** What the change asks for. */
export function entryChange(entry: OutboxEntry): string {
  if (entry.kind === 'allowed-pairs') return pairsText(entry.request.new_allowed_pairs);
  return `SL ${formatPrice(entry.request.stop_loss, entry.request.symbol)} · TP ${formatPrice(entry.request.take_profit, entry.request.symbol)}`;
}

export const pairsText = (pairs: readonly string[]): string => (pairs.length ? pairs.join(', ') : 'none');

/** What going from one list of pairs to another does: "adds AUDCAD · removes EURUSD" ("no difference" when none). */
export function pairsDelta(from: readonly string[], to: readonly string[]): string {
  const added = to.filter((p) => !from.includes(p));
  const removed = from.filter((p) => !to.includes(p));
  const parts = [added.length ? `adds ${added.join(', ')}` : null, removed.length ? `removes ${removed.join(', ')}` : null].filter(Boolean);
  return parts.length ? parts.join(' · ') : 'no difference';
}
export const levelsText = (p: { sl: number | null; tp: number | null }): string => `SL ${formatPrice(p.sl)} · TP ${formatPrice(p.tp)}`;

/** "<label> not sent: <why>.", one full stop even when `why` ends with the server's own. */
const notSent = (entry: OutboxEntry, why: string) => `${entryLabel(entry)} not sent: ${why.replace(/[.\s]+$/, '')}.`;

/**
 * Whether a kept change may be offered for sending, against the position or rule as it is now
 * (`current`, null when gone): not once expired; not when its position is closed or its rule gone;
 * not when it is already on the server (the first attempt got through and only its answer was lost);
 * not when what it was based on changed since (another user, or the same one elsewhere, set
 * other stops or pairs: sending would silently undo that).
 */
export function reviewEntry(entry: OutboxEntry, current: Position | CopyRule | null, now: number): Review {
  const drop = (reason: DropReason, why: string): Review => ({ verdict: 'drop', reason, message: notSent(entry, why) });
  if (isExpired(entry, now)) return { verdict: 'drop', reason: 'expired', message: expiredMessage(entry) };
  if (entry.kind === 'tp-sl') {
    const position = current as Position | null;
    if (position === null) return drop('gone', 'the position is closed or gone');
    if (samePrice(position.sl, entry.request.stop_loss) && samePrice(position.tp, entry.request.take_profit)) {
      return { verdict: 'drop', reason: 'applied', message: `${entryLabel(entry)}: already on the server, nothing to send.` };
    }
    if (!samePrice(position.sl, entry.seen.sl) || !samePrice(position.tp, entry.seen.tp)) {
      return drop('changed', `its SL/TP changed on the server since you edited it (you saw ${levelsText(entry.seen)}, now ${levelsText(position)})`);
    }
    return { verdict: 'ready' };
  }
  const rule = current as CopyRule | null;
  if (rule === null) return drop('gone', 'the master’s copy rule is gone');
  if (samePairs(rule.allowed_pairs, entry.request.new_allowed_pairs)) {
    return { verdict: 'drop', reason: 'applied', message: `${entryLabel(entry)}: already on the server, nothing to send.` };
  }
  if (!samePairs(rule.allowed_pairs, entry.seen.allowed_pairs)) {
    return drop('changed', `its allowed pairs changed since you edited them (you saw ${pairsText(entry.seen.allowed_pairs)}, now ${pairsText(rule.allowed_pairs)})`);
  }
  return { verdict: 'ready' };
}

/** Why an expired change is not sent. */
export function expiredMessage(entry: OutboxEntry): string {
  return notSent(entry, `it expired (changes made offline are kept ${formatDuration(entry.expires_at - entry.created_at)})`);
}

/** The message of a confirmed send the server refused (4xx): its own words. */
export function refusedMessage(entry: OutboxEntry, serverMessage: string): string {
  return notSent(entry, `the server refused it: ${serverMessage}`);
}

/** Pending TP/SL changes shown on a position row: those made on that row. */
export function pendingForPosition(entries: readonly OutboxEntry[], p: Pick<Position, 'account_name' | 'u_symbol' | 'type'>): TpSlEntry | undefined {
  const key = positionKeyOf(p);
  return entries.find((e): e is TpSlEntry => e.kind === 'tp-sl' && e.seen.position_key === key);
}

/** The pending pairs change of a master, if any. */
export function pendingForMaster(entries: readonly OutboxEntry[], masterId: string): AllowedPairsEntry | undefined {
  return entries.find((e): e is AllowedPairsEntry => e.kind === 'allowed-pairs' && e.request.master_id === masterId);
}
