import type { Guard } from '#shared/contract/guards.ts';
import { formatMoney } from '#shared/format/money.ts';
import { markName } from './guard-labels.ts';

export interface GuardRearmChoiceProps {
  guard: Guard;
  /** false: keep the mark; true: start afresh from today's equity; null: not chosen yet. */
  fresh: boolean | null;
  onChoose: (fresh: boolean) => void;
}

/**
 * How a fired guard is armed again, each option with what it means: keep its mark (the loss taken
 * so far still counts), or start afresh from today's equity (a new start and peak).
 */
export function GuardRearmChoice({ guard: g, fresh, onChoose }: GuardRearmChoiceProps) {
  const mark = markName(g);
  const option = (on: boolean) => (fresh === on ? 'guard-option guard-option-on' : 'guard-option');
  return (
    <fieldset className="guard-rearm">
      <legend className="relation-label">Re-arm from</legend>
      <label className={option(false)}>
        <input type="radio" name={`rearm-${g.id}`} checked={fresh === false} onChange={() => onChoose(false)} data-autofocus />
        <span>
          <strong>Keep the mark</strong>
          <span className="relation-sub">
            {mark === null
              ? 'The floor stays where it is.'
              : `It keeps measuring from the ${mark.toLowerCase()}${g.mark === null ? '' : ` (${formatMoney(g.mark, g.currency)})`}: the loss taken so far still counts.`}
          </span>
        </span>
      </label>
      <label className={option(true)}>
        <input type="radio" name={`rearm-${g.id}`} checked={fresh === true} onChange={() => onChoose(true)} />
        <span>
          <strong>Start afresh from today’s equity</strong>
          <span className="relation-sub">
            {mark === null ? 'The same floor: an equity floor has no start or peak to reset.' : 'A new start and a new peak at the next measure: the loss so far is forgotten.'}
          </span>
        </span>
      </label>
      <p className="relation-sub">Either way it is armed again and copying resumes as its levels allow.</p>
    </fieldset>
  );
}
