/**
 * Newest first, the order of the trade tables' default sort (Date, descending), for the cards that
 * stand for them on phones; equal times fall back to `key`, so rows opened in the same second keep
 * one order from one snapshot to the next instead of following the feed's.
 */
export function newestFirst<T>(items: readonly T[], time: (item: T) => number, key: (item: T) => string): T[] {
  return items.toSorted((a, b) => time(b) - time(a) || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
