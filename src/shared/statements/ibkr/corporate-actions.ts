import type { CorporateAction, CorporateActionKind, IncomeOrCharge } from '#shared/domain/broker-events.ts';
import type { StatementBook } from './book.ts';
import { amountOf, assetClassOf, momentOf, numberOf, positionOf } from './fields.ts';
import type { FlexRow } from './walk.ts';
import { counted } from './warnings.ts';

/*
 * The CorporateActions section → corporate actions on positions. IB lists an action as one row per
 * instrument it touches, often without a type or a transactionID: the shares leaving (−12 000 UUU) and
 * the shares arriving (+12 000 UUU.TEN2) share the time and the description before its last bracket
 * ("UUU(CA91701P1053) TENDERED TO CA91701P1TN3 1 FOR 1"). Such a pair becomes one action moving the
 * position and its cost `into` the new instrument; a row leaving alone for cash (a merger for cash)
 * closes the position at its proceeds, with IB's realized result.
 */

interface ActionRow {
  row: FlexRow;
  at: number;
  day: string;
  quantity: number;
  family: string;
}

/** IB's action type codes (CorporateAction@type) the books tell apart. */
const TYPES: Record<string, CorporateActionKind> = {
  FS: 'split',
  RS: 'split',
  CS: 'split',
  FI: 'split',
  TC: 'merger',
  TO: 'tender',
  TI: 'tender',
  SO: 'spinoff',
  CO: 'spinoff',
};

export function bookCorporateActions(rows: readonly FlexRow[], book: StatementBook): void {
  const all = rows.filter((r) => r.tag === 'CorporateAction');
  const level = (r: FlexRow) => (r.attrs.levelOfDetail ?? '').trim().toUpperCase();
  const detailed = all.some((r) => level(r) === 'DETAIL');
  const groups = new Map<string, ActionRow[]>();
  for (const row of all) {
    if (detailed && level(row) !== 'DETAIL') continue;
    const moment = momentOf(row, book.order);
    if (moment === null) {
      book.warnings.add('action-date', (n) => `${counted(n, 'corporate action row')} without a readable date left out`);
      continue;
    }
    const read: ActionRow = { row, at: moment.at, day: moment.day, quantity: amountOf(row.attrs.quantity), family: familyOf(row.attrs.description ?? '') };
    const key = `${read.at}|${read.family}`;
    groups.set(key, [...(groups.get(key) ?? []), read]);
  }
  const parents = instrumentsByIsin(rows);
  for (const group of groups.values()) bookGroup(group, parents, book);
}

