import { Worker } from 'node:worker_threads';
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

/** The worker runs TypeScript through tsx, as the server does (scripts/start.mjs). */
const BOOT = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((tsx) => {
  tsx.register();
  return import(workerData.entry);
});
`;
const TSX = import.meta.resolve('tsx/esm/api');
const ENTRY = new URL('./pdf-worker.ts', import.meta.url).href;

let running = 0;
const waiting: (() => void)[] = [];

async function turn(): Promise<() => void> {
  if (running >= CONCURRENT) {
    if (waiting.length >= WAITING) throw new DrawerBusyError();
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

type Answer = { ok: true; bytes: Uint8Array } | { ok: false; message: string };

/** The statement as PDF bytes, drawn in a worker thread. `generatedAt`: epoch seconds. */
export async function drawStatementPdf(data: StatementData, generatedAt: number): Promise<Buffer> {
  const done = await turn();
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      const worker = new Worker(BOOT, {
        eval: true,
        workerData: { tsx: TSX, entry: ENTRY, data, generatedAt },
        resourceLimits: { maxOldGenerationSizeMb: HEAP_MB, maxYoungGenerationSizeMb: 64, stackSizeMb: 8 },
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
      const deadline = setTimeout(() => settle(() => reject(new Error(`The statement PDF took over ${DEADLINE_MS / 1000} s to draw.`))), DEADLINE_MS);
      worker.once('message', (answer: Answer) => settle(() => (answer.ok ? resolve(Buffer.from(answer.bytes)) : reject(new Error(answer.message)))));
      worker.once('error', (err) => settle(() => reject(err)));
      worker.once('exit', (code) => settle(() => reject(new Error(`The statement drawer stopped (exit code ${code}) without an answer.`))));
    });
  } finally {
    done();
  }
}
