import type { BooksStore } from '#server/ledger/port.ts';
import { readBooks, writeBooks } from './accounts-repo.ts';
import { insertAlerts } from './alerts-repo.ts';
import type { Database } from './database.ts';
import { balanceMoves, dealsByTickets, deleteDealsByTickets, insertDeals } from './deals-repo.ts';
import { entryChargeMoves } from './entry-charges-repo.ts';
import { insertFees, lastPerformanceCharge, termsHistory } from './fees-repo.ts';
import { accountsEnded, insertNav, lastNavDay, saveDerivedNav } from './nav-repo.ts';
import { addRebates, setProfitSharing } from './rebates-repo.ts';
import { queryableOf, writeContextOf } from './write-context.ts';

/** The ledger's storage (its port, src/server/ledger/port.ts) on this database: each write is a transaction. */
export function booksStore(db: Database): BooksStore {
  return {
    transaction: (fn) => db.transaction((tx) => fn(writeContextOf(tx))),
    readBooks: (ctx, accountIds) => readBooks(queryableOf(ctx), accountIds),
    writeBooks: (ctx, books) => writeBooks(queryableOf(ctx), books),
    insertDeals: (ctx, deals) => insertDeals(queryableOf(ctx), deals),
    dealsByTickets: (ctx, accountId, tickets) => dealsByTickets(queryableOf(ctx), accountId, tickets),
    deleteDealsByTickets: (ctx, accountId, tickets) => deleteDealsByTickets(queryableOf(ctx), accountId, tickets),
    balanceMoves: (ctx, accountId) => balanceMoves(queryableOf(ctx), accountId),
    entryChargeMoves: (ctx, accountId) => entryChargeMoves(queryableOf(ctx), accountId),
    insertNav: (ctx, rows) => insertNav(queryableOf(ctx), rows),
    saveDerivedNav: (ctx, accountId, rows, firstDay) => saveDerivedNav(queryableOf(ctx), accountId, rows, firstDay),
    accountsEnded: (ctx, day) => accountsEnded(queryableOf(ctx), day),
    lastNavDay: () => lastNavDay(db),
    addRebates: (ctx, entries) => addRebates(queryableOf(ctx), entries),
    setProfitSharing: (ctx, entries) => setProfitSharing(queryableOf(ctx), entries),
    feeTerms: (ctx, accountIds) => termsHistory(queryableOf(ctx), accountIds),
    insertFees: (ctx, entries) => insertFees(queryableOf(ctx), entries),
    lastPerformanceCharge: (ctx, accountId) => lastPerformanceCharge(queryableOf(ctx), accountId),
    insertAlerts: (ctx, alerts) => insertAlerts(ctx === null ? db : queryableOf(ctx), alerts),
  };
}
