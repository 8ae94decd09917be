import { describe, expect, it } from 'vitest';
import { cents, roundTo } from './money.ts';

describe('roundTo', () => {
  it('rounds half away from zero', () => {
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(-1.005, 2)).toBe(-1.01);
    expect(roundTo(1.0834366666, 5)).toBe(1.08344);
    expect(roundTo(-0.001, 2)).toBe(0);
    expect(Object.is(roundTo(-0.001, 2), -0)).toBe(false);
  });
  it('maps non-finite to 0', () => expect(roundTo(Number.NaN, 2)).toBe(0));
});

describe('cents', () => {
  it('keeps an amount to the cent: 0.1 + 0.2 is 0,30 and 2.675 is 2,68', () => {
    expect(cents(0.1 + 0.2)).toBe(0.3);
    expect(cents(2.675)).toBe(2.68);
    expect(cents(-2.675)).toBe(-2.68);
  });
});
