import './currency-summary.css';
import type { ReactNode } from 'react';
import type { Figure } from './figure-list.tsx';

export interface CurrencySummaryCard {
  currency: string;
  /** Beside the currency, e.g. '3 accounts'. */
  note?: ReactNode;
  /** `key` names the figure for tests (data-figure); the label is what the user reads. */
  figures: readonly (Figure & { key: string })[];
}

/** One card per currency with its totals (NAV and Rebates): amounts in two currencies are never summed. */
export function CurrencySummary({ cards }: { cards: readonly CurrencySummaryCard[] }) {
  return (
    <ul className="currency-summary" aria-label="Summary by currency">
      {cards.map((card) => (
        <li key={card.currency} className="currency-summary-card" data-currency={card.currency}>
          <div className="currency-summary-head">
            <span className="currency-summary-currency">{card.currency}</span>
            {card.note ? <span className="currency-summary-note">{card.note}</span> : null}
          </div>
          <dl className="currency-summary-figures">
            {card.figures.map((f) => (
              <div key={f.key}>
                <dt>{f.label}</dt>
                <dd data-figure={f.key} className={f.tone ? `currency-summary-${f.tone}` : undefined}>
                  {f.value}
                </dd>
              </div>
            ))}
          </dl>
        </li>
      ))}
    </ul>
  );
}
