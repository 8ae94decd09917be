import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { ClientConfig, DEFAULT_CLIENT_FEATURES, DEFAULT_CLIENT_INTERVALS } from '#shared/contract/client-config.ts';
import { BACKENDS, http, startServer, testConfig, type TestServer } from './helpers/server.ts';

const { version } = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** The server as main.ts builds it from this environment, on a test database. */
async function serverWithEnv(backend: (typeof BACKENDS)[number], env: NodeJS.ProcessEnv, staticDir?: string): Promise<TestServer> {
  const base = testConfig(backend);
  const app = await buildApp({ ...base, client: loadConfig(env).client, ...(staticDir ? { staticDir } : {}) });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url, close: () => app.close() };
}

describe.each(BACKENDS)('GET /config.json, the client runtime configuration (%s)', (backend) => {
  describe('with the defaults', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer(backend);
    });
    afterAll(async () => server.close());

    it('answers without a key: JSON matching the contract, revalidated on every load', async () => {
      const res = await http(server, 'GET', '/config.json');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(ClientConfig.safeParse(res.body).success).toBe(true);
      expect(res.body).toEqual({
        api_base_url: '',
        ws_base_url: '',
        version,
        intervals: DEFAULT_CLIENT_INTERVALS,
        features: DEFAULT_CLIENT_FEATURES,
      });
    });

    it('answers HEAD, ignores a key it does not need, and refuses writes', async () => {
      const head = await fetch(`${server.url}/config.json`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect((await http(server, 'GET', '/config.json', { key: 'not-a-session' })).status).toBe(200);
      expect((await http(server, 'POST', '/config.json', { body: {} })).status).toBe(404);
    });

    it('is documented as a public route', async () => {
      const doc = await http<{ paths: Record<string, { get?: { security?: unknown[] } }> }>(server, 'GET', '/api/openapi.json');
      expect(doc.body.paths['/config.json']?.get?.security).toEqual([]);
    });
  });

  describe('with the environment of a deployment', () => {
    let server: TestServer;
    let staticDir: string;
    beforeAll(async () => {
      // A built client beside it: static serving and the SPA fallback must not shadow the route.
      staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-config-'));
      fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Copy Monitor</title>');
      fs.writeFileSync(path.join(staticDir, 'config.json'), '{"stale":"a file of the build"}');
      server = await serverWithEnv(
        backend,
        {
          PUBLIC_API_BASE_URL: 'https://api.example.com/',
          PUBLIC_WS_BASE_URL: 'wss://live.example.com/feeds',
          PUBLIC_BUILD_ID: '2024-11-24.3',
          PUBLIC_INTERVALS: 'alerts_ms=60000, rebates_ms=600000',
          FEATURE_PDF_REPORTS: '0',
          FEATURE_SERVICE_WORKER: 'off',
        },
        staticDir,
      );
    });
    afterAll(async () => {
      await server.close();
      fs.rmSync(staticDir, { recursive: true, force: true });
    });

    it('applies the overrides and keeps the defaults of what is not set', async () => {
      const res = await http(server, 'GET', '/config.json');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.body).toEqual({
        api_base_url: 'https://api.example.com',
        ws_base_url: 'wss://live.example.com/feeds',
        version,
        build_id: '2024-11-24.3',
        intervals: { ...DEFAULT_CLIENT_INTERVALS, alerts_ms: 60_000, rebates_ms: 600_000 },
        features: { pdf_reports: false, bridge_toggle: true, service_worker: false },
      });
      expect(ClientConfig.safeParse(res.body).success).toBe(true);
    });

    it('leaves the client routes to the SPA fallback', async () => {
      const page = await fetch(`${server.url}/login`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>Copy Monitor</title>');
    });
  });
});

describe('the client configuration from the environment (validated once at start)', () => {
  it('defaults to the same origin, the product’s intervals and every switch on', () => {
    expect(loadConfig({}).client).toEqual({
      api_base_url: '',
      ws_base_url: '',
      intervals: DEFAULT_CLIENT_INTERVALS,
      features: DEFAULT_CLIENT_FEATURES,
    });
  });

  it.each([
    ['PUBLIC_API_BASE_URL', 'ftp://api.example.com', /PUBLIC_API_BASE_URL: must be '' or http\(s\)/],
    ['PUBLIC_API_BASE_URL', 'https://api.example.com/v1?x=1', /PUBLIC_API_BASE_URL/],
    ['PUBLIC_WS_BASE_URL', 'https://live.example.com', /PUBLIC_WS_BASE_URL: must be '' or ws\(s\)/],
    ['PUBLIC_INTERVALS', 'alerts_ms=500', /PUBLIC_INTERVALS\.alerts_ms/],
    ['PUBLIC_INTERVALS', 'alerts_ms=soon', /PUBLIC_INTERVALS\.alerts_ms/],
    ['PUBLIC_INTERVALS', 'alerts=60000', /PUBLIC_INTERVALS: Unrecognized key/],
    ['FEATURE_PDF_REPORTS', 'maybe', /FEATURE_PDF_REPORTS/],
  ])('refuses %s=%s with a readable message', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
