import { runInWorker, Turns } from '#server/workers/ts-worker.ts';
import type { StatementData } from '#shared/contract/fees.ts';

/*
 * A statement's PDF is drawn off the main thread: an account of tens of thousands of trades makes a
 * PDF of hundreds of pages, seconds of work that would otherwise stall every other request. The
 * worker's heap is capped and it is stopped past a deadline; a few draw at once, a few more wait.
 */

/** PDFs drawn at once; more wait their turn. */
const CONCURRENT = 2;
/** Statements waiting their turn: past this, a request is turned away at once (429). */
const WAITING = 8;
/** A worker still drawing after this is stopped. */
const DEADLINE_MS = 60_000;
const HEAP_MB = 512;

/** Too many statements are being drawn already: the caller should try again in a moment. */
export class DrawerBusyError extends Error {
  override readonly name = 'DrawerBusyError';
  constructor() {
    super('The server is drawing other statements: try again in a moment.');
  }
}

const ENTRY = new URL('./pdf-worker.ts', import.meta.url).href;
const turns = new Turns(CONCURRENT, WAITING, () => new DrawerBusyError());

type Answer = { ok: true; bytes: Uint8Array } | { ok: false; message: string };

/** The statement as PDF bytes, drawn in a worker thread. `generatedAt`: epoch seconds. */
export async function drawStatementPdf(data: StatementData, generatedAt: number): Promise<Buffer> {
  const done = await turns.take();
  try {
    const answer = await runInWorker<Answer>(ENTRY, { data, generatedAt }, {
      heapMb: HEAP_MB,
      deadlineMs: DEADLINE_MS,
      late: () => new Error(`The statement PDF took over ${DEADLINE_MS / 1000} s to draw.`),
    });
    if (!answer.ok) throw new Error(answer.message);
    return Buffer.from(answer.bytes);
  } finally {
    done();
  }
}
