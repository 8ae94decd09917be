/* A statement's period and its PDF and CSV downloads. */
import { useState } from 'react';
import { fetchStatement, STATEMENT_FAILED, type FeeRange, type StatementFormat } from '#client/api/queries/fees.ts';
import { feature } from '#client/config/runtime-config.ts';
import { saveFile } from '#client/export/save-file.ts';
import { SegmentedControl } from '#client/ui/segmented-control.tsx';
import { type FeesAccount, dayText, type PeriodChoice, PERIOD_OPTIONS, rangeDays } from './fee-model.ts';
import { DownloadIcon } from '#client/ui/icons.tsx';

export function PeriodChooser({
  choice,
  onChoice,
  custom,
  onCustom,
  range,
}: {
  choice: PeriodChoice;
  onChoice: (c: PeriodChoice) => void;
  custom: { from: string; to: string };
  onCustom: (c: { from: string; to: string }) => void;
  range: FeeRange | null;
}) {
  const days = range ? rangeDays(range) : null;
  return (
    <div className="fees-period">
      <SegmentedControl label="Statement period" options={PERIOD_OPTIONS} value={choice} onChange={onChoice} block className="fees-periods" />
      {choice === 'custom' ? (
        <div className="fees-form-row fees-custom">
          <label className="field">
            <span>From</span>
            <input type="date" value={custom.from} max={custom.to || undefined} onChange={(e) => onCustom({ ...custom, from: e.target.value })} />
          </label>
          <label className="field">
            <span>To</span>
            <input type="date" value={custom.to} min={custom.from || undefined} onChange={(e) => onCustom({ ...custom, to: e.target.value })} />
          </label>
        </div>
      ) : null}
      <p className="panel-note fees-range" aria-live="polite">
        {days ? `${dayText(days.from)} – ${dayText(days.to)}` : 'Give a first day, and a last day that does not come before it.'}
      </p>
    </div>
  );
}

export function StatementDownloads({ account, range }: { account: FeesAccount; range: FeeRange | null }) {
  const [busy, setBusy] = useState<StatementFormat | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A deployment can turn the PDF reports off (/config.json), as it does for NAV and Rebates.
  const formats: StatementFormat[] = feature('pdf_reports') ? ['pdf', 'csv'] : ['csv'];

  const download = async (format: StatementFormat) => {
    if (range === null) return;
    setBusy(format);
    setError(null);
    try {
      const file = await fetchStatement(account.account_id, range, format);
      saveFile(file.blob, file.fileName ?? `statement.${format}`);
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : STATEMENT_FAILED);
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <div className="fees-downloads" aria-busy={busy !== null}>
        {formats.map((format) => (
          <button
            key={format}
            type="button"
            className={format === 'pdf' ? 'button primary' : 'button'}
            disabled={range === null || busy !== null}
            onClick={() => void download(format)}
          >
            <DownloadIcon />
            {busy === format ? `Preparing ${format.toUpperCase()}...` : `Download ${format.toUpperCase()}`}
          </button>
        ))}
      </div>
      {error === null ? null : (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
    </>
  );
}
