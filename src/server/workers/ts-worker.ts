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
if (workerData.nice) {
  // Linux: a thread's id names it to setpriority, which then lowers this thread alone.
  try {
    const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
    require('node:os').setPriority(tid, workerData.nice);
  } catch {}
}
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
  /**
   * A lower priority for the worker's thread (a nice value, 1–19; Linux, elsewhere ignored): on a
   * machine of few cores the main thread, which answers every other request, then goes first.
   */
  nice?: number;
  /** The young generation's size (MB; 64 unless given): smaller, more frequent scavenges and less memory held. */
  youngMb?: number;
}

/** Runs `entry` (a module URL) in a worker with `data` as its workerData; resolves with its first message. */
export function runInWorker<T>(entry: string, data: Record<string, unknown>, limits: WorkerLimits, transferList: ArrayBuffer[] = []): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(BOOT, {
      eval: true,
      workerData: { tsx: TSX, entry, nice: limits.nice ?? 0, ...data },
      transferList,
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: limits.youngMb ?? 64, stackSizeMb: 8 },
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
