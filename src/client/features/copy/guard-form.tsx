import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Guard } from '#shared/contract/guards.ts';
import { GUARD_BASES, GUARD_PERIODS, type GuardBasis, type GuardUnit } from '#shared/domain/guards.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { UPDATE_FAILED } from '#client/api/queries/write.ts';
import { useOfflineStatus } from '#client/offline/offline-status.ts';
import { Modal } from '#client/ui/modal.tsx';
import { SegmentedControl } from '#client/ui/segmented-control.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { guardMutations } from '#client/api/queries/guards.ts';
import { formValuesOf, guardBodyOf, guardOn, unitOf, type GuardChoice, type GuardFormValues } from './guard-form-values.ts';
import { BASIS_LABELS, BASIS_MEANING, currencyMark, percentOfLabel, PERIOD_LABELS, STATE_LABELS } from './guard-labels.ts';
import { GuardLevelsFields } from './guard-levels-fields.tsx';
import { GUARDS_NEED_CONNECTION } from './guard-strip.tsx';

export interface GuardFormProps {
  title: string;
  /** What the guard may apply to; the first is chosen at first. */
  choices: readonly [GuardChoice, ...GuardChoice[]];
  /** The guards set on these targets already: their levels fill the form. */
  existing: readonly Guard[];
  /** The guard whose levels are being changed, if any. */
  preset?: Guard | undefined;
  onDone: () => void;
}

/**
 * Setting a guard: what it applies to, what it measures, in % or money, the period of a period loss,
 * and the three levels. Checked against the contract before sending; the server's refusal is shown as
 * it says it. One guard per target and basis: setting one again replaces its levels and keeps its state.
 */
export function GuardForm({ title, choices, existing, preset, onDone }: GuardFormProps) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const { browserOnline } = useOfflineStatus();
  const formId = useId();
  const initial = (preset && choices.find((c) => c.ref.scope === preset.scope)) ?? choices[0];
  const [choice, setChoice] = useState<GuardChoice>(initial);
  const [values, setValues] = useState<GuardFormValues>(() => formValuesOf(preset ?? guardOn(existing, initial.ref, 'trailing_from_peak')));
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation(guardMutations.set(queryClient));
  const current = guardOn(existing, choice.ref, values.basis);
  const mark = unitOf(values.basis, values.unit) === 'percent' ? '%' : currencyMark(choice.currency);

  /** A new target or basis: the levels of the guard set there, if any; else what was typed. */
  const retarget = (next: GuardChoice, basis: GuardBasis) => {
    const set = guardOn(existing, next.ref, basis);
    setChoice(next);
    setValues((v) => (set ? formValuesOf(set) : { ...v, basis, unit: basis === 'equity_floor' ? 'money' : v.basis === 'equity_floor' ? 'percent' : v.unit }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wanted = guardBodyOf(choice.ref, values);
    if ('problem' in wanted) return setProblem(wanted.problem);
    setProblem(null);
    save.mutate(wanted.body, {
      onSuccess: (res) => {
        toast.show(res.message);
        onDone();
      },
      onError: (err) => setProblem(err.message || UPDATE_FAILED),
    });
  };

  const footer = (
    <>
      <button type="button" className="button" onClick={onDone}>
        Cancel
      </button>
      <button type="submit" form={formId} className="button primary" disabled={save.isPending || !browserOnline} title={browserOnline ? undefined : GUARDS_NEED_CONNECTION}>
        {save.isPending ? 'Saving...' : current ? 'Save levels' : 'Set guard'}
      </button>
    </>
  );
  return (
    <Modal open onClose={onDone} title={title} footer={footer}>
      <form id={formId} className="guard-form" onSubmit={submit} noValidate aria-label={title}>
        {choices.length > 1 ? (
          <div className="relation-field">
            <span className="relation-label">Applies to</span>
            <SegmentedControl
              label="Applies to"
              options={choices.map((c) => ({ value: c.ref.scope, label: c.label }))}
              value={choice.ref.scope}
              onChange={(scope) => retarget(choices.find((c) => c.ref.scope === scope) ?? choice, values.basis)}
              block
            />
          </div>
        ) : null}
        <p className="relation-sub">{choice.hint}</p>
        <label className="field">
          <span>Measure</span>
          <select value={values.basis} onChange={(e) => retarget(choice, e.target.value as GuardBasis)} data-autofocus>
            {GUARD_BASES.map((b) => (
              <option key={b} value={b}>
                {BASIS_LABELS[b]}
              </option>
            ))}
          </select>
          <small className="relation-sub">{BASIS_MEANING[values.basis]}</small>
        </label>
        {values.basis === 'equity_floor' ? null : (
          <div className="relation-field">
            <span className="relation-label">Levels in</span>
            <SegmentedControl<GuardUnit>
              label="Levels in"
              options={[
                { value: 'percent', label: percentOfLabel(values.basis) },
                { value: 'money', label: choice.currency },
              ]}
              value={values.unit}
              onChange={(u) => setValues((v) => ({ ...v, unit: u }))}
              block
            />
          </div>
        )}
        {values.basis === 'period_loss' ? (
          <div className="relation-field">
            <span className="relation-label">Period (UTC)</span>
            <SegmentedControl label="Period" options={GUARD_PERIODS.map((p) => ({ value: p, label: PERIOD_LABELS[p] }))} value={values.period} onChange={(p) => setValues((v) => ({ ...v, period: p }))} block />
          </div>
        ) : null}
        <GuardLevelsFields values={values} mark={mark} currency={choice.currency} onLevel={(key, text) => setValues((v) => ({ ...v, [key]: text }))} />
        {current ? (
          <p className="relation-sub guard-replaces">
            Replaces the levels of the guard set on {formatDateFr(current.started_at)}; it stays {STATE_LABELS[current.state]}.
          </p>
        ) : null}
      </form>
      {problem ? (
        <p role="alert" className="form-error relation-error">
          {problem}
        </p>
      ) : null}
    </Modal>
  );
}
