import { cents } from '#shared/domain/money.ts';
import { DEAL_TYPE } from '#shared/contract/ingest.ts';
import { dealReasonLabel, type DealReason } from './deal.ts';

/**
 * The MetaTrader mapping's half that knows MT5's deal types (ENUM_DEAL_TYPE): what each does to an
 * account's books, the one answer the statement readers (src/shared/statements) and the mapping onto
 * neutral events (src/shared/domain/mt5-events.ts) share, so the balance a report's rows add up to is
 * the balance the books reach (docs/architecture.md, "Deal types on the books"; docs/ingest-api.md).
 * Past the mapping, nothing knows these numbers:
 *
 * - `trade` (buy, sell): a part of a position; the books book its round trip when it closes.
 * - `flow` (balance, bonus): money brought into the account or taken out of it, a deposit or a
 *   withdrawal: it opens a new sub-period of the growth and moves the high-water mark. A bonus is the
 *   broker's money, not the account's performance: it counts as capital brought in, as a deposit.
 * - `rebate` (agent commission, daily or monthly): the introducing broker's rebate, income.
 * - `result` (charge, correction, commission, daily and monthly commission, interest, dividend,
 *   franked dividend, tax): a result of the account as a whole, like a trade's: it moves the balance,
 *   the NAV and the growth, never the high-water mark.
 * - `none` (credit, a canceled buy or sell, a type MT5 does not define): it moves no balance (MT5 keeps
 *   a credit apart from the balance).
 */
export type DealRole = 'trade' | 'flow' | 'rebate' | 'result' | 'none';

const ROLES: ReadonlyMap<number, DealRole> = new Map<number, DealRole>([
  [DEAL_TYPE.buy, 'trade'],
  [DEAL_TYPE.sell, 'trade'],
  [DEAL_TYPE.balance, 'flow'],
  [DEAL_TYPE.bonus, 'flow'],
  [DEAL_TYPE.agentDaily, 'rebate'],
  [DEAL_TYPE.agentMonthly, 'rebate'],
  [DEAL_TYPE.charge, 'result'],
  [DEAL_TYPE.correction, 'result'],
  [DEAL_TYPE.commission, 'result'],
  [DEAL_TYPE.commissionDaily, 'result'],
  [DEAL_TYPE.commissionMonthly, 'result'],
  [DEAL_TYPE.interest, 'result'],
  [DEAL_TYPE.dividend, 'result'],
  [DEAL_TYPE.dividendFranked, 'result'],
  [DEAL_TYPE.tax, 'result'],
]);

/** What a deal of this MT5 type is to the books. */
export const dealRole = (type: number): DealRole => ROLES.get(type) ?? 'none';

/** A deal's type and money, as the ingest contract and the statement readers carry them. */
export interface DealMoney {
  type: number;
  profit: number;
  commission: number;
  fee: number;
  swap: number;
}

/**
 * What a deal does to the balance when MT5 books it: its profit, commission, fee and swap, to the cent
 * (a trade's commission and swap, and a balance operation's amount, whichever column holds them); 0 for
 * a deal that moves no balance (a credit, a canceled order).
 */
export function balanceEffect(deal: DealMoney): number {
  return dealRole(deal.type) === 'none' ? 0 : cents(deal.profit + deal.commission + deal.fee + deal.swap);
}

/** What a balance-moving MT5 deal type is in the neutral model (src/shared/domain/broker-events.ts). */
const REASONS: ReadonlyMap<number, DealReason> = new Map<number, DealReason>([
  [DEAL_TYPE.charge, 'charge'],
  [DEAL_TYPE.correction, 'correction'],
  [DEAL_TYPE.bonus, 'bonus'],
  [DEAL_TYPE.commission, 'commission'],
  [DEAL_TYPE.commissionDaily, 'commission_daily'],
  [DEAL_TYPE.commissionMonthly, 'commission_monthly'],
  [DEAL_TYPE.interest, 'interest'],
  [DEAL_TYPE.dividend, 'dividend'],
  [DEAL_TYPE.dividendFranked, 'dividend_franked'],
  [DEAL_TYPE.tax, 'tax'],
]);

/** The neutral reason of a bonus or a result of the account booked from a deal of this MT5 type; null for the others. */
export const mt5Reason = (type: number): DealReason | null => REASONS.get(type) ?? null;

/**
 * The deal list's type of a balance row booked from a deal of this MT5 type, where the row's kind
 * does not name it ('Charge', 'Interest', 'Bonus' …); null for the others (a balance deal is a
 * 'Deposit' or 'Withdrawal', an agent commission a 'Rebate').
 */
export const dealTypeLabel = (type: number | null): string | null => (type === null ? null : dealReasonLabel(mt5Reason(type)));
