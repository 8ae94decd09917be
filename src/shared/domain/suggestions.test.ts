import { describe, expect, it } from 'vitest';
import { PIP_SIZE, PIP_SIZE_JPY, pipSize } from './instruments.ts';
import { coverAvailable, parseDecimalInput, roundSuggestion, suggestLevels } from './suggestions.ts';

describe('pip size', () => {
  it('is 0.01 for JPY pairs and 0.0001 otherwise', () => {
    expect(PIP_SIZE_JPY).toBe(0.01);
    expect(PIP_SIZE).toBe(0.0001);
    expect(pipSize('USDJPY')).toBe(0.01);
    expect(pipSize('eurjpy')).toBe(0.01);
    expect(pipSize('EURUSD')).toBe(0.0001);
  });
});

describe('coverAvailable', () => {
  it('is true only for a negative loss with a finite price', () => {
    expect(coverAvailable(-120.5, 1.085)).toBe(true);
  });
  it('is false for a zero or positive amount', () => {
    expect(coverAvailable(0, 1.085)).toBe(false);
    expect(coverAvailable(50, 1.085)).toBe(false);
  });
  it('is false without a loss amount or a computable price', () => {
    expect(coverAvailable(null, 1.085)).toBe(false);
    expect(coverAvailable(-10, null)).toBe(false);
    expect(coverAvailable(-10, Number.NaN)).toBe(false);
    expect(coverAvailable(-10, Number.POSITIVE_INFINITY)).toBe(false);
    expect(coverAvailable(Number.NaN, 1.085)).toBe(false);
  });
});

describe('parseDecimalInput', () => {
  it('accepts a dot or a comma as decimal separator', () => {
    expect(parseDecimalInput('1.2345')).toBe(1.2345);
    expect(parseDecimalInput('1,2345')).toBe(1.2345);
    expect(parseDecimalInput(' 150,25 ')).toBe(150.25);
    expect(parseDecimalInput('2')).toBe(2);
    expect(parseDecimalInput(',5')).toBe(0.5);
    expect(parseDecimalInput('-0.5')).toBe(-0.5);
  });
  it('rejects anything that is not a plain decimal', () => {
    for (const text of ['', ' ', 'abc', '1.2.3', '1,234.5', '1e5', '0x10', '1 234', '.', '-']) {
      expect(parseDecimalInput(text)).toBeNull();
    }
  });
});

describe('SL/TP suggestions (docs/figures.md M2)', () => {
  it('Buy EURUSD at 1.08500 with median MAE 20 and MFE 45 pips → SL 1.08300, TP 1.08950', () => {
    expect(suggestLevels('Buy', 1.085, 20, 45, pipSize('EURUSD'))).toEqual({ sl: 1.083, tp: 1.0895 });
  });
  it('Sell mirrors it: SL above, TP below', () => {
    // 1.08500 + 0.00200 = 1.08700; 1.08500 − 0.00450 = 1.08050.
    expect(suggestLevels('Sell', 1.085, 20, 45, PIP_SIZE)).toEqual({ sl: 1.087, tp: 1.0805 });
  });
  it('uses 0.01 pips on JPY pairs', () => {
    // Sell USDJPY at 150.250, MAE 30 pips = 0.30, MFE 50 pips = 0.50.
    expect(suggestLevels('Sell', 150.25, 30, 50, pipSize('USDJPY'))).toEqual({ sl: 150.55, tp: 149.75 });
  });
  it('rounds to 5 decimals', () => {
    expect(roundSuggestion(1.0833333333)).toBe(1.08333);
    expect(roundSuggestion(1.083336)).toBe(1.08334);
  });
});
