import type { WriteContext } from '#server/broker/port.ts';
import type { Queryable } from './database.ts';

/**
 * The broker port's WriteContext is, to the database layer, the transaction a write runs in: an
 * adapter hands its transaction to the caller's InTransaction, which writes its rows (the audit
 * row) in it.
 */
export function writeContextOf(tx: Queryable): WriteContext {
  return tx as unknown as WriteContext;
}

export function queryableOf(ctx: WriteContext): Queryable {
  return ctx as unknown as Queryable;
}
