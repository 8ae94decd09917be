import { finiteOrZero } from './stats.ts';
import { cents } from '#shared/domain/money.ts';

/** Rebate (IB cashback) = lots traded × rate per lot (docs/figures.md R1). */
export function rebateAmount(lots: number, ratePerLot: number): number {
  const amount = lots * ratePerLot;
  return finiteOrZero(amount);
}

/** % rebate = total rebate / balance × 100, 0 when the balance is ≤ 0 (docs/product.md#validation, docs/figures.md R1). */
export function rebatePercent(totalRebate: number, balance: number): number {
  if (!Number.isFinite(balance) || balance <= 0 || !Number.isFinite(totalRebate)) return 0;
  return (totalRebate / balance) * 100;
}

/** Performance fee with a high-water mark: fee = rate × max(0, equity − HWM), HWM = max(HWM, equity − fee) (docs/figures.md H1). */
export function settleProfitSharing(rate: number, equity: number, hwm: number): { fee: number; hwm: number } {
  if (![rate, equity, hwm].every((x) => Number.isFinite(x))) {
    return { fee: 0, hwm: finiteOrZero(hwm) };
  }
  const fee = cents(Math.max(0, rate) * Math.max(0, equity - hwm));
  return { fee, hwm: Math.max(hwm, equity - fee) };
}

/** Deposits raise and withdrawals (negative amounts) lower the high-water mark, never below 0 (docs/figures.md, ours). */
export function adjustHwmForCashFlow(hwm: number, amount: number): number {
  const base = finiteOrZero(hwm);
  return Math.max(0, base + finiteOrZero(amount));
}
