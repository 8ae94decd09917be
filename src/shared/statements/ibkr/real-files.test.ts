import { describe, expect, it } from 'vitest';
import type { BrokerEvent } from '#shared/domain/broker-events.ts';
import { replay } from '#shared/domain/round-trips.ts';
import { REAL_FOLDER, realPresent, realReport } from '../../../../tests/fixtures/ibkr/files.ts';
import { convertedCash } from './cash.ts';
import { parseFlex, type FlexFile, type FlexStatementRead } from './flex.ts';
import { RateBook } from './rates.ts';

/*
 * Conformance over four genuine Flex statements written by other people (../shared/real-reports/ibkr
 * beside the project, REAL_REPORTS_DIR overrides the folder; its README describes them). The expected
 * figures are the files' own, read off them by hand or taken from the README, never from this reader's
 * output. Without the folder the suite is skipped on a developer's machine and fails on CI.
 */

const skipped = !realPresent && !process.env.CI;
const title = skipped
  ? `genuine Flex statements: SKIPPED, ${REAL_FOLDER} is missing (set REAL_REPORTS_DIR to the real-reports folder)`
  : 'genuine Flex statements';

/** A real file, read at its first use: a skipped suite's bodies still run, and must not touch a missing folder. */
function lazily(name: string) {
  let file: FlexFile | undefined;
  const load = () => (file ??= parseFlex(realReport(name), name));
  return {
    file: () => load(),
    statement: (): FlexStatementRead => {
      const { statements } = load();
      expect(statements).toHaveLength(1);
      return statements[0] as FlexStatementRead;
    },
  };
}
const count = (events: readonly BrokerEvent[], kind: BrokerEvent['kind']) => events.filter((e) => e.kind === kind).length;
const cashOf = (s: FlexStatementRead, currency: string) => s.cash.find((c) => c.currency === currency);

/**
 * Each currency's money as the events themselves carry it: fills −(signed quantity × price × multiplier)
 * plus their commission, conversions their amounts and commission, cash and income their amounts.
 * Valid where every commission is in its trade's currency (as in gabbersepp and file14).
 */
function moneyOfEvents(events: readonly BrokerEvent[]): Map<string, number> {
  const money = new Map<string, number>();
  const add = (currency: string, amount: number) => money.set(currency, (money.get(currency) ?? 0) + amount);
  for (const e of events) {
    if (e.kind === 'fill') add(e.currency, (e.side === 'Buy' ? -1 : 1) * e.quantity * e.price * e.multiplier + e.commission + e.fee);
    else if (e.kind === 'conversion') {
      add(e.currency, e.amount + e.commission);
      add(e.counter.currency, e.counter.amount);
    } else if (e.kind === 'cash' || e.kind === 'income') add(e.currency, e.amount);
  }
  return money;
}

