import { useId, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { UPDATE_FAILED } from '#client/api/queries/write.ts';
import { flexMutations, type FlexAccount } from '#client/api/queries/flex.ts';

/**
 * 'Remove token' (no more daily fetches), confirmed by a second button under it that says what it
 * does. The server's answer stays once the token is gone.
 */
export function FlexRemove({ account, tokenSet }: { account: FlexAccount; tokenSet: boolean }) {
  const queryClient = useQueryClient();
  const confirmId = useId();
  const trigger = useRef<HTMLButtonElement>(null);
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation(flexMutations.remove(queryClient, account.account_id));
  const cancel = () => {
    setConfirming(false);
    trigger.current?.focus();
  };
  return (
    <div className="ibflex-remove">
      {tokenSet ? (
        <div className="ibflex-actions">
          <button
            ref={trigger}
            type="button"
            className="button ibflex-danger"
            aria-expanded={confirming}
            aria-controls={confirmId}
            onClick={() => setConfirming((c) => !c)}
          >
            Remove token
          </button>
        </div>
      ) : null}
      {tokenSet && confirming ? (
        <div id={confirmId} className="ibflex-confirm" role="group" aria-label="Remove the Flex token">
          <p>Remove the Flex token of {account.account_name}? The daily fetches stop until a new one is set.</p>
          <div className="ibflex-actions">
            <button
              type="button"
              className="button primary ibflex-danger-fill"
              disabled={remove.isPending}
              onClick={() => remove.mutate(undefined, { onSettled: () => setConfirming(false) })}
            >
              {remove.isPending ? 'Removing...' : 'Remove'}
            </button>
            <button type="button" className="button" onClick={cancel}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
      {/* Always present, so that the answer is announced. */}
      <p role="status" className="ibflex-done">
        {remove.isSuccess ? remove.data.message : null}
      </p>
      {remove.isError ? (
        <p role="alert" className="form-error">
          {remove.error.message || UPDATE_FAILED}
        </p>
      ) : null}
    </div>
  );
}
