import { runInWorker, Turns } from '#server/workers/ts-worker.ts';
import type { StatementData } from '#shared/contract/fees.ts';
import { StatementTooLargeError, WORKER_NICE, WORKER_YOUNG_MB } from './statement-in-worker.ts';
import { STATEMENT_QUEUE } from './statement-queue.ts';

/*
 * A statement's PDF is drawn off the main thread: an account of thousands of trades makes a PDF of
 * hundreds of pages, seconds of work that would otherwise stall every other request. The worker's
 * heap is capped and it is stopped past a deadline. A PDF is drawn within its statement's turn of the
 * statement queue (statement-queue.ts), and one at a time: drawing takes far more memory than making
 * the figures (some 270 MB for 5,000 trades, docs/statements.md), so a second PDF waits for the first.
 */

/** A worker still drawing after this is stopped. */
const DEADLINE_MS = 60_000;
const HEAP_MB = 512;
/** PDFs drawn at once. */
export const PDFS_AT_ONCE = 1;

const ENTRY = new URL('./pdf-worker.ts', import.meta.url).href;
// The statement queue bounds who may wait here (its statements being made); the bound below is never reached.
const drawing = new Turns(PDFS_AT_ONCE, STATEMENT_QUEUE.running + STATEMENT_QUEUE.waiting, () => new Error('Too many PDFs waiting to be drawn.'));

type Answer = { ok: true; bytes: Uint8Array } | { ok: false; message: string };

/** The statement as PDF bytes, drawn in a worker thread. `generatedAt`: epoch seconds. */
export async function drawStatementPdf(data: StatementData, generatedAt: number): Promise<Buffer> {
  const done = await drawing.take();
  try {
    return await draw(data, generatedAt);
  } finally {
    done();
  }
}

async function draw(data: StatementData, generatedAt: number): Promise<Buffer> {
  const answer = await runInWorker<Answer>(ENTRY, { data, generatedAt }, {
    heapMb: HEAP_MB,
    deadlineMs: DEADLINE_MS,
    nice: WORKER_NICE,
    youngMb: WORKER_YOUNG_MB,
    late: () => new StatementTooLargeError(`The statement PDF took over ${DEADLINE_MS / 1000} s to draw: choose a shorter range, or ask for CSV.`),
    failed: (err) =>
      err.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new StatementTooLargeError(`The statement PDF needed more than ${HEAP_MB} MB to draw: choose a shorter range, or ask for CSV.`)
        : err,
  });
  if (!answer.ok) throw new Error(answer.message);
  return Buffer.from(answer.bytes);
}
