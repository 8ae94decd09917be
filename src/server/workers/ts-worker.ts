import { Worker } from 'node:worker_threads';

/*
 * Work on untrusted or heavy input off the main thread (reading a statement file, drawing a
 * statement PDF): a worker thread running one TypeScript entry, its heap capped and stopped past a
 * deadline, and a limit on how many run at once and how many may wait.
 */

/**
 * The worker runs TypeScript through tsx, as the server does (scripts/start.mjs): it registers tsx's
 * loader in its own thread, then imports its entry.
 */
const BOOT = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((tsx) => {
  tsx.register();
  return import(workerData.entry);
});
`;
const TSX = import.meta.resolve('tsx/esm/api');

/** At most `concurrent` at once, `waiting` more in line; past that `busy()` is thrown at once. */
export class Turns {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    private readonly concurrent: number,
    private readonly waiting: number,
    private readonly busy: () => Error,
  ) {}

  /** Waits for a turn; call the returned function when done. */
  async take(): Promise<() => void> {
    if (this.running >= this.concurrent) {
      if (this.queue.length >= this.waiting) throw this.busy();
      await new Promise<void>((resolve) => this.queue.push(resolve));
    }
    this.running++;
    return () => {
      this.running--;
      this.queue.shift()?.();
    };
  }
}

export interface WorkerLimits {
  heapMb: number;
  deadlineMs: number;
  /** The rejection when the deadline passes. */
  late: () => Error;
  /** What an error of the worker (out of memory among them) becomes. */
  failed?: (err: Error & { code?: string }) => Error;
}

/** Runs `entry` (a module URL) in a worker with `data` as its workerData; resolves with its first message. */
export function runInWorker<T>(entry: string, data: Record<string, unknown>, limits: WorkerLimits, transferList: ArrayBuffer[] = []): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(BOOT, {
      eval: true,
      workerData: { tsx: TSX, entry, ...data },
      transferList,
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 64, stackSizeMb: 8 },
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
    const deadline = setTimeout(() => settle(() => reject(limits.late())), limits.deadlineMs);
    worker.once('message', (answer: T) => settle(() => resolve(answer)));
    worker.once('error', (err: Error & { code?: string }) => settle(() => reject(limits.failed ? limits.failed(err) : err)));
    worker.once('exit', (code) => settle(() => reject(new Error(`The worker stopped (exit code ${code}) without an answer.`))));
  });
}
