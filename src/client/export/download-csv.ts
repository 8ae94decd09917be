import { csvFileText, type CsvTable } from '#shared/reports/csv.ts';

/** How long the file's object URL lives: the browser may read it after the click returns. */
const REVOKE_AFTER_MS = 40_000;

/** Builds the file and hands it to the browser as a download named table.fileName. */
export function downloadCsv<T>(table: CsvTable<T>): void {
  const blob = new Blob([csvFileText(table)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = table.fileName;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
