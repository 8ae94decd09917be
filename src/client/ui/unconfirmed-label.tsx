import { useState } from 'react';
import { formatDateFr, formatDayFr } from '#shared/format/dates.ts';
import './trade-cells.css';

/** Why an unconfirmed row keeps its figures and takes no order. */
export const UNCONFIRMED_TITLE = 'Its terminal no longer reports it; kept until a closing deal confirms the close';

/** A row whose terminal left it out of a full snapshot (`unconfirmed_since` of a live position). */
export const isUnconfirmed = (p: { unconfirmed_since?: number | undefined }): boolean => p.unconfirmed_since !== undefined;

/**
 * 'Unconfirmed since 14:03' (the user's time); with the day when that is not today:
 * 'Unconfirmed since 05/03/2026 14:03'.
 */
export function unconfirmedText(since: number, nowS: number, timeZone?: string): string {
  const at = formatDateFr(since, timeZone);
  return `Unconfirmed since ${formatDayFr(since, timeZone) === formatDayFr(nowS, timeZone) ? at.slice(-5) : at}`;
}

/** The mark of an unconfirmed row, with why it is there in its title. */
export function UnconfirmedLabel({ since }: { since: number | undefined }) {
  // Read once: the label says since when, which does not change while it shows.
  const [nowS] = useState(() => Date.now() / 1000);
  if (since === undefined) return null;
  return (
    <span className="ui-unconfirmed" title={UNCONFIRMED_TITLE} data-unconfirmed={since}>
      {unconfirmedText(since, nowS)}
    </span>
  );
}
