import { describe, expect, it } from 'vitest';
import { fixture } from '../../../../tests/fixtures/ibkr/files.ts';
import { ReadBudgetError } from '../budget.ts';
import { NotAStatementError } from '../errors.ts';
import { IBKR_FLEX_FORMAT, isFlexStatement, parseFlex } from './flex.ts';
import { walkFlex } from './walk.ts';
import { Warnings } from './warnings.ts';

/*
 * The whole reader over self-made Flex files (tests/fixtures/ibkr): what a file is, how many accounts it
 * holds, what it warns about, and what it refuses. Figures are worked out by hand from each fixture.
 */

const bytes = (text: string) => new TextEncoder().encode(text);
describe('telling a Flex statement from its first bytes', () => {
  it('names its format ibkr-flex', () => {
    expect(IBKR_FLEX_FORMAT).toBe('ibkr-flex');
  });

  it('knows a FlexQueryResponse or a bare FlexStatements root, after a BOM, an XML declaration and whitespace', () => {
    expect(isFlexStatement(fixture('multi-account.xml'))).toBe(true);
    expect(isFlexStatement(bytes('\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n\n  <FlexQueryResponse queryName="x" type="AF">'))).toBe(true);
    expect(isFlexStatement(bytes('<FlexStatements count="1"><FlexStatement accountId="U1">'))).toBe(true);
  });

  it('refuses other XML, HTML, text and binary', () => {
    expect(isFlexStatement(fixture('not-flex.xml'))).toBe(false);
    expect(isFlexStatement(bytes('<html><body><table></table></body></html>'))).toBe(false);
    expect(isFlexStatement(bytes('ClientAccountID,Symbol,Quantity\nU1,AAPL,10'))).toBe(false);
    expect(isFlexStatement(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0]))).toBe(false);
    expect(isFlexStatement(bytes('<FlexQueryResponses>'))).toBe(false);
  });
});

describe('a file with two accounts (multi-account.xml)', () => {
  const { statements, warnings } = parseFlex(fixture('multi-account.xml'));

  it('reads one statement per FlexStatement, each with its own base currency', () => {
    expect(statements.map((s) => [s.accountId, s.base?.currency, s.from, s.to])).toEqual([
      ['U9000001', 'EUR', '2024-01-02', '2024-01-31'],
      ['U9000002', 'USD', '2024-01-02', '2024-01-31'],
    ]);
    expect(warnings).toEqual([]);
  });

  it("keeps each account's events and cash in its own statement, in time order", () => {
    const [one, two] = statements;
    expect(one?.events.map((e) => e.ref)).toEqual([1002, 1001]);
    expect(two?.events.map((e) => e.ref)).toEqual([2002, 2001]);
    // U9000001: EUR 1000 deposited; USD −200 for 10 AAA and −1 commission.
    expect(one?.cash.map((c) => [c.currency, c.end])).toEqual([['EUR', 1000], ['USD', -201]]);
    // U9000002: USD 500 deposited + 110 for 5 AAA sold − 1 commission = 609.
    expect(two?.cash.map((c) => [c.currency, c.end])).toEqual([['USD', 609]]);
  });

  it("tells a fill's effect from its own account's position only", () => {
    // U9000002 sells 5 AAA without openCloseIndicator while holding none: it opens a short there, even
    // though U9000001 bought 10 of the same contract.
    const sale = statements[1]?.events.find((e) => e.kind === 'fill');
    expect(sale).toMatchObject({ side: 'Sell', quantity: 5, effect: 'open', realizedNet: null });
  });

  it('converts each account at its own rates: U9000001 holds 1000 EUR − 201 USD × 0.9 = 819.10 EUR', () => {
    expect(statements[0]?.balance).toEqual({ amount: 819.1, rule: 'converted' });
    expect(statements[1]?.balance).toEqual({ amount: 609, rule: 'converted' });
  });
});

describe('words the reader does not know (unknown-words.xml)', () => {
  const { statements, warnings } = parseFlex(fixture('unknown-words.xml'));

  it('counts unknown notes codes, attributes, sections and rows, one warning per kind', () => {
    expect(warnings).toEqual(
      expect.arrayContaining([
        { message: "3 rows with unknown notes code 'XYZ' kept as they are", count: 3 },
        { message: "2 Trade rows with an unknown attribute 'shinyNewField' (left aside)", count: 2 },
        { message: "1 section 'FancyNewSection' unknown to this reader left aside", count: 1 },
        { message: "1 'Trinket' row in Trades, unknown to this reader, left aside", count: 1 },
      ]),
    );
    expect(warnings).toHaveLength(4);
  });

  it('still books every row: realized 140 − 1 − (51 + 61) = 27 USD', () => {
    expect(statements[0]?.events.map((e) => e.ref)).toEqual([6001, 6002, 6003]);
    expect(statements[0]?.cash[0]).toMatchObject({ currency: 'USD', realized: 27, commissions: -3 });
  });
});

