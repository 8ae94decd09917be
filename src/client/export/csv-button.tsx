import { useState } from 'react';
import type { CsvTable } from './csv-table.ts';
import './csv-button.css';
import { DownloadIcon } from '#client/ui/icons.tsx';

export interface CsvButtonProps<T> {
  /** The table's name in the button's accessible name: 'Export {table} as CSV'. */
  table: string;
  /** Builds the table from the rows on screen when the button is pressed, at time `nowMs`. */
  build: (nowMs: number) => CsvTable<T>;
  /** Disabled when there are no rows, as the PDF buttons. */
  disabled?: boolean;
  /** 'toolbar' beside a PDF button (its size); 'header' in a table's heading (compact; the icon alone on phones). */
  placement?: 'toolbar' | 'header';
}

/**
 * 'CSV': writes the table as a CSV file and downloads it. The writer and its library load on the
 * first press (dynamic import), never with a screen.
 */
export function CsvButton<T>({ table, build, disabled = false, placement = 'header' }: CsvButtonProps<T>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = `Export ${table} as CSV`;

  const onClick = async () => {
    setBusy(true);
    setError(null);
    try {
      const { downloadCsv } = await import('./download-csv.ts');
      downloadCsv(build(Date.now()));
    } catch {
      setError('The CSV file could not be created. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <span className={`csv-button csv-button-${placement}`}>
      <button
        type="button"
        className="button"
        aria-label={name}
        title={name}
        disabled={disabled || busy}
        aria-busy={busy || undefined}
        onClick={() => void onClick()}
      >
        <DownloadIcon />
        <span className="csv-button-text">CSV</span>
      </button>
      {error === null ? null : (
        <span role="alert" className="csv-button-error">
          {error}
        </span>
      )}
    </span>
  );
}
