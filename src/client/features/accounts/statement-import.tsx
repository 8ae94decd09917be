import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { STATEMENT_FILE_TYPES, STATEMENT_MAX_BYTES, UTC_OFFSET_MAX, UTC_OFFSET_MIN, type ImportStatementResponse } from '#shared/contract/import.ts';
import { IMPORT_FAILED, statementImportMutations } from '#client/api/queries/statement-import.ts';
import { Modal } from '#client/ui/modal.tsx';
import { ImportSummary } from './import-summary.tsx';
import './statement-import.css';
import { UploadIcon } from '#client/ui/icons.tsx';

export const CHOOSE_FILE = 'Choose a report file to import.';
export const BAD_OFFSET = `Enter the broker's offset in hours from UTC, from ${UTC_OFFSET_MIN / 60} to ${UTC_OFFSET_MAX / 60}.`;

interface ImportTarget {
  account_id: string;
  /** The login, as the report names it. */
  account: string;
  account_name: string;
}

/** The files the import reads (STATEMENT_FILE_TYPES), in words. */
export const STATEMENT_KINDS =
  'A MetaTrader 5 trade history report (.htm, .html, .xlsx), a MetaTrader 4 statement (.htm) or an Interactive Brokers Flex statement (.xml)';

/** 'Import statement' beside the selected account's heading (write users only; the page decides). */
export function StatementImport({ account }: { account: ImportTarget }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button statement-import-trigger" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <UploadIcon />
        Import statement
      </button>
      {/* Keyed by account: another account's dialog starts empty. */}
      {open ? <StatementImportDialog key={account.account_id} account={account} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/** Hours as typed ('2', '-5', '5.5', '5,75') to whole minutes; null when not an offset on Earth. */
export function offsetMinutes(text: string): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return 0;
  if (!/^[+-]?\d{1,2}(\.\d+)?$/.test(trimmed)) return null;
  const minutes = Math.round(Number(trimmed) * 60);
  return minutes >= UTC_OFFSET_MIN && minutes <= UTC_OFFSET_MAX ? minutes : null;
}

function StatementImportDialog({ account, onClose }: { account: ImportTarget; onClose: () => void }) {
  const formId = useId();
  const hintId = useId();
  const kindsId = useId();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [offset, setOffset] = useState('0');
  // What a number field cannot hold ('2h', '-') reaches React as '': remembered apart, so it is refused.
  const [offsetUnreadable, setOffsetUnreadable] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<ImportStatementResponse | null>(null);
  const mutation = useMutation(statementImportMutations.upload(queryClient));


  const submit = (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    if (!file) {
      setProblem(CHOOSE_FILE);
      return;
    }
    const minutes = offsetUnreadable ? null : offsetMinutes(offset);
    if (minutes === null) {
      setProblem(BAD_OFFSET);
      return;
    }
    setProblem(null);
    mutation.mutate(
      { account: account.account_id, file, utcOffsetMinutes: minutes },
      { onSuccess: setResult, onError: (err) => setProblem(err instanceof Error && err.message ? err.message : IMPORT_FAILED) },
    );
  };

  return (
    <Modal
      open
      onClose={onClose}
      title="Import statement"
      className="statement-import-dialog"
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Done
          </button>
          <button type="submit" form={formId} className="button primary" disabled={mutation.isPending}>
            {mutation.isPending ? 'Importing...' : 'Import'}
          </button>
        </>
      }
    >
      <form id={formId} className="statement-import-form" onSubmit={submit} noValidate>
        <p className="statement-import-lead">
          Into <strong>{account.account_name}</strong> · {account.account}
        </p>
        <label className="field statement-import-file">
          <span>Report file</span>
          <input
            type="file"
            accept={STATEMENT_FILE_TYPES}
            aria-describedby={kindsId}
            data-autofocus
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setResult(null);
              setProblem(null);
            }}
          />
        </label>
        <p id={kindsId} className="statement-import-hint">
          {STATEMENT_KINDS}, at most {STATEMENT_MAX_BYTES / 1024 / 1024} MB.
        </p>
        <label className="field">
          <span>Broker time offset (hours from UTC)</span>
          <input
            type="number"
            step="any"
            min={UTC_OFFSET_MIN / 60}
            max={UTC_OFFSET_MAX / 60}
            value={offset}
            aria-describedby={hintId}
            onChange={(e) => {
              setOffset(e.target.value);
              setOffsetUnreadable(e.target.validity.badInput);
            }}
          />
        </label>
        <p id={hintId} className="statement-import-hint">
          How far the file's times are ahead of UTC: MetaTrader shows the broker's server time (many brokers run at 2 in winter
          and 3 in summer); a Flex statement, the time zone its Flex Query was set to.
        </p>
        {/* Always present, so that a summary arriving is announced. */}
        <div role="status" className="statement-import-result">
          {result ? <ImportSummary result={result} account={account} /> : null}
        </div>
        {problem ? (
          <p role="alert" className="form-error">
            {problem}
          </p>
        ) : null}
      </form>
    </Modal>
  );
}
