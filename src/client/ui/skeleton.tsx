import type { CSSProperties } from 'react';
import './trade-card.css';

export interface SkeletonProps {
  width?: CSSProperties['width'];
  height?: CSSProperties['height'];
  /** Rounded ends, e.g. for avatars or pills. */
  round?: boolean;
  className?: string;
}

/** A pulsing placeholder block; decorative, so hidden from assistive technology. */
export function Skeleton({ width, height, round = false, className }: SkeletonProps) {
  const classes = ['ui-skeleton', round ? 'ui-skeleton-round' : undefined, className].filter(Boolean).join(' ');
  return <span className={classes} style={{ width, height }} aria-hidden="true" />;
}

export interface SkeletonRowsProps {
  /** docs/product.md#screens: 5 rows on large screens, 3 on phones (SKELETON_ROWS, SKELETON_ROWS_MOBILE). */
  rows: number;
  columns?: number;
  /** What is loading, read by screen readers. */
  label?: string;
  className?: string;
}

/** Placeholder rows shown until data arrives (e.g. before the first live message). */
export function SkeletonRows({ rows, columns = 1, label = 'Loading...', className }: SkeletonRowsProps) {
  const rowIndexes = Array.from({ length: Math.max(0, rows) }, (_, i) => i);
  const columnIndexes = Array.from({ length: Math.max(1, columns) }, (_, i) => i);
  return (
    <div
      role="status"
      aria-busy="true"
      className={className ? `ui-skeleton-rows ${className}` : 'ui-skeleton-rows'}
      style={{ '--ui-skeleton-columns': columnIndexes.length } as CSSProperties}
    >
      <span className="ui-visually-hidden">{label}</span>
      {rowIndexes.map((row) => (
        <div key={row} className="ui-skeleton-row">
          {columnIndexes.map((column) => (
            <Skeleton key={column} />
          ))}
        </div>
      ))}
    </div>
  );
}

export interface SkeletonCardsProps {
  /** docs/product.md#screens: 3 on phones until the first live message. */
  rows: number;
  /** What is loading, read by screen readers. */
  label?: string;
  className?: string;
}

/**
 * Placeholder trade rows with the compact trade card's shape and height (TradeCard): two lines on
 * the left, the figure and its note on the right, so nothing moves when the rows arrive.
 */
export function SkeletonCards({ rows, label = 'Loading...', className }: SkeletonCardsProps) {
  const rowIndexes = Array.from({ length: Math.max(0, rows) }, (_, i) => i);
  return (
    <div role="status" aria-busy="true" className={className ? `ui-trade-list ${className}` : 'ui-trade-list'}>
      <span className="ui-visually-hidden">{label}</span>
      {rowIndexes.map((row) => (
        <div key={row} className="ui-trade-skeleton">
          <span className="ui-trade-main">
            <Skeleton width="62%" height={15} />
            <Skeleton width="48%" height={12} />
          </span>
          <span className="ui-trade-side">
            <Skeleton width={88} height={18} />
            <Skeleton width={64} height={12} />
          </span>
        </div>
      ))}
    </div>
  );
}
