import type { z } from 'zod';
import type { StatementBooked, StatementCurrency } from '#shared/contract/import.ts';
import { formatMoney } from '#shared/format/money.ts';
import { MISSING_VALUE } from '#shared/format/numbers.ts';

type CurrencyCash = z.output<typeof StatementCurrency>;

/** How the readers tell a statement's base currency (StatementBooked.base_rule), in words; another rule is shown as it is. */
const BASE_RULES: Record<string, string> = {
  'the report header': 'from the report header',
  'AccountInformation@currency': 'from its account information',
  'FxTransaction@functionalCurrency': "from its FX transactions' functional currency",
  'fxRateToBase=1': 'from the rows converted at a rate of 1',
  'ConversionRate@toCurrency': 'from its conversion rates',
};

/** 'Base currency EUR, from its account information', or that the file does not tell it. */
export function baseCurrencyText(currency: string | null, rule: string | null): string {
  if (currency === null) return 'Base currency not stated';
  return rule === null ? `Base currency ${currency}` : `Base currency ${currency}, ${BASE_RULES[rule] ?? `from ${rule}`}`;
}

const fills = (n: number) => `${n} ${n === 1 ? 'fill' : 'fills'} booked`;

/** One statement of an imported file: its account, booked or why not, and its cash and results per currency. */
export function StatementBookedSummary({ statement, name }: { statement: StatementBooked; name?: string | undefined }) {
  const s = statement;
  const title = name ?? (s.account || 'Unnamed account');
  return (
    <li className="import-statement" data-booked={s.booked}>
      <p className="import-statement-head">
        <strong className="import-statement-account">{title}</strong>
        <span className={s.booked ? 'import-chip import-chip-booked' : 'import-chip import-chip-skipped'}>{s.booked ? 'Booked' : 'Not booked'}</span>
      </p>
      {s.booked ? null : <p className="import-statement-reason">{s.reason ?? 'This statement was not booked.'}</p>}
      <p className="import-statement-meta">
        {baseCurrencyText(s.base_currency, s.base_rule)}
        {s.booked ? ` · ${fills(s.trades)}` : ''}
      </p>
      {s.cash.length === 0 ? null : (
        <ul className="import-cash-list" aria-label={`Cash and results of ${title} per currency`}>
          {s.cash.map((c) => (
            <CurrencyLine key={c.currency} cash={c} />
          ))}
        </ul>
      )}
    </li>
  );
}

const money = (value: number | null, currency: string) => (value === null ? MISSING_VALUE : formatMoney(value, currency));

/** 'EUR · Cash 9 371,20 € → 9 359,80 € · Realized 0,00 € · Commissions −11,40 €', wrapping on a phone. */
function CurrencyLine({ cash }: { cash: CurrencyCash }) {
  const { currency } = cash;
  return (
    <li className="import-cash" data-currency={currency}>
      <span className="import-cash-code">{currency}</span>
      <dl className="import-cash-figures">
        <div>
          <dt>Cash</dt>
          <dd>
            {money(cash.cash_start, currency)}
            {/* A long line breaks before the arrow, which stays with the amount it leads to. */}
            <span aria-hidden="true">{' \u2192\u00a0'}</span>
            <span className="ui-visually-hidden"> to </span>
            {money(cash.cash_end, currency)}
          </dd>
        </div>
        <div>
          <dt>Realized</dt>
          <dd>{formatMoney(cash.realized, currency)}</dd>
        </div>
        <div>
          <dt>Commissions</dt>
          <dd>{formatMoney(cash.commissions, currency)}</dd>
        </div>
      </dl>
    </li>
  );
}
