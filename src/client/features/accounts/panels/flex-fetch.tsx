import { useId } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IMPORT_FAILED } from '#client/api/queries/statement-import.ts';
import { flexMutations, type FlexAccount } from '#client/api/queries/flex.ts';
import { ImportSummary } from '../import-summary.tsx';

/** 'Fetch now': the account's Activity statement fetched and booked at once, summed up as an upload's import is. */
export function FlexFetch({ account, tokenSet }: { account: FlexAccount; tokenSet: boolean }) {
  const queryClient = useQueryClient();
  const fetchNow = useMutation(flexMutations.fetchNow(queryClient, account.account_id));
  const noteId = useId();
  return (
    <>
      <div className="ibflex-actions">
        <button
          type="button"
          className="button"
          disabled={!tokenSet || fetchNow.isPending}
          aria-describedby={tokenSet ? undefined : noteId}
          onClick={() => fetchNow.mutate()}
        >
          {fetchNow.isPending ? 'Fetching...' : 'Fetch now'}
        </button>
      </div>
      {tokenSet ? null : (
        <p id={noteId} className="panel-note">
          Set a token and a query ID first.
        </p>
      )}
      {/* Always present, so that a summary arriving is announced. */}
      <div role="status" className="ibflex-result">
        {fetchNow.isSuccess ? <ImportSummary result={fetchNow.data} account={account} /> : null}
      </div>
      {fetchNow.isError ? (
        <p role="alert" className="form-error">
          {fetchNow.error.message || IMPORT_FAILED}
        </p>
      ) : null}
    </>
  );
}
