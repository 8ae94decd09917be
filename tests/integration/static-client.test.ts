import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { login, testConfig, type TestServer } from './helpers/server.ts';

// A built client as the precompress step of vite.config.ts leaves it: each text file with a
// brotli and a gzip copy beside it.
const INDEX = `<!doctype html><html><head><title>Copy Monitor</title></head><body>${'<p>skeleton</p>'.repeat(100)}</body></html>`;
const SCRIPT = `export const answer = ${JSON.stringify('x'.repeat(4000))};\n`;

function writeWithCopies(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(text));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(text));
}

describe('serving the client and compressing answers', () => {
  let server: TestServer;
  let staticDir: string;

  beforeAll(async () => {
    staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'static-client-'));
    writeWithCopies(path.join(staticDir, 'index.html'), INDEX);
    writeWithCopies(path.join(staticDir, 'assets', 'app-1a2b3c.js'), SCRIPT);
    const app = await buildApp({ ...testConfig('pglite'), staticDir });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    server = { app, url, close: () => app.close() };
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(staticDir, { recursive: true, force: true });
  });

  it('sends a hashed asset precompressed, cached for a year, and the same text uncompressed to a client that asks for none', async () => {
    const br = await fetch(`${server.url}/assets/app-1a2b3c.js`, { headers: { 'accept-encoding': 'br' } });
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('content-type')).toMatch(/javascript/);
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(await br.text()).toBe(SCRIPT);

    const gzip = await fetch(`${server.url}/assets/app-1a2b3c.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(await gzip.text()).toBe(SCRIPT);

    const plain = await fetch(`${server.url}/assets/app-1a2b3c.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(SCRIPT);
  });

  it('answers a client route with index.html, compressed and revalidated on every load', async () => {
    for (const route of ['/', '/login', '/nav']) {
      const res = await fetch(`${server.url}${route}`, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe('br');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toBe(INDEX);
    }
  });

  it('answers an API URL in another spelling 404, never with the app’s page', async () => {
    for (const route of ['/API/BRIDGE/STATUS', '//api/bridge/status', '/Api/brokers/accounts/info', '/%61pi/nothing', '/WS/brokers/live-positions-aggregate']) {
      const res = await fetch(`${server.url}${route}`);
      expect({ route, status: res.status }).toEqual({ route, status: 404 });
      expect(res.headers.get('content-type')).toMatch(/json/);
    }
  });

  it('compresses a JSON answer over 1 kB and leaves a small one alone', async () => {
    const key = await login(server, 'admin');
    const headers = { 'x-api-key': key, 'accept-encoding': 'gzip' };
    const accounts = await fetch(`${server.url}/api/brokers/accounts/info?portfolio=Consolidated%20Portfolio`, { headers });
    expect(accounts.status).toBe(200);
    expect(accounts.headers.get('content-encoding')).toBe('gzip');
    const body = (await accounts.json()) as { data: unknown[] };
    expect(body.data.length).toBeGreaterThan(0);

    const status = await fetch(`${server.url}/api/bridge/status`, { headers });
    expect(status.status).toBe(200);
    expect(status.headers.get('content-encoding')).toBeNull();
  });
});
