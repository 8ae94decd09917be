import type { Guard } from '#shared/contract/guards.ts';
import type { GuardBasis, GuardPeriod, GuardScope, GuardState } from '#shared/domain/guards.ts';
import { formatMoney } from '#shared/format/money.ts';
import { formatPercent, MISSING_VALUE, numberFormat } from '#shared/format/numbers.ts';

/*
 * How the Copy screen words a copy guard (src/shared/contract/guards.ts): its badge, its details and
 * the form that sets one (its values: guard-form-values.ts). Pure, so that the wording is tested without a screen.
 */

export const BASIS_LABELS: Record<GuardBasis, string> = {
  equity_floor: 'Equity floor',
  loss_from_start: 'Loss from start',
  trailing_from_peak: 'Trailing from peak',
  period_loss: 'Period loss',
  profit_target: 'Profit target',
};

/** What each basis measures, under the form's choice. */
export const BASIS_MEANING: Record<GuardBasis, string> = {
  equity_floor: 'The equity itself, in money: a level is reached when the equity falls to it.',
  loss_from_start: 'The loss from the equity when the guard starts.',
  trailing_from_peak: 'The fall from the highest equity reached (the peak); a deposit or withdrawal moves the peak by its amount.',
  period_loss: 'The loss from the equity at the opening of the day, week or month under way (UTC).',
  profit_target: 'The gain over the equity when the guard starts: a level is reached when the gain rises to it.',
};

/** The unit choice of a basis in %: '% of the peak', '% of the start'. */
export function percentOfLabel(basis: GuardBasis): string {
  if (basis === 'trailing_from_peak') return '% of the peak';
  if (basis === 'period_loss') return '% of the opening';
  return '% of the start';
}

export const PERIOD_LABELS: Record<GuardPeriod, string> = { day: 'Day', week: 'Week', month: 'Month' };

const PERIOD_LOSS: Record<GuardPeriod, string> = { day: 'Daily loss', week: 'Weekly loss', month: 'Monthly loss' };

/** The badge's short name of a basis: 'Trailing', 'Weekly loss'. */
export function basisName(g: Pick<Guard, 'basis' | 'period'>): string {
  if (g.basis === 'period_loss') return PERIOD_LOSS[g.period ?? 'day'];
  if (g.basis === 'trailing_from_peak') return 'Trailing';
  return BASIS_LABELS[g.basis];
}

export const STATE_LABELS: Record<GuardState, string> = { armed: 'armed', warned: 'warned', close_only: 'close-only', closed: 'closed' };

/** What each state means for copying, as the details say it. */
export const STATE_MEANING: Record<GuardState, string> = {
  armed: 'Armed: copying as usual.',
  warned: 'Warned: the warning level was reached; copying goes on.',
  close_only: 'Close-only: no new copies; the master’s closes and SL/TP changes are still copied.',
  closed: 'Closed: every copy in scope was closed and copying is stopped.',
};

export const SCOPE_LABELS: Record<GuardScope, string> = { relation: 'Relation', follower: 'Follower', master: 'Master' };

/** The currency as formatMoney writes it after an amount: '$', '€'. */
export function currencyMark(currency: string): string {
  return formatMoney(0, currency).replace(/[\d\s.,-]/gu, '') || currency;
}

const percentLevel = numberFormat('fr-FR', { minimumFractionDigits: 0, maximumFractionDigits: 4 });
const moneyLevel = numberFormat('fr-FR', { minimumFractionDigits: 0, maximumFractionDigits: 2 });

type Levels = Pick<Guard, 'unit' | 'currency' | 'warn' | 'close_only' | 'close_all'>;

/** The unit after a level: ' %' or the currency's mark. */
export const unitMark = (g: Pick<Guard, 'unit' | 'currency'>): string => (g.unit === 'percent' ? '\u00a0%' : `\u00a0${currencyMark(g.currency)}`);

/** Warn, close-only and close-all in one: '15/20/25 %', '—/9 000/— $' (a level not set is a dash). */
export function levelsText(g: Levels): string {
  const format = g.unit === 'percent' ? percentLevel : moneyLevel;
  return `${[g.warn, g.close_only, g.close_all].map((l) => (l === null ? MISSING_VALUE : format.format(l))).join('/')}${unitMark(g)}`;
}

/** One level as the details say it: '15 %', '9 000,00 $'. */
function levelText(g: Pick<Guard, 'unit' | 'currency'>, level: number): string {
  return g.unit === 'percent' ? formatPercent(level) : formatMoney(level, g.currency);
}

