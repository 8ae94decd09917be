import type { ReactNode } from 'react';
import './trade-cells.css';

/** Buy/Sell (or a cash-flow type) as a small coloured badge. */
export function Side({ type }: { type: string }) {
  return <span className={`side side-${type.toLowerCase()}`}>{type}</span>;
}

/** Instrument with its direction, e.g. 'EURUSD Buy'. */
export function Instrument({ symbol, type }: { symbol: ReactNode; type: string }) {
  return (
    <span className="instrument">
      {symbol} <Side type={type} />
    </span>
  );
}

/** Class of a signed amount: green profit, red loss. */
export const signedClass = (value: number): string | undefined =>
  value > 0 ? 'figure-positive' : value < 0 ? 'figure-negative' : undefined;
