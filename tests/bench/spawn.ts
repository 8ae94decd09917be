import { spawn, type ChildProcess } from 'node:child_process';

/** Starts a TypeScript entry (tsx) in a child process and resolves with the URL it prints once listening. */
export function startProcess(args: string[], env: Record<string, string>, timeoutMs = 180_000): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start: ${out}`)), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]! });
      }
    });
  });
}
