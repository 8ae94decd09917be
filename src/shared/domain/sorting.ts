/**
 * Column sorting shared by the NAV, rebates and brokers tables (docs/product.md#states): the first click on a
 * column sorts ascending, a click on the same column flips the direction. Missing values
 * (null, undefined, NaN) always sort last, whichever the direction.
 */
export type SortDirection = 'asc' | 'desc';

export interface SortState<K extends string = string> {
  key: K;
  direction: SortDirection;
}

/** Sort state after clicking `clickedKey`: a new column sorts ascending; the same column toggles asc ↔ desc. */
export function nextSort<K extends string>(current: SortState<K> | null, clickedKey: K): SortState<K> {
  if (current === null || current.key !== clickedKey) return { key: clickedKey, direction: 'asc' };
  return { key: clickedKey, direction: current.direction === 'asc' ? 'desc' : 'asc' };
}

// A fixed locale keeps the order the same on every machine; numeric collation puts "9" before "10".
// Built on the first text comparison, not when the module loads: a screen that never sorts text
// does not pay for the collation data.
let collator: Intl.Collator | undefined;
const textCollator = (): Intl.Collator => (collator ??= new Intl.Collator('en', { numeric: true, sensitivity: 'base' }));

function isMissing(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'number' && Number.isNaN(value));
}

/** Ascending comparison: numbers numerically, text by numeric-aware collation, numbers before text, missing last. */
export function compareValues(a: unknown, b: unknown): number {
  const aMissing = isMissing(a);
  const bMissing = isMissing(b);
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return textCollator().compare(String(a), String(b));
}

/** compareValues in the given direction, keeping missing values last in both directions. */
export function compareDirected(a: unknown, b: unknown, direction: SortDirection): number {
  const result = compareValues(a, b);
  if (direction === 'asc' || isMissing(a) || isMissing(b) || result === 0) return result;
  return -result;
}

/** A sorted copy of `rows` (stable); `valueOf` reads computed columns, by default the row's own field. */
export function sortRows<T, K extends string>(
  rows: readonly T[],
  sort: SortState<K> | null,
  valueOf: (row: T, key: K) => unknown = (row, key) => (row as Record<string, unknown>)[key],
): T[] {
  if (sort === null) return [...rows];
  return [...rows].sort((a, b) => compareDirected(valueOf(a, sort.key), valueOf(b, sort.key), sort.direction));
}
