import { csvFileText, type CsvTable } from '#shared/reports/csv.ts';
import { saveFile } from './save-file.ts';

/** Builds the file and hands it to the browser as a download named table.fileName. */
export function downloadCsv<T>(table: CsvTable<T>): void {
  saveFile(new Blob([csvFileText(table)], { type: 'text/csv;charset=utf-8' }), table.fileName);
}
