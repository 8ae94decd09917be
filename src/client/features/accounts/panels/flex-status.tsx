import { useState } from 'react';
import type { FlexStatus } from '#shared/contract/flex.ts';
import { formatDateFr, formatDayFr } from '#shared/format/dates.ts';
import { FigureList, type Figure } from '#client/ui/figure-list.tsx';
import { DAY_S } from '#shared/domain/days.ts';

/** The server alerts on a token this many days before its expiry (src/server/broker/ibkr/flex-fetch.ts). */
const EXPIRY_NOTICE_DAYS = 3;

const STATUS_LABELS: Record<NonNullable<FlexStatus['last_status']>, string> = {
  ok: 'OK',
  retrying: "Retrying: IB's service was busy",
  failed: 'Failed: the settings need a change',
};

/** 'YYYY-MM-DD' (a UTC day) as epoch seconds of its start. */
const dayStart = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / 1000;

/** The token's chosen expiry, saying when it has passed or comes within the alert's days. */
export function expiryText(iso: string | null, nowS: number): { text: string; tone?: Figure['tone'] } {
  if (iso === null) return { text: 'Not given' };
  const at = dayStart(iso);
  const day = formatDayFr(at, 'UTC');
  // The token works through its last day.
  const daysLeft = Math.floor((at + DAY_S - nowS) / DAY_S);
  if (daysLeft <= 0) return { text: `${day} (expired)`, tone: 'negative' };
  if (daysLeft <= EXPIRY_NOTICE_DAYS) return { text: `${day} (${daysLeft === 1 ? 'last day' : `${daysLeft} days left`})`, tone: 'negative' };
  return { text: day };
}

/** The settings and how the daily fetches go: never the token itself, only whether one is set. */
export function FlexStatusView({ status }: { status: FlexStatus }) {
  // Days left to the expiry: the time the panel opened is close enough.
  const [nowS] = useState(() => Date.now() / 1000);
  const expiry = expiryText(status.token_expires, nowS);
  const last = status.last_status;
  const figures: Figure[] = [
    { label: 'Token', value: status.token_set ? 'Set' : 'Not set', raw: status.token_set ? 'set' : 'not set' },
    { label: 'Query ID', value: status.query_id ?? 'Not set', raw: status.query_id },
    { label: 'Token expires', value: expiry.text, tone: expiry.tone, raw: status.token_expires },
    {
      label: 'Last fetch',
      value: last === null || status.last_fetch_at === null ? 'Never' : `${STATUS_LABELS[last]} · ${formatDateFr(status.last_fetch_at)}`,
      tone: last === 'failed' ? 'negative' : undefined,
      raw: last,
    },
    {
      label: 'Next fetch',
      value: status.next_fetch_at === null ? 'None planned' : formatDateFr(status.next_fetch_at),
      raw: status.next_fetch_at,
    },
  ];
  return (
    <>
      <FigureList label="Flex status" figures={figures} />
      {status.last_error === null ? null : (
        <p className="ibflex-last-error">
          <strong>Last error:</strong> {status.last_error}
        </p>
      )}
    </>
  );
}
