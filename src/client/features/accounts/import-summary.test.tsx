// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { ImportStatementResponse } from '#shared/contract/import.ts';
import { formatMoney } from '#shared/format/money.ts';
import { MISSING_VALUE } from '#shared/format/numbers.ts';
import { ImportSummary } from './import-summary.tsx';
import { baseCurrencyText } from './statement-booked.tsx';

afterEach(cleanup);

/**
 * An Interactive Brokers Flex file of two statements: U1234567 booked, with cash in three currencies
 * (CHF's start not stated), and U7654321, not registered. Figures are in each line's currency.
 */
const FLEX: ImportStatementResponse = {
  message: 'Imported: 15 added, 0 updated, 0 skipped. 1 of the file\'s 2 statements booked.',
  format: 'ibkr-flex',
  added: 15,
  updated: 0,
  skipped: 0,
  statements: [
    {
      account: 'U1234567',
      booked: true,
      reason: null,
      base_currency: 'EUR',
      base_rule: 'AccountInformation@currency',
      trades: 15,
      cash: [
        { currency: 'EUR', cash_start: 9371.2, cash_end: 9359.8, realized: 0, commissions: -11.4 },
        { currency: 'GBP', cash_start: -803.51, cash_end: 94.79, realized: 12.5, commissions: -1.7 },
        { currency: 'CHF', cash_start: null, cash_end: 120, realized: 0, commissions: 0 },
      ],
    },
    {
      account: 'U7654321',
      booked: false,
      reason: 'No account U7654321 is registered in your portfolios: its statement is not booked.',
      base_currency: null,
      base_rule: null,
      trades: 0,
      cash: [],
    },
  ],
  warnings: [],
};

/** The label → value pairs of one currency's line. */
function figuresOf(line: HTMLElement): Record<string, string> {
  return Object.fromEntries([...line.querySelectorAll('dl > div')].map((d): [string, string] => [d.querySelector('dt')?.textContent ?? '', d.querySelector('dd')?.textContent ?? '']));
}

describe('ImportSummary', () => {
  it('sums up each statement of the file: the account, booked, its base currency and how it was told, its fills and its cash per currency', () => {
    render(<ImportSummary result={FLEX} />);
    expect(screen.getByText('Imported: 15 added, 0 updated, 0 skipped.')).toBeTruthy();
    expect(screen.getByText('Read as Interactive Brokers Flex statement (XML)')).toBeTruthy();
    const [booked, skipped] = [...screen.getByRole('list', { name: 'Statements in the file' }).children] as [HTMLElement, HTMLElement];

    expect(within(booked).getByText('U1234567')).toBeTruthy();
    expect(within(booked).getByText('Booked')).toBeTruthy();
    expect(within(booked).getByText('Base currency EUR, from its account information · 15 fills booked')).toBeTruthy();
    const lines = within(booked).getAllByRole('listitem');
    expect(lines.map((li) => li.getAttribute('data-currency'))).toEqual(['EUR', 'GBP', 'CHF']);
    const [eur, gbp, chf] = lines as [HTMLElement, HTMLElement, HTMLElement];
    // The arrow is drawn for the eye and read as 'to'.
    expect(figuresOf(eur)).toEqual({
      Cash: `${formatMoney(9371.2, 'EUR')} →\u00a0 to ${formatMoney(9359.8, 'EUR')}`,
      Realized: formatMoney(0, 'EUR'),
      Commissions: formatMoney(-11.4, 'EUR'),
    });
    expect(figuresOf(gbp)).toEqual({
      Cash: `${formatMoney(-803.51, 'GBP')} →\u00a0 to ${formatMoney(94.79, 'GBP')}`,
      Realized: formatMoney(12.5, 'GBP'),
      Commissions: formatMoney(-1.7, 'GBP'),
    });
    // A cash figure the statement does not state is a dash, not 0.
    expect(figuresOf(chf).Cash).toBe(`${MISSING_VALUE} →\u00a0 to ${formatMoney(120, 'CHF')}`);

    expect(within(skipped).getByText('U7654321')).toBeTruthy();
    expect(within(skipped).getByText('Not booked')).toBeTruthy();
    expect(within(skipped).getByText('No account U7654321 is registered in your portfolios: its statement is not booked.')).toBeTruthy();
    expect(within(skipped).getByText('Base currency not stated')).toBeTruthy();
    expect(within(skipped).queryByText(/fills booked/)).toBeNull();
  });

  it('folds more than three warnings under their count', () => {
    const warnings = ['No rate to EUR for JPY: its money is left out.', 'a', 'b', 'c'];
    const { container } = render(<ImportSummary result={{ ...FLEX, warnings }} />);
    const details = container.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(within(details).getByText('4 warnings')).toBeTruthy();
    expect(within(details).getAllByRole('listitem', { hidden: true }).map((li) => li.textContent)).toEqual(warnings);
  });
});

describe('baseCurrencyText', () => {
  it.each([
    ['USD', 'the report header', 'Base currency USD, from the report header'],
    ['EUR', 'fxRateToBase=1', 'Base currency EUR, from the rows converted at a rate of 1'],
    ['EUR', 'a rule of tomorrow', 'Base currency EUR, from a rule of tomorrow'],
    ['EUR', null, 'Base currency EUR'],
    [null, null, 'Base currency not stated'],
  ])('%s told by %s reads %j', (currency, rule, text) => {
    expect(baseCurrencyText(currency, rule)).toBe(text);
  });
});
