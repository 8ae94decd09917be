import { formatDateFr } from '#shared/format/dates.ts';
import { formatMoney } from '#shared/format/money.ts';
import { formatPercent, formatPrice, formatQuantity } from '#shared/format/numbers.ts';

/**
 * The browser's first Intl formatter loads its locale data: tens of milliseconds on a phone, and
 * all inside whichever render formats the first figure. Paid here instead, in steps of a task each
 * while the screen's data is on its way: the locale itself, the number formats, the date format.
 */
const STEPS: readonly (() => unknown)[] = [
  () => new Intl.Locale('fr-FR').maximize(),
  () => formatMoney(0, 'EUR'),
  () => [formatPrice(0), formatPercent(0), formatQuantity(0)],
  () => formatDateFr(0),
];

/** Starts the warm-up; the returned function stops it where it is. */
export function warmUpIntl(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = (step: number) => {
    timer = setTimeout(() => {
      STEPS[step]?.();
      if (step + 1 < STEPS.length) run(step + 1);
    }, 0);
  };
  run(0);
  return () => clearTimeout(timer);
}
