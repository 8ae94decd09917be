import type { GuardBasis } from '#shared/domain/guards.ts';
import type { GuardFormValues } from './guard-form-values.ts';

type LevelKey = 'warn' | 'closeOnly' | 'closeAll';

const LEVELS: readonly { key: LevelKey; label: string; does: string }[] = [
  { key: 'warn', label: 'Warn', does: 'an alert; copying goes on' },
  { key: 'closeOnly', label: 'Close-only', does: 'no new copies; the master’s closes still copied' },
  { key: 'closeAll', label: 'Close-all', does: 'every copy closed, copying stopped' },
];

/** How the levels read for a basis: which way the measure moves, so which level comes first. */
export function levelsHint(basis: GuardBasis, currency: string): string {
  if (basis === 'equity_floor') return `Equity in ${currency}, falling: warn above close-only above close-all.`;
  if (basis === 'profit_target') return 'Gain from the start, rising: warn below close-only below close-all.';
  return 'Loss, rising: warn below close-only below close-all. A loss in % is at most 100.';
}

export interface GuardLevelsFieldsProps {
  values: GuardFormValues;
  /** The unit after each level's name: '%' or '$US'. */
  mark: string;
  currency: string;
  onLevel: (key: LevelKey, text: string) => void;
}

/**
 * The three levels of a guard, each optional, each with what it does in words under its field (a
 * phone shows them one under the other), and which way they run for the basis chosen.
 */
export function GuardLevelsFields({ values, mark, currency, onLevel }: GuardLevelsFieldsProps) {
  return (
    <fieldset className="guard-levels">
      <legend className="relation-label">Levels (leave one empty for none)</legend>
      {LEVELS.map((l) => (
        <label key={l.key} className="field guard-level">
          <span>
            {l.label} ({mark})
          </span>
          <input inputMode="decimal" autoComplete="off" value={values[l.key]} onChange={(e) => onLevel(l.key, e.target.value)} placeholder="none" />
          <small className="guard-level-does">{l.does}</small>
        </label>
      ))}
      <p className="relation-sub guard-levels-hint">{levelsHint(values.basis, currency)}</p>
    </fieldset>
  );
}
