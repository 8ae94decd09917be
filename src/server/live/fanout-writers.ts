import os from 'node:os';
import type { Socket } from 'node:net';
import { Worker } from 'node:worker_threads';

/**
 * Writing one frame to a socket costs a system call of 10–20 µs on a small machine's loopback, so
 * one thread writes 10,000 sockets in 100–200 ms whatever the frame. Writer threads share a
 * broadcast: while the main thread writes its share through Node's sockets, each writer thread writes
 * its share straight to the sockets' file descriptors, and the main thread waits for them before it
 * does anything else. Nothing else is written to those sockets meanwhile (the main thread is busy
 * with this broadcast), so every socket's bytes stay in order; a socket is handed to a thread only
 * when Node holds nothing unsent for it. A write the kernel takes only in part is finished by the
 * main thread through Node at once; one it refuses (its buffer full) is reported as not sent.
 */

/** A broadcast smaller than this is written by the main thread alone (a hand-off costs ~0.1 ms). */
export const PARALLEL_FROM = 256;
const MAX_ENTRIES = 65_536;
const FRAME_BYTES = 8 << 20;

/** One socket's write: its TCP socket and the frame it gets. */
export interface FrameWrite {
  socket: Socket;
  frame: Buffer;
}

interface Thread {
  worker: Worker;
  control: Int32Array;
}

/** The file descriptor of a plain TCP socket (not TLS) whose writes Node holds nothing of, or undefined. */
function writableFd(socket: Socket): number | undefined {
  const s = socket as Socket & { _handle?: { fd?: number }; encrypted?: boolean };
  const fd = s._handle?.fd;
  if (typeof fd !== 'number' || fd < 0 || s.encrypted || s.writableLength !== 0 || s.destroyed) return undefined;
  return fd;
}

export class FanoutWriters {
  private threads: Thread[] | undefined;
  private readonly entries = new Int32Array(new SharedArrayBuffer(MAX_ENTRIES * 4 * 4));
  private readonly frames = Buffer.from(new SharedArrayBuffer(FRAME_BYTES));
  private broken = false;

  constructor(
    /** Writer threads besides the main one (default: one per core beyond the first, at most 3). */
    private readonly count = Math.max(0, Math.min(3, os.availableParallelism() - 1)),
  ) {}

  /** Started on the first broadcast big enough to share. */
  private start(): Thread[] {
    this.threads ??= Array.from({ length: this.count }, () => {
      const control = new Int32Array(new SharedArrayBuffer(4 * 4));
      const worker = new Worker(new URL('./fanout-writer-thread.mjs', import.meta.url), {
        workerData: { control: control.buffer, entries: this.entries.buffer, frames: this.frames.buffer },
      });
      worker.unref();
      worker.on('error', () => {
        this.broken = true;
      });
      return { worker, control };
    });
    return this.threads;
  }

  /**
   * Writes each frame to its socket; returns, per write, whether the frame went (whole, or its rest
   * queued in Node). A socket that refused it (its buffer full, or gone) gets `false`.
   */
  write(writes: readonly FrameWrite[]): boolean[] {
    const sent = new Array<boolean>(writes.length);
    if (this.count === 0 || this.broken || writes.length < PARALLEL_FROM) {
      for (let i = 0; i < writes.length; i++) sent[i] = this.writeHere(writes[i]!);
      return sent;
    }
    // The frames, once each, into the shared buffer.
    const offsets = new Map<Buffer, number>();
    let used = 0;
    for (const w of writes) {
      if (offsets.has(w.frame)) continue;
      if (used + w.frame.length > FRAME_BYTES) return writes.map((x) => this.writeHere(x));
      w.frame.copy(this.frames, used);
      offsets.set(w.frame, used);
      used += w.frame.length;
    }
    // The threads' shares: sockets with a descriptor, up to the table's size; the rest stay here.
    const shared: number[] = [];
    const here: number[] = [];
    const threadShare = Math.min(MAX_ENTRIES, Math.floor((writes.length * this.count) / (this.count + 1)));
    for (let i = 0; i < writes.length; i++) {
      if (shared.length < threadShare && writableFd(writes[i]!.socket) !== undefined) shared.push(i);
      else here.push(i);
    }
    for (let k = 0; k < shared.length; k++) {
      const w = writes[shared[k]!]!;
      const at = k * 4;
      this.entries[at] = writableFd(w.socket)!;
      this.entries[at + 1] = offsets.get(w.frame)!;
      this.entries[at + 2] = w.frame.length;
      this.entries[at + 3] = 0;
    }
    const threads = this.start();
    const per = Math.ceil(shared.length / threads.length);
    const busy: Thread[] = [];
    for (let t = 0; t < threads.length; t++) {
      const first = t * per;
      const n = Math.min(per, shared.length - first);
      if (n <= 0) break;
      const { control } = threads[t]!;
      control[1] = first;
      control[2] = n;
      Atomics.store(control, 3, 0);
      Atomics.store(control, 0, 1);
      Atomics.notify(control, 0);
      busy.push(threads[t]!);
    }
    for (const i of here) sent[i] = this.writeHere(writes[i]!);
    for (const { control } of busy) {
      // A thread that does not finish within a second is taken for broken: writes go here from then on.
      if (Atomics.wait(control, 3, 0, 1000) === 'timed-out') this.broken = true;
    }
    for (let k = 0; k < shared.length; k++) {
      const w = writes[shared[k]!]!;
      const result = this.entries[k * 4 + 3]!;
      if (result === w.frame.length) sent[shared[k]!] = true;
      else if (result > 0) {
        // Part of the frame went: the rest follows through Node, before anything else can.
        w.socket.write(w.frame.subarray(result));
        sent[shared[k]!] = true;
      } else sent[shared[k]!] = false;
    }
    return sent;
  }

  private writeHere(w: FrameWrite): boolean {
    if (w.socket.destroyed) return false;
    w.socket.write(w.frame);
    return true;
  }

  async close(): Promise<void> {
    const threads = this.threads ?? [];
    this.threads = undefined;
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }
}
