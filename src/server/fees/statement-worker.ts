import { parentPort, workerData } from 'node:worker_threads';
import { StatementResponse } from '#shared/contract/fees.ts';
import { statementCsv, statementFileName } from '#shared/reports/statement-report.ts';
import { buildStatementData, type StatementInput } from './statement-build.ts';
import type { StatementAnswer } from './statement-in-worker.ts';

/**
 * The worker thread that makes one statement (statement-in-worker.ts starts it): its figures from
 * what the server read, then the JSON text (encoded through the response schema, as Fastify would:
 * money to the cent) or the CSV; for a PDF, the figures, which pdf-worker.ts draws. It answers once
 * and ends.
 */
const { input, format } = workerData as { input: StatementInput; format: 'json' | 'csv' | 'pdf' };
const answer = (a: StatementAnswer) => parentPort!.postMessage(a);
try {
  const data = buildStatementData(input);
  if (format === 'json') answer({ ok: true, format, text: JSON.stringify(StatementResponse.encode({ data })) });
  else if (format === 'csv') answer({ ok: true, format, text: statementCsv(data), fileName: statementFileName(data, 'csv') });
  else answer({ ok: true, format, data });
} catch (err) {
  answer({ ok: false, message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}
