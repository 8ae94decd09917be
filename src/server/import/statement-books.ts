import type { IngestStatement } from '#shared/contract/ingest.ts';
import { cents } from '#shared/domain/money.ts';
import { openingEntries } from '#shared/domain/opening-balance.ts';
import { readBooks } from '#server/db/accounts-repo.ts';
import type { Queryable } from '#server/db/database.ts';
import { balanceMoves } from '#server/db/deals-repo.ts';
import { balanceAnchors, saveBalanceAnchor, saveStatementEquity } from '#server/db/statement-repo.ts';
import { writeContextOf } from '#server/db/write-context.ts';
import type { Ledger } from '#server/ledger/ledger.ts';

/** What booking a statement's own figures left: the opening balance booked before its first deal, and the account's figures. */
export interface StatementBooked {
  /** The opening balance entry before this statement's first deal (null: none, its rows explain the balance). */
  opening: number | null;
  balance: number;
  equity: number;
}

/**
 * Books what an imported statement states beyond its deals, in the import's transaction, after its
 * deals: its opening anchor, then the opening balance entries every anchor of the account calls for
 * (src/shared/domain/opening-balance.ts: entries that changed are taken back and booked again), and the
 * account's equity — its balance now plus the floating result of the positions the statement lists.
 * The end-of-day NAV derived from the deals follows the opening entries it changed.
 */
export async function bookStatement(
  tx: Queryable,
  ledger: Ledger,
  accountId: number,
  statement: IngestStatement,
  nowS: number,
): Promise<StatementBooked> {
  // The account's books are locked before anything of them is read, with the lock an agent's batch
  // takes to book (readBooks, FOR NO KEY UPDATE): no batch books deals of the account between what is
  // read here and the entries booked from it; a batch holding it is waited for, and its deals are read.
  await readBooks(tx, [accountId]);
  if (statement.opening) await saveBalanceAnchor(tx, accountId, statement.opening.before_ticket, statement.opening.balance);
  const anchors = await balanceAnchors(tx, accountId);
  let opening: number | null = null;
  if (anchors.length > 0) {
    const rows = await balanceMoves(tx, accountId);
    const moves = rows.filter((r) => !r.opening).map((r) => ({ time: r.at, ticket: r.ticket, amount: r.money }));
    const openings = rows.filter((r) => r.opening && r.ticket !== null).map((r) => ({ ticket: r.ticket!, at: r.at, amount: r.money }));
    const wanted = openingEntries(anchors, moves);
    const same = (a: { at: number; amount: number }, b: { at: number; amount: number }) => a.at === b.at && cents(a.amount) === cents(b.amount);
    const wantedBy = new Map(wanted.map((entry) => [entry.ticket, entry]));
    const storedBy = new Map(openings.map((entry) => [entry.ticket, entry]));
    const takeBack = openings.filter((entry) => !wantedBy.has(entry.ticket) || !same(wantedBy.get(entry.ticket)!, entry));
    const record = wanted.filter((entry) => !storedBy.has(entry.ticket) || !same(storedBy.get(entry.ticket)!, entry));
    if (takeBack.length) await ledger.unrecord(writeContextOf(tx), accountId, takeBack.map((entry) => entry.ticket));
    if (record.length) {
      await ledger.record(
        writeContextOf(tx),
        record.map((entry) => ({ accountId, ticket: entry.ticket, at: entry.at, amount: entry.amount, rebalancing: false, opening: true })),
      );
    }
    // The end-of-day NAV derived from the deals moves with the opening entries, from the earliest one changed.
    const changedFrom = Math.min(...takeBack.map((entry) => entry.at), ...record.map((entry) => entry.at));
    if (Number.isFinite(changedFrom)) await ledger.deriveNav(writeContextOf(tx), accountId, changedFrom, nowS);
    if (statement.opening) opening = wantedBy.get(-statement.opening.before_ticket)?.amount ?? null;
  }
  const [book] = await readBooks(tx, [accountId]);
  const balance = book?.balance ?? 0;
  const equity = cents(balance + statement.floating);
  await saveStatementEquity(tx, accountId, equity);
  return { opening, balance, equity };
}
