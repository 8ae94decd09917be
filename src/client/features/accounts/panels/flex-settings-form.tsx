import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SetFlexBody, type FlexStatus } from '#shared/contract/flex.ts';
import { UPDATE_FAILED } from '#client/api/queries/write.ts';
import { flexMutations, type FlexAccount } from '#client/api/queries/flex.ts';

export const FLEX_SAVED = 'Flex settings saved: the first fetch runs shortly, then once a day.';

/** The contract's first complaint about the form, as a sentence. */
function problemOf(body: SetFlexBody): string | null {
  const checked = SetFlexBody.safeParse(body);
  if (checked.success) return null;
  const message = checked.error.issues[0]?.message ?? UPDATE_FAILED;
  return `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;
}

/**
 * Setting the token and query id: open while no token is set, behind 'Replace token' once one is. The
 * form stays where it is when its first save sets the token, so its answer stays in sight.
 */
export function FlexSettingsForm({ account, current }: { account: FlexAccount; current: FlexStatus }) {
  const [open, setOpen] = useState(!current.token_set);
  const formId = useId();
  return (
    <>
      {current.token_set ? (
        <button type="button" className="button ibflex-toggle" aria-expanded={open} aria-controls={formId} onClick={() => setOpen((o) => !o)}>
          <span aria-hidden="true" className="ibflex-chevron">
            {open ? '▾' : '▸'}
          </span>
          Replace token
        </button>
      ) : null}
      {open ? <FlexFormBody id={formId} account={account} current={current} /> : null}
    </>
  );
}

function FlexFormBody({ id, account, current }: { id: string; account: FlexAccount; current: FlexStatus }) {
  const queryClient = useQueryClient();
  const hintId = useId();
  const [token, setToken] = useState('');
  const [queryId, setQueryId] = useState(current.query_id ?? '');
  const [expires, setExpires] = useState(current.token_expires ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const save = useMutation(flexMutations.set(queryClient, account.account_id));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    const body: SetFlexBody = { token: token.trim(), query_id: queryId.trim(), token_expires: expires === '' ? null : expires };
    const wrong = problemOf(body);
    setProblem(wrong);
    if (wrong !== null) return;
    save.mutate(body, {
      onSuccess: () => {
        // The token is not kept on the page once the server has it.
        setToken('');
        setDone(FLEX_SAVED);
      },
      onError: (err) => setProblem(err.message || UPDATE_FAILED),
    });
  };

  return (
    <form id={id} className="ibflex-form" onSubmit={submit} noValidate aria-label={`Flex settings of ${account.account_name}`}>
      <label className="field">
        <span>Flex Web Service token</span>
        <input
          type="password"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          value={token}
          aria-describedby={hintId}
          onChange={(e) => setToken(e.target.value)}
        />
      </label>
      <div className="ibflex-form-row">
        <label className="field">
          <span>Query ID</span>
          <input type="text" inputMode="numeric" autoComplete="off" value={queryId} onChange={(e) => setQueryId(e.target.value)} />
        </label>
        <label className="field">
          <span>Token expires (optional)</span>
          <input type="date" value={expires} onChange={(e) => setExpires(e.target.value)} />
        </label>
      </div>
      <p id={hintId} className="panel-note">
        From Client Portal: Settings → Reporting → Flex Queries (the Activity Flex Query&apos;s ID, and the token with the expiry
        chosen for it). The token is stored sealed and never shown again; an alert comes three days before it expires.
      </p>
      <div className="ibflex-actions">
        <button type="submit" className="button primary" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Flex settings'}
        </button>
      </div>
      {/* Always present, so that the answer is announced. */}
      <p role="status" className="ibflex-done">
        {done}
      </p>
      {problem ? (
        <p role="alert" className="form-error">
          {problem}
        </p>
      ) : null}
    </form>
  );
}
