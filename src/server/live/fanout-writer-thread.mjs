// A fan-out writer thread (fanout-writers.ts): on each signal it writes its share of a broadcast's
// frames straight to the sockets' file descriptors while the main thread writes the rest, and
// records what each write did. Plain JavaScript, so that it runs however the server was started.
import fs from 'node:fs';
import { workerData } from 'node:worker_threads';

const control = new Int32Array(workerData.control);
const entries = new Int32Array(workerData.entries);
const frames = Buffer.from(workerData.frames);
// control: [0] signal (1 = go), [1] first entry, [2] entry count, [3] done (1 = done)
// entries: per socket [fd, frame offset, frame length, result]; result: bytes written, or -1 for
// "would block" (nothing written), or -2 for any other error.
const EAGAIN = new Set(['EAGAIN', 'EWOULDBLOCK']);

for (;;) {
  Atomics.wait(control, 0, 0);
  Atomics.store(control, 0, 0);
  const first = control[1];
  const end = first + control[2];
  for (let i = first; i < end; i++) {
    const at = i * 4;
    const fd = entries[at];
    const offset = entries[at + 1];
    const length = entries[at + 2];
    try {
      entries[at + 3] = fs.writeSync(fd, frames, offset, length);
    } catch (err) {
      entries[at + 3] = EAGAIN.has(err && err.code) ? -1 : -2;
    }
  }
  Atomics.store(control, 3, 1);
  Atomics.notify(control, 3);
}
