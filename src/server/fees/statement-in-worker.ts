import type { StatementData } from '#shared/contract/fees.ts';
import { runInWorker } from '#server/workers/ts-worker.ts';
import type { StatementInput } from './statement-build.ts';

/*
 * A statement is made off the main thread, whatever its format: its figures (a pass over every deal
 * of its range), its JSON text or its CSV (megabytes for tens of thousands of deals) would otherwise
 * hold the event loop that every other request needs. The worker's heap is capped and it is stopped
 * past a deadline. How many are made at once is statement-queue.ts's to say: its turn is taken before
 * the statement's reads, and held until its answer (its PDF included) is made.
 */

/** A worker still computing after this is stopped. */
export const FIGURES_DEADLINE_MS = 30_000;
/** Statement workers run at a lower priority than the main thread (Linux nice), which serves everyone else. */
export const WORKER_NICE = 10;
/** Their young generation, MB: a PDF of a month's 1,650 trades peaked 55 MB lower at 16 than at V8's 64, no slower. */
export const WORKER_YOUNG_MB = 16;
/** The heap of the worker that makes one statement's figures and text. */
const HEAP_MB = 256;

/** What the worker answers. */
export type StatementAnswer =
  | { ok: true; format: 'json'; text: string }
  | { ok: true; format: 'csv'; text: string; fileName: string }
  | { ok: true; format: 'pdf'; data: StatementData }
  | { ok: false; message: string };

/** The statement took longer than its deadline, or more memory than its worker has. */
export class StatementTooLargeError extends Error {
  override readonly name = 'StatementTooLargeError';
}

const ENTRY = new URL('./statement-worker.ts', import.meta.url).href;

/** The statement made in a worker thread: JSON or CSV text, or, for a PDF, its figures. */
export async function makeStatement(input: StatementInput, format: 'json' | 'csv' | 'pdf'): Promise<Exclude<StatementAnswer, { ok: false }>> {
  const answer = await runInWorker<StatementAnswer>(ENTRY, { input, format }, {
    heapMb: HEAP_MB,
    deadlineMs: FIGURES_DEADLINE_MS,
    nice: WORKER_NICE,
    youngMb: WORKER_YOUNG_MB,
    late: () => new StatementTooLargeError(`The statement took over ${FIGURES_DEADLINE_MS / 1000} s to make: choose a shorter range.`),
    failed: (err) =>
      err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new StatementTooLargeError(`The statement needed more than ${HEAP_MB} MB to make: choose a shorter range.`) : err,
  });
  if (!answer.ok) throw new Error(answer.message);
  return answer;
}
