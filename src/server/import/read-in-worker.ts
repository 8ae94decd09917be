import { LIMITS, READ_BUDGET, ReadBudgetError } from '#shared/statements/budget.ts';
import { NotAStatementError } from '#shared/statements/report.ts';
import type { StatementFile } from '#shared/statements/readers.ts';
import { runInWorker, Turns } from '#server/workers/ts-worker.ts';

/** What the reading worker answers. */
export type WorkerAnswer =
  | { ok: true; statement: StatementFile }
  /** `message`: the refusal's, a budget's limit, or a failure's stack. */
  | { ok: false; kind: 'refused' | 'budget' | 'failed'; message: string };

/** Files read at once; more wait their turn (each worker may take READ_BUDGET.heapMb). */
const CONCURRENT = 2;
/** Files waiting their turn (each holds its bytes): past this, a file is turned away at once. */
const WAITING = 8;

/** Too many files are being read already: the caller should try again in a moment. */
export class ReaderBusyError extends Error {
  override readonly name = 'ReaderBusyError';
  constructor() {
    super('The server is reading other statement files: try again in a moment.');
  }
}

const ENTRY = new URL('./read-worker.ts', import.meta.url).href;
const turns = new Turns(CONCURRENT, WAITING, () => new ReaderBusyError());

/**
 * Reads an untrusted statement file off the main thread: in a worker whose heap is capped
 * (READ_BUDGET.heapMb) and which is stopped after READ_BUDGET.seconds, so no file can exhaust the
 * server's memory or stall its event loop. Rejects with NotAStatementError (not a report, or one that
 * cannot be imported as it is) or ReadBudgetError (past a limit); any other failure is an Error.
 */
export async function readStatement(bytes: Uint8Array, fileName?: string, limits: { seconds: number } = { seconds: READ_BUDGET.seconds }): Promise<StatementFile> {
  // ReaderBusyError, thrown before anything is started, when too many files wait already.
  const done = await turns.take();
  try {
    // A copy of its own to hand over: the request's buffer may share its memory with others.
    const own = new Uint8Array(bytes);
    const answer = await runInWorker<WorkerAnswer>(
      ENTRY,
      { bytes: own, fileName },
      {
        heapMb: READ_BUDGET.heapMb,
        deadlineMs: limits.seconds * 1000,
        late: () => new ReadBudgetError(LIMITS.seconds),
        failed: (err) => (err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new ReadBudgetError(LIMITS.heap) : err),
      },
      [own.buffer],
    );
    if (answer.ok) return answer.statement;
    if (answer.kind === 'refused') throw new NotAStatementError(answer.message, fileName);
    if (answer.kind === 'budget') throw new ReadBudgetError(answer.message);
    throw new Error(answer.message);
  } finally {
    done();
  }
}