/** The levels in words: 'warn at 15,00 %, close-only at 20,00 %, close-all at 25,00 %'. */
export function levelsSentence(g: Levels): string {
  const set: [string, number | null][] = [
    ['warn', g.warn],
    ['close-only', g.close_only],
    ['close-all', g.close_all],
  ];
  return set
    .filter((s): s is [string, number] => s[1] !== null)
    .map(([name, level]) => `${name} at ${levelText(g, level)}`)
    .join(', ');
}

/** The last measure in the guard's unit ('12,40 %', '8 950,00 $'); null before the first. */
export function measureText(g: Pick<Guard, 'unit' | 'currency' | 'last_value'>): string | null {
  return g.last_value === null ? null : levelText(g, g.last_value);
}

/** What the measure is, per basis: 'Fall from peak', 'Equity'. */
export function measureName(g: Pick<Guard, 'basis' | 'period'>): string {
  switch (g.basis) {
    case 'equity_floor':
      return 'Equity';
    case 'loss_from_start':
      return 'Loss from start';
    case 'trailing_from_peak':
      return 'Fall from peak';
    case 'period_loss':
      return `Loss this ${g.period ?? 'day'}`;
    case 'profit_target':
      return 'Gain from start';
  }
}

/** What the mark is, per basis; null for an equity floor, which has none. */
export function markName(g: Pick<Guard, 'basis' | 'period'>): string | null {
  switch (g.basis) {
    case 'equity_floor':
      return null;
    case 'trailing_from_peak':
      return 'Peak equity';
    case 'period_loss':
      return `Equity at the ${g.period ?? 'day'}’s opening`;
    case 'loss_from_start':
    case 'profit_target':
      return 'Start equity';
  }
}

/** The badge's word for the last measure: 'fall 12,40 %', 'equity 8 950,00 $'; null before the first. */
export function measureShort(g: Pick<Guard, 'basis' | 'unit' | 'currency' | 'last_value'>): string | null {
  const measured = measureText(g);
  if (measured === null) return null;
  const word = { equity_floor: 'equity', loss_from_start: 'loss', trailing_from_peak: 'fall', period_loss: 'loss', profit_target: 'gain' }[g.basis];
  return `${word} ${measured}`;
}

/** The badge's word for the mark: 'peak 10 500,00 $US', 'day open 9 800,00 $US'; null for a floor or before the first measure. */
export function markShort(g: Pick<Guard, 'basis' | 'period' | 'currency' | 'mark'>): string | null {
  if (g.basis === 'equity_floor' || g.mark === null) return null;
  const word = g.basis === 'trailing_from_peak' ? 'peak' : g.basis === 'period_loss' ? `${g.period ?? 'day'} open` : 'start';
  return `${word} ${formatMoney(g.mark, g.currency)}`;
}

/** What the guard guards: 'SMA FX Follower 03 ← SMA FX Master' for a relation, else the account. */
export function guardTargetName(g: Pick<Guard, 'relation' | 'account'>): string {
  if (g.relation) return `${g.relation.follower.account_name} ← ${g.relation.master.account_name}`;
  return g.account?.account_name ?? MISSING_VALUE;
}

/** The badge's title: the guard in a sentence. */
export function guardTitle(g: Guard): string {
  const measured = measureText(g);
  return [
    `${SCOPE_LABELS[g.scope]} guard of ${guardTargetName(g)}: ${BASIS_LABELS[g.basis].toLowerCase()}${g.period ? ` (${g.period})` : ''}, ${levelsSentence(g)}.`,
    STATE_MEANING[g.state],
    measured === null ? 'Not measured yet.' : `${measureName(g)}: ${measured}.`,
  ].join(' ');
}

/** Reached close-only or closed: only a write user's re-arm brings it back. */
export const isFired = (g: Pick<Guard, 'state'>): boolean => g.state === 'close_only' || g.state === 'closed';

/**
 * A relation's equity stop as the relation form sets it: its equity-floor guard with a close-only
 * level only. The relation's line shows it already ('stop 1 000,00 $US'), so it gets no badge.
 */
export const isEquityStop = (g: Pick<Guard, 'scope' | 'basis' | 'warn' | 'close_all'>): boolean =>
  g.scope === 'relation' && g.basis === 'equity_floor' && g.warn === null && g.close_all === null;