describe('the base currency, rule by rule (base-rules.xml)', () => {
  const { statements, warnings } = parseFlex(fixture('base-rules.xml'));
  const [byRates, unknown, byInformation] = statements;

  it("takes the ConversionRate rows' toCurrency when nothing else names it", () => {
    expect(byRates?.base).toEqual({ currency: 'GBP', rule: 'ConversionRate@toCurrency' });
    // The row's own fxRateToBase (0.79) is the event's rate; the period-end balance uses ConversionRate (0.8).
    expect(byRates?.events[0]).toMatchObject({ currency: 'USD', rate: 0.79 });
    expect(byRates?.balance).toEqual({ amount: 8, rule: 'converted' });
  });

  it('says so when nothing tells it, and states no converted balance', () => {
    expect(unknown?.base).toBeNull();
    expect(unknown?.balance).toBeNull();
    expect(warnings.map((w) => w.message)).toContain(
      'Account U9000019: the base currency could not be told (no AccountInformation, FxTransaction, fxRateToBase="1" row or ConversionRate names it): add Account Information to the Flex Query.',
    );
  });

  it('reads AccountInformation, the Equity Summary (NAV and cash) and open positions at summary level', () => {
    expect(byInformation?.base).toEqual({ currency: 'SGD', rule: 'AccountInformation@currency' });
    expect(byInformation?.nav).toEqual([
      { day: '2025-01-03', total: 1000 },
      { day: '2025-01-06', total: 1005 },
    ]);
    expect(byInformation?.balance).toEqual({ amount: 910, rule: 'EquitySummary cash' });
    expect(byInformation?.positions).toEqual([
      {
        symbol: 'ETFX',
        description: 'AN ETF',
        assetClass: 'etf',
        conid: 20001,
        side: 'Buy',
        quantity: 2,
        multiplier: 1,
        markPrice: 35,
        value: 70,
        costBasis: 60,
        unrealized: 10,
        currency: 'USD',
        rate: 1.36,
        reportDate: '2025-01-06',
      },
    ]);
  });
});

describe('a currency without any rate into base (missing-rate.xml)', () => {
  const { statements, warnings } = parseFlex(fixture('missing-rate.xml'));
  const statement = statements[0];

  it('leaves its events out, names it in missingRates and in a warning', () => {
    expect(statement?.events.map((e) => e.ref)).toEqual([17001]);
    expect(statement?.missingRates).toEqual(['JPY']);
    expect(warnings).toEqual([
      {
        message:
          'Account U9000017: 1 event in JPY left out of the events: the statement has no rate of JPY into the base currency (add ConversionRates to the Flex Query)',
        count: 1,
      },
    ]);
  });

  it('keeps its cash in its own currency but states no balance in base (never counting it as 0)', () => {
    expect(statement?.cash.map((c) => [c.currency, c.end])).toEqual([['EUR', 500], ['JPY', 3000]]);
    expect(statement?.balance).toBeNull();
  });
});

describe('files the reader refuses', () => {
  const refusal = (run: () => unknown): NotAStatementError => {
    try {
      run();
    } catch (error) {
      if (error instanceof NotAStatementError) return error;
      throw error;
    }
    throw new Error('not refused');
  };

  it("refuses IB's error answer (FlexStatementResponse) and other XML as no Flex statement", () => {
    const error = refusal(() => parseFlex(fixture('not-flex.xml'), 'not-flex.xml'));
    expect(error.message).toBe('This file is not an Interactive Brokers Flex statement (an Activity Flex Query saved as XML).');
    expect(error.fileName).toBe('not-flex.xml');
    expect(() => parseFlex(bytes('<?xml version="1.0"?><Statement><Row/></Statement>'))).toThrow(/Interactive Brokers Flex/);
    expect(() => parseFlex(new Uint8Array([0, 1, 2, 3, 4]))).toThrow(NotAStatementError);
  });

  it('refuses a file cut short', () => {
    const whole = new TextDecoder().decode(fixture('multi-account.xml'));
    const cut = whole.slice(0, whole.indexOf('<CashTransactions>'));
    expect(refusal(() => parseFlex(bytes(cut))).message).toMatch(/incomplete: the file ends before the statement does/);
  });

  it('refuses a Flex response without a statement, and a Trade Confirmation query', () => {
    expect(refusal(() => parseFlex(bytes('<FlexQueryResponse queryName="q" type="AF"><FlexStatements count="0"></FlexStatements></FlexQueryResponse>'))).message).toMatch(
      /holds no statement/,
    );
    expect(refusal(() => parseFlex(bytes('<FlexQueryResponse queryName="q" type="TCF"><FlexStatements count="0"></FlexStatements></FlexQueryResponse>'))).message).toMatch(
      /not an Activity statement/,
    );
  });

  it('refuses a file past the budget: more than 1,000,000 elements', { timeout: 30_000 }, () => {
    // Rows of a section the reader leaves aside: only counted, never kept.
    const rows = '<r/>'.repeat(1_000_001);
    const text = `<FlexQueryResponse type="AF"><FlexStatements><FlexStatement accountId="U1"><StmtFunds>${rows}</StmtFunds></FlexStatement></FlexStatements></FlexQueryResponse>`;
    let error: unknown;
    try {
      parseFlex(bytes(text));
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ReadBudgetError);
    expect(error).toHaveProperty('message', 'This file is too large or too complex to read (limit: 1,000,000 XML elements in a Flex statement).');
  });

  it('stops counting attributes past their cap (4,000,000 in a real file; 20 here)', () => {
    const row = '<ConversionRate reportDate="20240101" fromCurrency="USD" toCurrency="EUR" rate="0.9"/>';
    const text = `<FlexQueryResponse type="AF"><FlexStatements><FlexStatement accountId="U1"><ConversionRates>${row.repeat(6)}</ConversionRates></FlexStatement></FlexStatements></FlexQueryResponse>`;
    // 1 + 1 attributes on the way down, then 4 per row: the fifth row brings them to 22.
    expect(() => walkFlex(text, new Warnings(), undefined, { elements: 100, attributes: 20 })).toThrow(
      'This file is too large or too complex to read (limit: 20 XML attributes in a Flex statement).',
    );
  });
});
