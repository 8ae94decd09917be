import { parentPort, workerData } from 'node:worker_threads';
import type { StatementData } from '#shared/contract/fees.ts';
import { statementReport } from '#shared/reports/statement-report.ts';
import { buildTableReport } from '#shared/reports/table-report.ts';
import { serverFontFiles } from '#server/reports/font-files.ts';

/** The worker thread that draws one statement PDF (pdf-in-worker.ts starts it): it answers once and ends. */
const { data, generatedAt } = workerData as { data: StatementData; generatedAt: number };
try {
  const doc = await buildTableReport(statementReport(data, generatedAt), serverFontFiles);
  const bytes = new Uint8Array(doc.output('arraybuffer'));
  parentPort!.postMessage({ ok: true, bytes }, [bytes.buffer]);
} catch (err) {
  parentPort!.postMessage({ ok: false, message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}
