import { formatDateFr } from '#shared/format/dates.ts';
import { formatMoney } from '#shared/format/money.ts';
import { formatPercent, formatPrice, formatQuantity } from '#shared/format/numbers.ts';
import { compareValues } from '#shared/domain/sorting.ts';

/**
 * The browser's first Intl formatter loads its locale data: tens of milliseconds on a phone, and
 * all inside whichever render formats the first figure (or sorts the first names: the accounts and
 * brokers pickers do, with the collator of compareValues). Paid here instead, in steps of a task
 * each while the screen's code and data are on their way: the locale itself, the number formats,
 * the date format, the collator.
 */
const STEPS: readonly (() => unknown)[] = [
  () => new Intl.Locale('fr-FR').maximize(),
  () => formatMoney(0, 'EUR'),
  () => [formatPrice(0), formatPercent(0), formatQuantity(0)],
  () => formatDateFr(0),
  () => compareValues('a', 'b'),
];

let done = 0;
let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * Starts the warm-up, or lets the one under way go on (main.tsx starts it for a signed-in user
 * before the first render, the signed-in layout again when it mounts); each step runs once a page.
 * The returned function stops it where it is.
 */
export function warmUpIntl(): () => void {
  const run = () => {
    timer = setTimeout(() => {
      STEPS[done++]?.();
      if (done < STEPS.length) run();
      else timer = undefined;
    }, 0);
  };
  if (timer === undefined && done < STEPS.length) run();
  return () => {
    clearTimeout(timer);
    timer = undefined;
  };
}
