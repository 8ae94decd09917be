// Live positions table in Chromium: first render of 500 positions, applying one snapshot (every
// row's P/L changed), and as the ceiling of the same run a plain 500-row table without formatting.
// Builds tests/bench/live-table-entry.tsx with Vite into a temporary folder, serves it on
// 127.0.0.1 and drives Debian's Chromium headless. Figures are medians in milliseconds.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';

const ROWS = 500;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};
const round = (x: number) => Math.round(x * 10) / 10;

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html' };

function serve(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const name = path.normalize(decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/')).replace(/^([/\\])+/, '');
    const file = path.join(dir, name || 'index.html');
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

/** Medians of first render, one snapshot and the plain-table baseline, in ms, with 500 rows. */
export async function benchLiveTable(): Promise<Record<string, number>> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-live-table-'));
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  let server: Awaited<ReturnType<typeof serve>> | undefined;
  try {
    await build({
      configFile: false,
      root: ROOT,
      logLevel: 'warn',
      plugins: [react()],
      define: { 'process.env.NODE_ENV': '"production"' },
      build: {
        outDir: out,
        emptyOutDir: true,
        modulePreload: false,
        rollupOptions: {
          input: path.join(ROOT, 'tests/bench/live-table-entry.tsx'),
          output: { entryFileNames: 'bench.js', assetFileNames: 'bench[extname]', codeSplitting: false },
        },
      },
    });
    const css = fs.existsSync(path.join(out, 'bench.css')) ? '<link rel="stylesheet" href="/bench.css">' : '';
    fs.writeFileSync(
      path.join(out, 'index.html'),
      `<!doctype html><html><head><meta charset="utf-8">${css}</head><body><div id="root"></div><script type="module" src="/bench.js"></script></body></html>`,
    );
    server = await serve(out);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(server.url);
    await page.waitForFunction(() => document.title === 'ready');

    // Warm-up: the first run pays for JIT compilation and font loading.
    await page.evaluate((n) => window.bench.firstRender(n), ROWS);
    await page.evaluate((n) => window.bench.plain(n), ROWS);

    const first: number[] = [];
    const plain: number[] = [];
    const snapshot: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      plain.push(await page.evaluate((n) => window.bench.plain(n), ROWS));
      first.push(await page.evaluate((n) => window.bench.firstRender(n), ROWS));
      for (let tick = 1; tick <= 4; tick += 1) snapshot.push(await page.evaluate(([n, t]) => window.bench.snapshot(n, t), [ROWS, i * 10 + tick] as const));
    }
    return {
      'live table: first render of 500 positions (ms)': round(median(first)),
      'live table: apply one snapshot of 500 positions (ms)': round(median(snapshot)),
      'baseline: plain 500-row table, first render (ms)': round(median(plain)),
    };
  } finally {
    await browser.close();
    await server?.close();
    fs.rmSync(out, { recursive: true, force: true });
  }
}

// Run on its own: node --import tsx tests/bench/live-table.ts
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.table(Object.entries(await benchLiveTable()).map(([figure, value]) => ({ figure, value })));
}
