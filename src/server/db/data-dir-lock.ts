import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {}

const CONFLICT = 75;
const RETRY_FOR_MS = 3_000;

/**
 * One attempt at the lock: flock(1) takes an OS lock on the file and keeps it while its child
 * (`cat`) reads our pipe. The lock belongs to that open file, not to a pid: when this process
 * dies in any way (SIGKILL included, pid 1 in a container included), the kernel closes the pipe,
 * cat sees its end and exits, and the lock is gone with it. Nothing is judged by a pid.
 */
function tryLock(file: string): Promise<(() => void) | 'busy'> {
  return new Promise((resolve, reject) => {
    const child = spawn('flock', ['--nonblock', '--conflict-exit-code', String(CONFLICT), file, 'sh', '-c', 'echo locked; exec cat >/dev/null'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let settled = false;
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('error', (e) => {
      settled = true;
      reject(new Error(`Could not lock the data directory (flock from util-linux is needed): ${e.message}`));
    });
    child.stdout.once('data', () => {
      if (settled) return;
      settled = true;
      // The lock must not keep the event loop alive, and our end of the pipe lives as long as we do.
      child.unref();
      (child.stdin as unknown as { unref(): void }).unref();
      (child.stdout as unknown as { unref(): void }).unref();
      (child.stderr as unknown as { unref(): void }).unref();
      resolve(() => {
        child.stdin.end();
        child.kill();
      });
    });
    child.once('exit', (code) => {
      if (settled) return;
      settled = true;
      if (code === CONFLICT) resolve('busy');
      else reject(new Error(`Could not lock the data directory: flock exited with ${code}: ${err.trim()}`));
    });
  });
}

/**
 * Takes DATA_DIR/server.lock for this process. Two PGlite processes on one folder corrupt it,
 * so a second server on the same DATA_DIR must stop before opening the database. A lock whose
 * owner just died is released by the kernel within moments; a start retries for a few seconds.
 */
export async function lockDataDir(dataDir: string): Promise<() => void> {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'server.lock');
  const until = Date.now() + RETRY_FOR_MS;
  for (;;) {
    const got = await tryLock(file);
    if (got !== 'busy') return got;
    if (Date.now() > until) {
      throw new DataDirLockedError(
        `Another server is already using the data directory ${dataDir} (it holds the lock on server.lock). ` +
          'Stop it first, or start this one with another DATA_DIR.',
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
