import { describe, expect, it } from 'vitest';
import { formValuesOf, guardBodyOf, type GuardFormValues } from './guard-form-values.ts';

const typed = (v: Partial<GuardFormValues>): GuardFormValues => ({ basis: 'trailing_from_peak', unit: 'percent', period: 'day', warn: '', closeOnly: '', closeAll: '', ...v });

describe('the guard form to the contract’s SetGuardBody', () => {
  it('sends the levels typed (a decimal comma taken), an empty one as none, the period only for a period loss', () => {
    expect(guardBodyOf({ scope: 'relation', target: 6 }, typed({ warn: '15', closeOnly: '20,5', closeAll: '' }))).toEqual({
      body: { scope: 'relation', target: 6, basis: 'trailing_from_peak', unit: 'percent', warn: 15, close_only: 20.5, close_all: null },
    });
    expect(guardBodyOf({ scope: 'follower', target: 'acc-1' }, typed({ basis: 'period_loss', period: 'week', warn: '3' }))).toEqual({
      body: { scope: 'follower', target: 'acc-1', basis: 'period_loss', unit: 'percent', period: 'week', warn: 3, close_only: null, close_all: null },
    });
    // An equity floor is in money whatever the unit chosen before.
    expect(guardBodyOf({ scope: 'master', target: 'm' }, typed({ basis: 'equity_floor', closeOnly: '9000' }))).toMatchObject({ body: { unit: 'money', close_only: 9000 } });
  });

  it('says what is wrong before sending, the levels named as on screen', () => {
    expect(guardBodyOf({ scope: 'relation', target: 6 }, typed({ warn: 'abc' }))).toEqual({ problem: 'The warn level must be a number, or empty for none.' });
    expect(guardBodyOf({ scope: 'relation', target: 6 }, typed({}))).toEqual({ problem: 'Set at least one of warn, close-only, close-all.' });
    expect(guardBodyOf({ scope: 'relation', target: 6 }, typed({ warn: '20', closeOnly: '15' }))).toEqual({ problem: 'The levels must rise: warn < close-only < close-all.' });
    expect(guardBodyOf({ scope: 'relation', target: 6 }, typed({ closeAll: '120' }))).toEqual({ problem: 'A loss in % is at most 100.' });
  });

  it('fills the form from a guard already set, or with a new one’s defaults', () => {
    expect(formValuesOf(undefined)).toEqual(typed({}));
    expect(formValuesOf(undefined, 'equity_floor')).toEqual(typed({ basis: 'equity_floor', unit: 'money' }));
  });
});
