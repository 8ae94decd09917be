import type { CashMovement, IncomeKind, IncomeOrCharge } from '#shared/domain/broker-events.ts';
import type { StatementBook } from './book.ts';
import { momentOf, numberOf } from './fields.ts';
import { idOf } from './refs.ts';
import type { FlexRow } from './walk.ts';
import { counted } from './warnings.ts';

/*
 * The CashTransactions section → cash movements and incomes or charges. IB can list them in DETAIL and
 * in SUMMARY rows at once: DETAIL is booked when it is there. Amounts keep IB's sign: a dividend
 * reversed is a negative dividend, fees that cancel each other are both booked.
 */

/** IB's cash transaction types (letters only, lower case: "Deposits/Withdrawals" and "Deposits & Withdrawals" alike). */
const INCOME: Record<string, IncomeKind> = {
  dividends: 'dividend',
  paymentinlieuofdividends: 'dividend',
  withholdingtax: 'withholding_tax',
  '871mwithholding': 'withholding_tax',
  brokerinterestpaid: 'interest',
  brokerinterestreceived: 'interest',
  bondinterestpaid: 'interest',
  bondinterestreceived: 'interest',
  bondinterest: 'interest',
  otherfees: 'fee',
  fees: 'fee',
  advisorfees: 'fee',
  brokerfees: 'fee',
  commissionadjustments: 'commission',
};
const DEPOSITS = new Set(['depositswithdrawals', 'depositsandwithdrawals', 'deposits', 'withdrawals']);
/** A transfer between IB accounts rather than money from outside: IB names the other account (U1234567). */
const INTERNAL = /INTERNAL\s+TRANSFER|TRANSFER\s+(?:TO|FROM)\s+[A-Z]{1,2}\d{4,}/i;

export function bookCashTransactions(rows: readonly FlexRow[], book: StatementBook): void {
  const all = rows.filter((r) => r.tag === 'CashTransaction');
  const level = (r: FlexRow) => (r.attrs.levelOfDetail ?? '').trim().toUpperCase();
  const detailed = all.some((r) => level(r) === 'DETAIL');
  const seen = new Set<number>();
  for (const row of all) {
    if (detailed && level(row) !== 'DETAIL') continue;
    const id = idOf(row.attrs.transactionID);
    if (id !== null && seen.has(id)) {
      book.warnings.add('cash-repeat', (n) => `${counted(n, 'cash transaction')} listed again with the same transactionID booked once`);
      continue;
    }
    if (id !== null) seen.add(id);
    bookRow(row, book);
  }
}

function bookRow(row: FlexRow, book: StatementBook): void {
  const a = row.attrs;
  const moment = momentOf(row, book.order);
  const amount = numberOf(a.amount);
  if (moment === null || amount === null) {
    book.warnings.add('cash-unreadable', (n) => `${counted(n, 'cash transaction')} without a readable date or amount left out`);
    return;
  }
  const currency = (a.currency ?? '').trim();
  book.move(currency, amount);
  const rate = book.rate(currency, moment.day, a.fxRateToBase);
  if (rate === null) return book.leftOut(currency);

  const base = { ref: book.refs.of(row.tag, a), at: moment.at, currency, rate };
  const type = (a.type ?? '').toLowerCase().replace(/[^a-z0-9]/g, '');
  if (DEPOSITS.has(type)) {
    const internal = INTERNAL.test(a.description ?? '') || INTERNAL.test(a.clientReference ?? '');
    const movement: CashMovement = { kind: 'cash', ...base, flow: internal ? 'transfer' : amount >= 0 ? 'deposit' : 'withdrawal', amount };
    book.add(movement, row);
    return;
  }
  let income = INCOME[type];
  if (income === undefined) {
    const name = (a.type ?? '').trim();
    book.warnings.add(`cash-type:${name}`, (n) => `${counted(n, 'cash transaction')} of unknown type '${name}' booked as corrections`);
    income = 'correction';
  }
  const symbol = (a.symbol ?? '').trim();
  const event: IncomeOrCharge = { kind: 'income', ...base, income, amount, symbol: symbol === '' ? null : symbol };
  book.add(event, row);
}
