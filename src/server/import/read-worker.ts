import { parentPort, workerData } from 'node:worker_threads';
import { NotAStatementError, ReadBudgetError } from '#shared/statements/report.ts';
import { readStatementFile } from '#shared/statements/readers.ts';
import type { WorkerAnswer } from './read-in-worker.ts';

/** The worker thread that reads one statement file (read-in-worker.ts starts it): it answers once and ends. */
const { bytes, fileName } = workerData as { bytes: Uint8Array; fileName?: string };
let answer: WorkerAnswer;
try {
  answer = { ok: true, statement: await readStatementFile(bytes, fileName) };
} catch (err) {
  if (err instanceof NotAStatementError) answer = { ok: false, kind: 'refused', message: err.message };
  else if (err instanceof ReadBudgetError) answer = { ok: false, kind: 'budget', message: err.limit };
  else answer = { ok: false, kind: 'failed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) };
}
parentPort!.postMessage(answer);
