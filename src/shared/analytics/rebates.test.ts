import { describe, expect, it } from 'vitest';
import { adjustHwmForCashFlow, rebateAmount, rebatePercent, settleProfitSharing } from './rebates.ts';

describe('rebates', () => {
  it('R1: 12.5 lots × 7 USD = 87.50 USD, 0.35 % of 25,000', () => {
    expect(rebateAmount(12.5, 7)).toBe(87.5);
    expect(rebatePercent(87.5, 25_000)).toBeCloseTo(0.35, 10);
  });
  it('% rebate is 0 when the balance is zero, negative or not finite', () => {
    expect(rebatePercent(87.5, 0)).toBe(0);
    expect(rebatePercent(87.5, -100)).toBe(0);
    expect(rebatePercent(87.5, Number.NaN)).toBe(0);
    expect(rebatePercent(87.5, Infinity)).toBe(0);
  });
  it('no lots, no rebate', () => expect(rebateAmount(0, 7)).toBe(0));
});

describe('profit sharing with a high-water mark', () => {
  it('H1: 25 % from 100,000 → fees 2,000, 1,250, 0; HWM 106,000, 109,750, 109,750', () => {
    const m1 = settleProfitSharing(0.25, 108_000, 100_000);
    expect(m1).toEqual({ fee: 2_000, hwm: 106_000 });
    const m2 = settleProfitSharing(0.25, 111_000, m1.hwm);
    expect(m2).toEqual({ fee: 1_250, hwm: 109_750 });
    const m3 = settleProfitSharing(0.25, 109_000, m2.hwm);
    expect(m3).toEqual({ fee: 0, hwm: 109_750 });
  });
  it('rounds the fee to cents', () => {
    expect(settleProfitSharing(0.2, 100_000.05, 100_000).fee).toBe(0.01);
  });
  it('charges nothing on a zero balance', () => expect(settleProfitSharing(0.25, 0, 0)).toEqual({ fee: 0, hwm: 0 }));
  it('deposits raise and withdrawals lower the HWM', () => {
    expect(adjustHwmForCashFlow(106_000, 10_000)).toBe(116_000);
    expect(adjustHwmForCashFlow(106_000, -6_000)).toBe(100_000);
    expect(adjustHwmForCashFlow(1_000, -5_000)).toBe(0);
  });
});
