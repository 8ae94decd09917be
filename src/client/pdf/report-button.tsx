import { useState } from 'react';
import './report-button.css';
import type { TableReport } from '#shared/reports/table-report.ts';
import { feature } from '#client/config/runtime-config.ts';
import { DownloadIcon } from '#client/ui/icons.tsx';

export interface ReportButtonProps {
  /** Builds the report from the data on screen when the button is pressed, at time `nowMs`. */
  build: (nowMs: number) => TableReport;
  /** docs/product.md#screens: disabled when there are no rows. */
  disabled: boolean;
  label?: string;
}

/** 'Download PDF': loads the PDF library on demand, builds the report and downloads it. */
export function ReportButton({ build, disabled, label = 'Download PDF' }: ReportButtonProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A deployment can turn the PDF reports off (/config.json).
  if (!feature('pdf_reports')) return null;

  const onClick = async () => {
    setBusy(true);
    setError(null);
    try {
      const { downloadTableReport } = await import('./download-report.ts');
      await downloadTableReport(build(Date.now()));
    } catch {
      setError('The PDF report could not be created. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="report-button">
      <button type="button" className="button primary" disabled={disabled || busy} onClick={() => void onClick()}>
        <DownloadIcon />
        {busy ? 'Preparing PDF...' : label}
      </button>
      {error === null ? null : (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
    </div>
  );
}
