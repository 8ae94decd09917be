import { Worker } from 'node:worker_threads';
import { LIMITS, READ_BUDGET, ReadBudgetError } from '#shared/statements/budget.ts';
import { NotAStatementError, type ParsedStatement } from '#shared/statements/report.ts';

/** What the reading worker answers. */
export type WorkerAnswer =
  | { ok: true; statement: ParsedStatement }
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

/**
 * The worker runs this TypeScript through tsx, as the server does (scripts/start.mjs): it registers
 * tsx's loader in its own thread, then imports its entry.
 */
const BOOT = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((tsx) => {
  tsx.register();
  return import(workerData.entry);
});
`;
const TSX = import.meta.resolve('tsx/esm/api');
const ENTRY = new URL('./read-worker.ts', import.meta.url).href;

let running = 0;
const waiting: (() => void)[] = [];

async function turn(): Promise<() => void> {
  if (running >= CONCURRENT) {
    if (waiting.length >= WAITING) throw new ReaderBusyError();
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

/**
 * Reads an untrusted statement file off the main thread: in a worker whose heap is capped
 * (READ_BUDGET.heapMb) and which is stopped after READ_BUDGET.seconds, so no file can exhaust the
 * server's memory or stall its event loop. Rejects with NotAStatementError (not a report, or one that
 * cannot be imported as it is) or ReadBudgetError (past a limit); any other failure is an Error.
 */
export async function readStatement(bytes: Uint8Array, fileName?: string, limits = { seconds: READ_BUDGET.seconds }): Promise<ParsedStatement> {
  // ReaderBusyError, thrown before anything is started, when too many files wait already.
  const done = await turn();
  try {
    return await new Promise<ParsedStatement>((resolve, reject) => {
      // A copy of its own to hand over: the request's buffer may share its memory with others.
      const own = new Uint8Array(bytes);
      const worker = new Worker(BOOT, {
        eval: true,
        workerData: { tsx: TSX, entry: ENTRY, bytes: own, fileName },
        transferList: [own.buffer],
        resourceLimits: { maxOldGenerationSizeMb: READ_BUDGET.heapMb, maxYoungGenerationSizeMb: 64, stackSizeMb: 8 },
        stdout: false,
        stderr: false,
      });
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        fn();
        void worker.terminate();
      };
      const deadline = setTimeout(() => settle(() => reject(new ReadBudgetError(LIMITS.seconds))), limits.seconds * 1000);
      worker.once('message', (answer: WorkerAnswer) =>
        settle(() => {
          if (answer.ok) resolve(answer.statement);
          else if (answer.kind === 'refused') reject(new NotAStatementError(answer.message, fileName));
          else if (answer.kind === 'budget') reject(new ReadBudgetError(answer.message));
          else reject(new Error(answer.message));
        }),
      );
      worker.once('error', (err: Error & { code?: string }) =>
        settle(() => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new ReadBudgetError(LIMITS.heap) : err)),
      );
      worker.once('exit', (code) => settle(() => reject(new Error(`The statement reader stopped (exit code ${code}) without an answer.`))));
    });
  } finally {
    done();
  }
}
