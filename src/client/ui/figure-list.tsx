import './figure-list.css';
import type { ReactNode } from 'react';

export interface Figure {
  label: string;
  value: ReactNode;
  /** Colours a signed amount (profit green, loss red). */
  tone?: 'positive' | 'negative' | undefined;
  /** Raw value for tests and assistive tooling. */
  raw?: number | string | null | undefined;
}

/** Signed tone of an amount. */
export const toneOf = (value: number | null | undefined): Figure['tone'] =>
  value === null || value === undefined || !Number.isFinite(value) || value === 0 ? undefined : value > 0 ? 'positive' : 'negative';

/** Label/value tiles, two per row on phones and more on wide panels. */
export function FigureList({ figures, label }: { figures: readonly Figure[]; label?: string }) {
  return (
    <dl className="figure-list" aria-label={label}>
      {figures.map((figure) => (
        <div key={figure.label} className="figure" data-figure={figure.label} data-value={figure.raw ?? undefined}>
          <dt>{figure.label}</dt>
          <dd className={figure.tone ? `figure-${figure.tone}` : undefined}>{figure.value}</dd>
        </div>
      ))}
    </dl>
  );
}
