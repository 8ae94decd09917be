import { describe, expect, it } from 'vitest';
import { fixture } from '../../../../tests/fixtures/ibkr/files.ts';
import { parseFlex } from './flex.ts';
import { RateBook } from './rates.ts';

/* Cash against IB's Cash Report, and the statement's own rates into base. */

describe('a Cash Report its rows do not add up to', () => {
  it('keeps the stated figure and names the currency and both figures in a warning', () => {
    // futures.xml with the USD ending cash raised by 10: its rows still add up to 10 000 + 495 + 495 = 10 990.
    const text = new TextDecoder()
      .decode(fixture('futures.xml'))
      .replace(/(currency="USD"[^>]*endingCash=")10990"/, (_, row: string) => `${row}11000"`);
    const { statements, warnings } = parseFlex(new TextEncoder().encode(text));
    expect(statements[0]?.cash[0]).toMatchObject({ currency: 'USD', start: 10000, end: 11000, stated: true });
    expect(warnings).toEqual([
      {
        message:
          'Account U9000013: the statement states 11 000.00 USD of cash at the end, but its rows add up to 10 990.00 USD (a difference of -10.00 USD); the stated figure is kept.',
        count: 1,
      },
    ]);
  });
});

describe("the statement's rates into base", () => {
  const rates = new RateBook('CHF');
  rates.addStated('USD', '2024-01-10', 0.9);
  rates.addStated('USD', '2024-01-20', 0.92);
  rates.addConversion('EUR', 'CHF', '2024-01-10', 0.95);
  rates.addConversion('EUR', 'CHF', '2024-01-15', 0.96);
  rates.addStated('EUR', '2024-01-15', 0.5);
  rates.addConversion('GBP', 'USD', '2024-01-15', 1.27);

  it('is 1 for the base itself', () => {
    expect(rates.on('CHF', '2000-01-01')).toBe(1);
  });

  it('takes the rate of the day, else the last before it, else the first after it', () => {
    expect(rates.on('USD', '2024-01-10')).toBe(0.9);
    expect(rates.on('USD', '2024-01-19')).toBe(0.9);
    expect(rates.on('USD', '2024-02-01')).toBe(0.92);
    expect(rates.on('USD', '2024-01-01')).toBe(0.9);
  });

  it('prefers ConversionRate rows to the rows’ fxRateToBase', () => {
    expect(rates.on('EUR', '2024-01-15')).toBe(0.96);
  });

  it('has no rate of a currency it was never given one of (nor of a conversion into another currency)', () => {
    expect(rates.on('GBP', '2024-01-15')).toBeNull();
    expect(rates.has('GBP')).toBe(false);
    expect(rates.on('JPY', '2024-01-15')).toBeNull();
  });
});
