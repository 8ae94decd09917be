import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Guard } from '#shared/contract/guards.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { formatMoney } from '#shared/format/money.ts';
import { MISSING_VALUE } from '#shared/format/numbers.ts';
import { UPDATE_FAILED } from '#client/api/queries/write.ts';
import { useOfflineStatus } from '#client/offline/offline-status.ts';
import { FigureList, type Figure } from '#client/ui/figure-list.tsx';
import { Modal } from '#client/ui/modal.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { guardMutations } from '#client/api/queries/guards.ts';
import { BASIS_LABELS, guardTargetName, isFired, levelsSentence, markName, measureText, measureName, SCOPE_LABELS, STATE_LABELS, STATE_MEANING } from './guard-labels.ts';
import { GuardRearmChoice } from './guard-rearm.tsx';
import { GUARDS_NEED_CONNECTION } from './guard-strip.tsx';

type Step = 'view' | 'remove' | 'rearm';

/** The guard's figures: state, levels, last measure and its time, mark, when it fired and since when it runs. */
function guardFigures(g: Guard): Figure[] {
  const mark = markName(g);
  const measured = measureText(g);
  return [
    { label: 'Levels', value: levelsSentence(g) || MISSING_VALUE },
    { label: 'State', value: <span className={`guard-state-text guard-${g.state}`}>{STATE_LABELS[g.state]}</span>, raw: g.state },
    { label: measureName(g), value: measured === null ? 'not measured yet' : `${measured} (${formatDateFr(g.measured_at)})` },
    ...(mark === null ? [] : [{ label: mark, value: g.mark === null ? 'taken at the next measure' : formatMoney(g.mark, g.currency) }]),
    ...(g.fired_at === null ? [] : [{ label: 'Fired', value: formatDateFr(g.fired_at) }]),
    { label: 'Since', value: formatDateFr(g.started_at) },
  ];
}

/**
 * A guard opened by a write user: its figures, then Change levels, Remove (confirmed) and, once it
 * has fired, Re-arm: keep its mark, or start afresh from today's equity (chosen, then confirmed).
 */
export function GuardDialog({ guard: g, onChange, onDone }: { guard: Guard; onChange: (g: Guard) => void; onDone: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const { browserOnline } = useOfflineStatus();
  const [step, setStep] = useState<Step>('view');
  const [fresh, setFresh] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  const done = {
    onSuccess: (res: { message: string }) => {
      toast.show(res.message);
      onDone();
    },
    onError: (err: Error) => setError(err.message || UPDATE_FAILED),
  };
  const remove = useMutation(guardMutations.remove(queryClient));
  const rearm = useMutation(guardMutations.rearm(queryClient));
  const offline = browserOnline ? undefined : GUARDS_NEED_CONNECTION;
  const back = () => {
    setStep('view');
    setFresh(null);
    setError(null);
  };

  let footer;
  if (step === 'remove') {
    footer = (
      <>
        <button type="button" className="button" onClick={back}>
          Keep guard
        </button>
        <button type="button" className="button primary relation-danger" disabled={remove.isPending || !browserOnline} title={offline} onClick={() => remove.mutate(g.id, done)} data-autofocus>
          {remove.isPending ? 'Removing...' : 'Remove guard'}
        </button>
      </>
    );
  } else if (step === 'rearm') {
    footer = (
      <>
        <button type="button" className="button" onClick={back}>
          Not now
        </button>
        <button
          type="button"
          className="button primary"
          disabled={fresh === null || rearm.isPending || !browserOnline}
          title={offline}
          onClick={() => fresh !== null && rearm.mutate({ id: g.id, freshMark: fresh }, done)}
        >
          {rearm.isPending ? 'Re-arming...' : 'Re-arm guard'}
        </button>
      </>
    );
  } else {
    footer = (
      <>
        <button type="button" className="button relation-end" onClick={() => setStep('remove')}>
          Remove…
        </button>
        <button type="button" className="button" onClick={() => onChange(g)} disabled={!browserOnline} title={offline}>
          Change levels
        </button>
        {isFired(g) ? (
          <button type="button" className="button primary" onClick={() => setStep('rearm')} disabled={!browserOnline} title={offline}>
            Re-arm…
          </button>
        ) : null}
      </>
    );
  }

  return (
    <Modal open onClose={onDone} title={`${BASIS_LABELS[g.basis]} guard`} footer={footer}>
      <p className="relation-sub relation-lead">
        {SCOPE_LABELS[g.scope]} guard of {guardTargetName(g)}
        {g.period ? `, per ${g.period} (UTC)` : ''}.
      </p>
      {step === 'view' ? (
        <>
          <p className="guard-meaning">{STATE_MEANING[g.state]}</p>
          <div className="guard-figures">
            <FigureList figures={guardFigures(g)} label="Guard figures" />
          </div>
          {isFired(g) ? <p className="relation-sub">It never resumes by itself: re-arm it to copy again as its levels allow.</p> : null}
        </>
      ) : step === 'remove' ? (
        <p className="relation-confirm">Remove this guard? Copying it holds back resumes as the other guards allow.</p>
      ) : (
        <GuardRearmChoice guard={g} fresh={fresh} onChoose={setFresh} />
      )}
      {error ? (
        <p role="alert" className="form-error relation-error">
          {error}
        </p>
      ) : null}
    </Modal>
  );
}
