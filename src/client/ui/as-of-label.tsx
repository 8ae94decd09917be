import { formatDayFr } from '#shared/format/dates.ts';
import './trade-cells.css';

/**
 * 'as of 05/03/2026': a row whose figures are a broker statement's of that day (`as_of` of a live
 * position), not live. The day is the statement's, a UTC day (the server stores its start).
 */
export function AsOfLabel({ at }: { at: number | undefined }) {
  if (at === undefined) return null;
  const day = formatDayFr(at, 'UTC');
  return (
    <span className="ui-as-of" title={`Figures from the broker statement of ${day}, not live`} data-as-of={at}>
      as of {day}
    </span>
  );
}

/** The day as a card's detail reads it: '05/03/2026 (statement)'. */
export const asOfDetail = (at: number): string => `${formatDayFr(at, 'UTC')} (statement)`;