describe.skipIf(skipped)(title, () => {
  it('has the folder of real statements', () => {
    expect(realPresent, `the real Flex statements are not at ${REAL_FOLDER} (set REAL_REPORTS_DIR)`).toBe(true);
  });

  describe('tradeznet_kmi.xml: a KMI round trip listed at three levels of detail', () => {
    const real = lazily('tradeznet_kmi.xml');

    it('is account U12345678 in EUR (every EUR row converts at fxRateToBase 1), 2021-01-04 to 2021-12-24', () => {
      const statement = real.statement();
      expect(statement.accountId).toBe('U12345678');
      expect([statement.from, statement.to]).toEqual(['2021-01-04', '2021-12-24']);
      expect(statement.base).toEqual({ currency: 'EUR', rule: 'fxRateToBase=1' });
    });

    it('books the 3 EXECUTION rows and the 10 DETAIL cash transactions, not the Order and Lot rows', () => {
      const statement = real.statement();
      expect(count(statement.events, 'fill')).toBe(3);
      expect(count(statement.events, 'cash') + count(statement.events, 'income')).toBe(10);
      expect(statement.events).toHaveLength(13);
    });

    it('realizes USD 344.995717 once (IB’s cost basis), not 3 × or the 306.05 of raw prices', () => {
      const statement = real.statement();
      expect(cashOf(statement, 'USD')?.realized).toBeCloseTo(344.995717, 9);
      const { trips } = replay(0, statement.events, () => 'Equities');
      expect(trips).toHaveLength(1);
      // The sale's rate is fxRateToBase 0.86228: about EUR 297.48 (README).
      expect((trips[0]?.net ?? 0) * 0.86228).toBeCloseTo(297.48, 2);
    });

    it('opens the assigned shares at the closed lots’ cost (1686 and 1625.054283), not at 17 and 16.5', () => {
      const statement = real.statement();
      const { trips } = replay(0, statement.events, () => 'Equities');
      expect(trips[0]?.trade.openPrice).toBeCloseTo((1686 + 1625.054283) / 200, 9);
    });

    it('sums the cash from the rows: EUR 21 302.8023; USD −3350 + 3658 − 1.95 − 1377.0525614 − 14.11', () => {
      const statement = real.statement();
      expect(cashOf(statement, 'EUR')).toMatchObject({ start: 0, end: 21302.8023, stated: false, commissions: 0 });
      expect(cashOf(statement, 'USD')?.end).toBeCloseTo(-3350 + 3658 - 1.95 - 1377.0525614 - 14.11, 9);
      expect(cashOf(statement, 'USD')?.commissions).toBe(-1.95);
      // No Cash Report: the USD end at the last USD rate of the period (0.88406, 2021-12-03).
      expect(statement.balance?.rule).toBe('converted');
      expect(statement.balance?.amount).toBeCloseTo(21302.8023 + (-3350 + 3658 - 1.95 - 1377.0525614 - 14.11) * 0.88406, 6);
    });

    it('warns about the first row’s leftover account id U2345678', () => {
      const file = real.file();
      expect(file.warnings).toEqual([
        { message: "1 row of the statement of account U12345678 name account U2345678: they are read as U12345678's", count: 1 },
      ]);
    });
  });

  describe('gabbersepp_TestForCoding.xml: one day of futures, options and a stock in 4 currencies', () => {
    const real = lazily('gabbersepp_TestForCoding.xml');

    it('is account U1234567 in EUR', () => {
      const statement = real.statement();
      expect(statement.accountId).toBe('U1234567');
      expect(statement.base).toEqual({ currency: 'EUR', rule: 'fxRateToBase=1' });
    });

    it('books 15 fills: 8 futures, 4 futures options, 2 options and 1 stock', () => {
      const statement = real.statement();
      const classes = statement.events.map((e) => (e.kind === 'fill' ? e.assetClass : e.kind));
      expect(classes).toHaveLength(15);
      expect(classes.filter((c) => c === 'future')).toHaveLength(8);
      expect(classes.filter((c) => c === 'future_option')).toHaveLength(4);
      expect(classes.filter((c) => c === 'option')).toHaveLength(2);
      expect(classes.filter((c) => c === 'stock')).toHaveLength(1);
    });

    it('counts the commissions per currency as the README lists them: USD −28.210679, EUR −11.4, GBP −1.7', () => {
      const statement = real.statement();
      expect(statement.cash.map((c) => [c.currency, c.commissions])).toEqual([
        ['CHF', 0],
        ['EUR', -11.4],
        ['GBP', -1.7],
        ['USD', -28.210679],
      ]);
    });

    it('states the Cash Report’s cash per currency, and its rows reconcile with it exactly', () => {
      const statement = real.statement();
      const file = real.file();
      expect(statement.cash.map((c) => [c.currency, c.start, c.end, c.stated])).toEqual([
        ['CHF', 120, 120, true],
        ['EUR', 9371.200717967, 9359.800717967, true],
        ['GBP', -803.50877, 94.79123, true],
        ['USD', 80464.6911436, 94605.7304646, true],
      ]);
      const money = moneyOfEvents(statement.events);
      for (const c of statement.cash) expect(c.start + (money.get(c.currency) ?? 0)).toBeCloseTo(c.end, 8);
      expect(file.warnings.filter((w) => /cash at the end/.test(w.message))).toEqual([]);
    });

    it('states the BASE_SUMMARY ending cash in base', () => {
      const statement = real.statement();
      expect(statement.balance).toEqual({ amount: 93035.705712123, rule: 'CashReport BASE_SUMMARY' });
    });

    it('prices the futures round trips itself: FDAX (11474 − 11463) × 25 × 2 − 8 = 542 EUR; YM −240 − 230 − 8.12 = −478.12 USD', () => {
      const statement = real.statement();
      expect(cashOf(statement, 'EUR')?.realized).toBeCloseTo(542, 9);
      expect(cashOf(statement, 'USD')?.realized).toBeCloseTo(-478.12, 9);
    });

    it('names CHF, which holds cash but has no rate in the file, and the sub-account rows', () => {
      const statement = real.statement();
      const file = real.file();
      expect(statement.missingRates).toEqual(['CHF']);
      expect(file.warnings).toEqual([
        { message: "6 rows of the statement of account U1234567 name account U1234567F: they are read as U1234567's", count: 6 },
      ]);
    });
  });

  describe('pp_testIBFlexStatementFile01.xml: 2013 CAD stocks through a tender, a merger for cash and a reverse split', () => {
    const real = lazily('pp_testIBFlexStatementFile01.xml');
    const replayed = () => replay(0, real.statement().events, () => 'Equities');

    it('is account U123456 in CHF, told by FxTransaction@functionalCurrency', () => {
      const statement = real.statement();
      expect(statement.accountId).toBe('U123456');
      expect(statement.base).toEqual({ currency: 'CHF', rule: 'FxTransaction@functionalCurrency' });
    });

    it('books 14 fills, 3 corporate actions from its 5 rows, and 7 cash transactions', () => {
      const statement = real.statement();
      expect(count(statement.events, 'fill')).toBe(14);
      expect(count(statement.events, 'corporate_action')).toBe(3);
      expect(count(statement.events, 'income')).toBe(7);
      expect(statement.events).toHaveLength(24);
    });

    it('realizes 2358 CAD on UUU: the buys’ cost carried through the tender into UUU.TEN2, merged for 2.86 a share', () => {
      const statement = real.statement();
      const { trips } = replayed();
      expect(trips.map((t) => [t.currency, t.trade.symbol, t.trade.quantity, t.net])).toEqual([['CAD', 'UUU.TEN2', 12000, 2358]]);
      // 900 × 2.31 + 1100 × 2.33 + 10 000 × 2.72 = 31 842 for the 12 000 shares.
      expect(trips[0]?.trade.openPrice).toBeCloseTo(31842 / 12000, 9);
      expect(trips[0]?.trade.closePrice).toBeCloseTo(2.86, 9);
      expect(cashOf(statement, 'CAD')?.realized).toBe(2358);
    });

    it('holds 480 GCM after the 1-for-25 reverse split, at the 12 000 shares’ cost', () => {
      const { open } = replayed();
      expect(open.get(129258970)).toMatchObject({ symbol: 'GCM', quantity: 480, value: 12000 * 0.27 });
      expect(open.has(80845553)).toBe(false);
    });

    it('counts CAD −137.0956 of commissions and keeps both USD fees that cancel each other', () => {
      const statement = real.statement();
      expect(cashOf(statement, 'CAD')?.commissions).toBeCloseTo(-137.0956, 9);
      const usdFees = statement.events.filter((e) => e.kind === 'income' && e.currency === 'USD' && e.income === 'fee');
      expect(usdFees.map((e) => (e.kind === 'income' ? e.amount : 0)).sort((a, b) => a - b)).toEqual([-9.18, 9.18]);
    });

    it('sums its cash from the rows (no Cash Report): CHF −19.49, USD −2.07, CAD −2303.0356', () => {
      const statement = real.statement();
      // CAD: −3256.20 GCM − 31 962 UUU − 1390.8956 option + 34 320 merger + 1.23 − 15.17 interest.
      expect(statement.cash.map((c) => [c.currency, c.stated])).toEqual([['CAD', false], ['CHF', false], ['USD', false]]);
      expect(cashOf(statement, 'CAD')?.end).toBeCloseTo(-3256.2 - 31962 - 1390.8956 + 34320 + 1.23 - 15.17, 9);
      expect(cashOf(statement, 'CHF')?.end).toBeCloseTo(-19.49, 9);
      expect(cashOf(statement, 'USD')?.end).toBeCloseTo(-2.07, 9);
    });

    it('warns about the edited rows dated years after its period (the FB option, the 2017 USD rows)', () => {
      const file = real.file();
      expect(file.warnings).toEqual([
        { message: "4 rows of account U123456 dated outside its statement's period (2013-01-02 to 2013-12-31) booked as they are", count: 4 },
      ]);
    });
  });

  describe('pp_testIBFlexStatementFile14.xml: a CHF account buying US ETFs with two currency trades', () => {
    const real = lazily('pp_testIBFlexStatementFile14.xml');

    it('is account U000000 in CHF, February 2023', () => {
      const statement = real.statement();
      expect(statement.accountId).toBe('U000000');
      expect([statement.from, statement.to]).toEqual(['2023-02-01', '2023-02-28']);
      expect(statement.base).toEqual({ currency: 'CHF', rule: 'fxRateToBase=1' });
    });

    it('books its 8 trade rows as 6 fills and 2 CHF.USD conversions, and 2 deposits of CHF 1500', () => {
      const statement = real.statement();
      expect(count(statement.events, 'fill')).toBe(6);
      expect(count(statement.events, 'conversion')).toBe(2);
      const deposits = statement.events.filter((e) => e.kind === 'cash');
      expect(deposits.map((e) => (e.kind === 'cash' ? [e.flow, e.currency, e.amount] : []))).toEqual([
        ['deposit', 'CHF', 1500],
        ['deposit', 'CHF', 1500],
      ]);
    });

    it('reads its 720 ConversionRate rows', () => {
      const statement = real.statement();
      expect(statement.rates).toHaveLength(720);
      expect(statement.rates).toContainEqual({ day: '2023-02-28', from: 'USD', to: 'CHF', rate: 0.94219 });
    });

    it('counts the commissions per currency as the README lists them: CHF −10.566382, USD −1.412029', () => {
      const statement = real.statement();
      expect(statement.cash.map((c) => [c.currency, c.commissions])).toEqual([
        ['CHF', -10.566382],
        ['USD', -1.412029],
      ]);
    });

    it('states the Cash Report’s cash per currency, and its rows reconcile with it exactly', () => {
      const statement = real.statement();
      const file = real.file();
      expect(statement.cash.map((c) => [c.currency, c.start, c.end, c.stated])).toEqual([
        ['CHF', 0.521566563, 5.875184563, true],
        ['USD', 56.320322578, 88.829543578, true],
      ]);
      const money = moneyOfEvents(statement.events);
      for (const c of statement.cash) expect(c.start + (money.get(c.currency) ?? 0)).toBeCloseTo(c.end, 8);
      expect(file.warnings).toEqual([]);
    });

    it('states the BASE_SUMMARY ending cash, which the currencies at the period-end rate add up to', () => {
      const statement = real.statement();
      expect(statement.balance).toEqual({ amount: 89.569492227, rule: 'CashReport BASE_SUMMARY' });
      // Converted instead: 5.875184563 CHF + 88.829543578 USD × 0.94219 (its USD→CHF rate of 2023-02-28).
      const rates = new RateBook('CHF');
      for (const r of statement.rates) rates.addConversion(r.from, r.to, r.day, r.rate);
      expect(convertedCash(statement.cash, rates, '2023-02-28')).toBeCloseTo(89.569492227, 6);
      expect(statement.missingRates).toEqual([]);
    });
  });
});
