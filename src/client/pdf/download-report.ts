import { buildTableReport, type TableReport } from '#shared/reports/table-report.ts';
import { appFontFiles } from './font-files.ts';

/** Builds the report and hands it to the browser as a download named report.fileName. */
export async function downloadTableReport(report: TableReport): Promise<void> {
  const doc = await buildTableReport(report, appFontFiles);
  doc.save(report.fileName);
}
