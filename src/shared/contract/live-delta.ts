/**
 * Deltas of a live feed (docs/architecture.md, "Live feeds: deltas"): instead of every row at every
 * tick, a socket that asked for `updates=delta` gets a full snapshot carrying a `version`, then
 * messages of what changed since the version before. A delta names its `base` (the version it
 * applies to), the new row count, and per changed row its index and the fields that differ (a whole
 * row where the index is new). Rows are compared as the contract encodes them (figures rounded), so
 * a delta applied to the snapshot before it gives, value for value, the snapshot the server would
 * have sent. A client whose version is not the delta's base has missed a message: it sends
 * `{"type":"resync"}` and gets the current full snapshot.
 */
import { z } from 'zod';
import { Position } from './positions.ts';

/** A feed can hold no more rows than this (one per open position at most). */
const MAX_ROWS = 100_000;
const RowIndex = z.number().int().nonnegative().max(MAX_ROWS);

/** What changed in a feed's rows from version `base` to `version`. */
export const LiveDelta = z.object({
  type: z.literal('delta'),
  timestamp: z.number(),
  version: z.number().int().nonnegative(),
  base: z.number().int().nonnegative(),
  /** How many rows the feed has now: rows past it are gone. */
  length: RowIndex,
  /** [index, the fields of that row that differ] (the whole row where the index is new). */
  changes: z.array(z.tuple([RowIndex, Position.partial()])),
});
export type LiveDelta = z.infer<typeof LiveDelta>;

/** One row as the contract encodes it: every field a string, number, boolean or null. */
export type EncodedRow = Record<string, unknown>;

/**
 * The changes that turn `before` into `after` (both as encoded): a row at an index past `before`'s
 * end is sent whole; a row at an existing index, the fields whose value differs (a field missing from
 * `after`'s row is not possible: every row has every field).
 */
export function rowChanges(before: readonly EncodedRow[], after: readonly EncodedRow[]): [number, EncodedRow][] {
  const changes: [number, EncodedRow][] = [];
  for (let i = 0; i < after.length; i++) {
    const next = after[i]!;
    const prev = before[i];
    if (prev === undefined) {
      changes.push([i, next]);
      continue;
    }
    let changed: EncodedRow | undefined;
    for (const field in next) {
      if (!Object.is(prev[field], next[field])) (changed ??= {})[field] = next[field];
    }
    if (changed) changes.push([i, changed]);
  }
  return changes;
}

/**
 * A feed's rows after a delta, or null when the delta cannot apply: its base is not the version the
 * rows are at, or it leaves a new index without a whole row (the client then asks for a resync).
 */
export function applyDelta(rows: readonly Position[], version: number | null, delta: LiveDelta): Position[] | null {
  if (version === null || delta.base !== version) return null;
  const next = rows.slice(0, delta.length);
  for (const [index, patch] of delta.changes) {
    if (index >= delta.length) return null;
    const prev = index < rows.length ? next[index] : undefined;
    if (prev) next[index] = { ...prev, ...patch };
    else {
      const whole = Position.safeParse(patch);
      if (!whole.success) return null;
      next[index] = whole.data;
    }
  }
  // Every index up to the length must hold a row (a new index without one is a defect of the sender).
  for (let i = 0; i < delta.length; i++) if (next[i] === undefined) return null;
  return next;
}
