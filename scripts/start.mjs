// npm start: build the client when dist/ is missing or older than its sources, then run the server
// in this process (so SIGINT/SIGTERM reach its graceful shutdown).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'dist', 'index.html');
const sources = ['index.html', 'vite.config.ts', 'manifest.webmanifest', 'package-lock.json', 'src/client', 'src/shared', 'public'];

function newest(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(p).reduce((m, name) => Math.max(m, newest(path.join(p, name))), stat.mtimeMs);
}

const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;
const sourcesAt = Math.max(...sources.map((s) => newest(path.join(root, s))));
if (builtAt < sourcesAt) {
  console.log(builtAt ? 'Client sources changed: rebuilding…' : 'Building the client…');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const res = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

process.chdir(root);
const { register } = await import('tsx/esm/api');
register();
await import('../src/server/main.ts');