/** The description without its last bracket (the row's own instrument): the same for every row of one action. */
export function familyOf(description: string): string {
  return description
    .replace(/\s*\([^()]*\)\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase();
}

/** What an action does: IB's type code where the row has one, else its description. */
export function kindOf(type: string | undefined, family: string): CorporateActionKind {
  const byType = TYPES[(type ?? '').trim().toUpperCase()];
  if (byType) return byType;
  if (/\bSPLIT\b/.test(family)) return 'split';
  if (/SPIN-?\s?OFF/.test(family)) return 'spinoff';
  if (/\bMERGE[DR]?\b|\bACQUI/.test(family)) return 'merger';
  if (/\bTENDER/.test(family)) return 'tender';
  return 'other';
}

function bookGroup(group: readonly ActionRow[], parents: ReadonlyMap<string, Instrument>, book: StatementBook): void {
  const leaving = group.filter((r) => r.quantity < 0);
  const arriving = group.filter((r) => r.quantity > 0);
  for (const r of group) book.move((r.row.attrs.currency ?? '').trim(), amountOf(r.row.attrs.proceeds));
  for (const r of group.filter((g) => g.quantity === 0)) cashOnly(r, book);
  // Rows pair in file order; what is left over (a merger into two new lines) stands alone: an extra
  // arrival opens at no cost rather than taking a cost the engine cannot split.
  const pairs = Math.min(leaving.length, arriving.length);
  for (let i = 0; i < pairs; i++) {
    const [out, into] = [leaving[i], arriving[i]];
    const event = out && into ? pairAction(out, into, book) : null;
    if (out && event) book.add(event, out.row);
  }
  for (const out of leaving.slice(pairs)) alone(out, book);
  for (const into of arriving.slice(pairs)) arrival(into, parents, book);
}

/** The shares leaving and those arriving for them: one action moving the position's cost into the new instrument. */
function pairAction(out: ActionRow, into: ActionRow, book: StatementBook): CorporateAction | null {
  const event = actionOf(out, book);
  if (event === null) return null;
  if (event.proceeds !== 0) {
    book.warnings.add(
      'action-cash-and-shares',
      (n) => `${counted(n, 'corporate action')} paying cash beside new shares: the cash is in the balance, its result is not in the realized P/L`,
    );
  }
  return {
    ...event,
    into: { position: positionOf(into.row.attrs), symbol: (into.row.attrs.symbol ?? '').trim(), quantity: into.quantity, costShare: 1 },
  };
}

/** Shares leaving for nothing but cash (a merger or tender for cash, a delisting): closed at the proceeds, with IB's result. */
function alone(out: ActionRow, book: StatementBook): void {
  const event = actionOf(out, book);
  if (event === null) return;
  book.add({ ...event, realizedNet: numberOf(out.row.attrs.fifoPnlRealized) }, out.row);
}

/**
 * Shares arriving alone: a spin-off of a parent the statement knows (by the ISIN its description names)
 * moves a share of the parent's cost; Flex states no allocation, so that share is 0 (the parent keeps
 * its cost, the new shares open at none). Anything else (a forward split under the same contract, a
 * stock dividend, a spin-off of an unknown parent) adds the shares to their own position.
 */
function arrival(into: ActionRow, parents: ReadonlyMap<string, Instrument>, book: StatementBook): void {
  const event = actionOf(into, book);
  if (event === null) return;
  const parentIsin = /^[^(]*\(([A-Z]{2}[A-Z0-9]{9}\d)\)/.exec(into.family)?.[1];
  const parent = parentIsin ? parents.get(parentIsin) : undefined;
  if (event.action === 'spinoff' && parent && parent.position !== event.position) {
    book.add(
      {
        ...event,
        position: parent.position,
        symbol: parent.symbol,
        quantity: 0,
        into: { position: event.position, symbol: event.symbol, quantity: into.quantity, costShare: 0 },
      },
      into.row,
    );
    return;
  }
  book.add(event, into.row);
}

/** A row of an action that moves no shares but money (cash in lieu, a fee): booked as a correction of the balance. */
function cashOnly(r: ActionRow, book: StatementBook): void {
  const a = r.row.attrs;
  const amount = amountOf(a.proceeds);
  if (amount === 0) return;
  const currency = (a.currency ?? '').trim();
  const rate = book.rate(currency, r.day, a.fxRateToBase);
  if (rate === null) return book.leftOut(currency);
  const event: IncomeOrCharge = { kind: 'income', ref: book.refs.of(r.row.tag, a), at: r.at, currency, rate, income: 'correction', amount, symbol: (a.symbol ?? '').trim() || null };
  book.add(event, r.row);
}

/** The action as its row states it, without a partner; null (counted as missing) without a rate. */
function actionOf(r: ActionRow, book: StatementBook): CorporateAction | null {
  const a = r.row.attrs;
  const currency = (a.currency ?? '').trim();
  const rate = book.rate(currency, r.day, a.fxRateToBase);
  if (rate === null) {
    book.leftOut(currency);
    return null;
  }
  return {
    kind: 'corporate_action',
    ref: book.refs.of(r.row.tag, a),
    at: r.at,
    currency,
    rate,
    action: kindOf(a.type, r.family),
    position: positionOf(a),
    symbol: (a.symbol ?? '').trim(),
    assetClass: assetClassOf(a),
    quantity: r.quantity,
    proceeds: amountOf(a.proceeds),
    realizedNet: null,
    into: null,
    multiplier: numberOf(a.multiplier) || 1,
  };
}

interface Instrument {
  position: number;
  symbol: string;
}

/** The statement's instruments by ISIN (trades, positions, actions), to find a spin-off's parent. */
function instrumentsByIsin(rows: readonly FlexRow[]): Map<string, Instrument> {
  const found = new Map<string, Instrument>();
  for (const { attrs } of rows) {
    const isin = (attrs.isin ?? '').trim() || ((attrs.securityIDType ?? '') === 'ISIN' ? (attrs.securityID ?? '').trim() : '');
    if (isin === '' || attrs.conid === undefined || found.has(isin)) continue;
    found.set(isin, { position: positionOf(attrs), symbol: (attrs.symbol ?? '').trim() });
  }
  return found;
}
