import { cents } from '#shared/domain/money.ts';

/**
 * Opening balances of imported statements (docs/statements.md, "Opening balance").
 *
 * A report that covers a period starts from a balance its rows do not explain: what the account held
 * before its first row. Each imported report leaves an anchor — "just before deal `ticket`, the balance
 * was `balance`" — and the books must agree with every anchor. The earliest anchor opens the account:
 * its balance, less whatever the books already hold before it, is booked just before its deal as the
 * opening balance, the account's starting capital. A later anchor the books do not reach by themselves
 * (history between two reports is missing) is made up the same way, by an opening balance entry just
 * before its deal, for the difference. So the entries depend only on the anchors and the rows, in
 * whichever order the reports were imported: importing one again changes nothing, and importing an
 * earlier or overlapping report later moves the opening to the earlier start and drops an entry that
 * its rows now explain.
 */

/** The balance just before a deal, as a report states it. */
export interface BalanceAnchor {
  /** The broker's ticket of the deal (the report's first). */
  ticket: number;
  /** Its time (epoch seconds): the entry is booked one second before it. */
  time: number;
  balance: number;
}

/** A row of the books that moves the balance: a closed trade's net or a cash flow's amount. */
export interface BalanceMove {
  time: number;
  /** Its broker ticket (the closing deal's, or the balance deal's); null when it has none. */
  ticket: number | null;
  amount: number;
}

/** An opening balance entry: an amount booked one second before its anchor's deal, keyed by −ticket. */
export interface OpeningEntry {
  /** −(the anchor's ticket): never a broker's ticket, so the entry has its own key among the deals. */
  ticket: number;
  at: number;
  amount: number;
}

const before = (move: BalanceMove, anchor: BalanceAnchor) =>
  move.time < anchor.time || (move.time === anchor.time && move.ticket !== null && move.ticket < anchor.ticket);

/** The opening balance entries that make the books agree with every anchor, oldest first; none where they already do. */
export function openingEntries(anchors: readonly BalanceAnchor[], moves: readonly BalanceMove[]): OpeningEntry[] {
  const ordered = [...anchors].sort((a, b) => a.time - b.time || a.ticket - b.ticket);
  const entries: OpeningEntry[] = [];
  for (const anchor of ordered) {
    const held = moves.reduce((sum, move) => (before(move, anchor) ? sum + move.amount : sum), 0);
    const booked = entries.reduce((sum, entry) => sum + entry.amount, 0);
    const amount = cents(anchor.balance - held - booked);
    if (amount !== 0) entries.push({ ticket: -anchor.ticket, at: anchor.time - 1, amount });
  }
  return entries;
}
