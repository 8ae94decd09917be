import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditResponse } from '#shared/contract/audit.ts';
import type { ReadyResponse } from '#shared/contract/ops.ts';
import { checkDatabase } from '#server/db/health-repo.ts';
import { BACKENDS, http, login, simulatorOf, startServer, type TestServer } from './helpers/server.ts';
import { connect, ticket } from './helpers/ws.ts';

type Operation = { security?: Record<string, string[]>[]; description?: string; parameters?: { name: string; in: string }[]; requestBody?: unknown; responses: Record<string, unknown> };
type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string };
  components: { securitySchemes: Record<string, { type: string; in: string; name: string }> };
  paths: Record<string, Record<string, Operation>>;
};

const { version } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };

/** The value of one sample line of a Prometheus text exposition, or undefined when absent. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const prefix = labels ? `${name}{${labels}} ` : `${name} `;
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(prefix.length));
}

const metrics = async (server: TestServer) => {
  const res = await fetch(`${server.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
};

describe('the database check', () => {
  it('gives up on a database that does not answer in time', async () => {
    const hung = { query: () => new Promise<never>(() => {}) };
    const started = performance.now();
    const result = await checkDatabase(hung, 50);
    expect(result.ok).toBe(false);
    expect(result.message).toContain('50 ms');
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe.each(BACKENDS)('the operator’s view (%s)', (backend) => {
  let server: TestServer;
  let admin: string;
  let manager: string;
  let investor: string;

  beforeAll(async () => {
    server = await startServer(backend);
    [admin, manager, investor] = await Promise.all([login(server, 'admin'), login(server, 'manager'), login(server, 'investor')]);
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers /health without a key', async () => {
    const res = await http(server, 'GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('is ready when the database answers, and reports the market', async () => {
    const res = await http<ReadyResponse>(server, 'GET', '/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ready: true, database: { ok: true, kind: backend }, market: { running: true } });
  });

  it('exposes Prometheus metrics labelled by the routed pattern', async () => {
    expect((await http(server, 'GET', '/api/bridge/status', { key: admin })).status).toBe(200);
    expect((await http(server, 'GET', '/api/no-such-call-4f2a?token=secret')).status).toBe(404);
    await simulatorOf(server.app).tick();
    const text = await metrics(server);
    for (const name of [
      'http_requests_total',
      'http_request_duration_seconds',
      'ws_open_sockets',
      'ws_snapshots_sent_total',
      'market_ticks_total',
      'bridge_running',
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(sample(text, 'http_requests_total', 'method="GET",route="/api/bridge/status",status_code="200"')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', 'method="GET",route="/api/bridge/status"')).toBe(1);
    // An unmatched URL is counted under one label: raw URLs would make label values unbounded.
    expect(sample(text, 'http_requests_total', 'method="GET",route="unmatched",status_code="404"')).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('no-such-call');
    expect(sample(text, 'market_ticks_total')).toBe(simulatorOf(server.app).ticks);
    expect(sample(text, 'bridge_running')).toBe(1);
    if (backend === 'postgres') expect(sample(text, 'db_pool_clients', 'state="total"')).toBeGreaterThanOrEqual(1);
  });

  it('counts open live sockets and the snapshots sent to them', async () => {
    expect(sample(await metrics(server), 'ws_open_sockets')).toBe(0);
    const client = await connect(server, '/ws/brokers/live-positions-aggregate', { token: await ticket(server, investor) });
    try {
      expect(client.messages[0] ?? (await client.next())).toMatchObject({ type: 'snapshot' });
      const text = await metrics(server);
      expect(sample(text, 'ws_open_sockets')).toBe(1);
      expect(sample(text, 'ws_snapshots_sent_total')).toBeGreaterThanOrEqual(1);
    } finally {
      client.socket.close();
      await client.closed;
    }
    await expect.poll(async () => sample(await metrics(server), 'ws_open_sockets')).toBe(0);
  });

  it('documents every /api route in OpenAPI 3.1, with the key where the guard asks for it', async () => {
    const res = await http<OpenApiDocument>(server, 'GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi.startsWith('3.1')).toBe(true);
    expect(doc.info).toMatchObject({ title: 'Copy-trading monitor API', version });
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    expect(doc.components.securitySchemes.agentKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-agent-key' });

    const operation = (method: string, url: string) => doc.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
    // Swagger UI's own page and assets (/api/docs/…) serve the document; they are not part of the API.
    const apiRoutes = server.app.routeList.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'));
    expect(apiRoutes.length).toBeGreaterThan(15);
    for (const { method, url } of apiRoutes) {
      const op = operation(method, url);
      expect(op, `${method} ${url}`).toBeDefined();
      expect(Object.keys(op!.responses), `${method} ${url}`).toContain('200');
      const publicRoute = url === '/api/login' || url === '/api/openapi.json';
      // The ingest API takes a terminal agent's key, not a session.
      const scheme = url.startsWith('/api/ingest/') ? { agentKey: [] } : { apiKey: [] };
      expect({ url, security: op!.security }).toEqual({ url, security: publicRoute ? [] : [scheme] });
    }
    // Request schemas come from the shared zod contract.
    expect(operation('POST', '/api/login')?.requestBody).toBeDefined();
    expect(operation('GET', '/api/audit')?.parameters?.map((p) => p.name)).toEqual(['page', 'page_size']);
    for (const url of ['/health', '/ready', '/metrics']) expect(operation('GET', url)?.security).toEqual([]);
    for (const url of ['/ws/brokers/live-positions-aggregate', '/ws/brokers/live-positions-aggregate-by']) {
      const op = operation('GET', url);
      expect(op?.description).toMatch(/websocket/i);
      expect(op?.description).toContain('POST /api/ws-ticket');
      expect(op?.parameters?.map((p) => p.name)).toContain('token');
    }
  });

  it('serves the docs page and its assets without a key', async () => {
    const page = await fetch(`${server.url}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('swagger-initializer.js');
    for (const asset of ['/api/docs/static/swagger-ui.css', '/api/docs/static/swagger-initializer.js', '/api/docs/json']) {
      expect((await fetch(server.url + asset)).status, asset).toBe(200);
    }
  });

  it('lists the audit log, newest first and paged, to users with write only', async () => {
    expect((await http(server, 'GET', '/api/audit')).status).toBe(401);
    expect((await http(server, 'GET', '/api/audit', { key: investor })).status).toBe(403);
    expect((await http(server, 'GET', '/api/audit', { key: manager })).status).toBe(403);

    expect((await http(server, 'POST', '/api/bridge/stop', { key: admin })).status).toBe(200);
    expect((await http(server, 'POST', '/api/bridge/start', { key: admin })).status).toBe(200);

    const first = await http<AuditResponse>(server, 'GET', '/api/audit', { key: admin });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 1, page_size: 50 });
    expect(first.body.total).toBeGreaterThanOrEqual(2);
    expect(first.body.data.slice(0, 2)).toMatchObject([
      { action: 'bridge.start', username: 'admin', details: {} },
      { action: 'bridge.stop', username: 'admin', details: {} },
    ]);
    const [start, stop] = first.body.data;
    expect(Number.isInteger(start!.datetime)).toBe(true);
    expect(start!.datetime).toBeGreaterThanOrEqual(stop!.datetime);

    const second = await http<AuditResponse>(server, 'GET', '/api/audit?page=2&page_size=1', { key: admin });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ page: 2, page_size: 1, total: first.body.total });
    expect(second.body.data).toEqual([stop]);

    const beyond = await http<AuditResponse>(server, 'GET', `/api/audit?page=${first.body.total + 1}&page_size=1`, { key: admin });
    expect(beyond.body).toMatchObject({ data: [], total: first.body.total });

    for (const query of ['page=0', 'page_size=0', 'page_size=201', 'page=x', 'page=1.5', 'extra=1']) {
      expect((await http(server, 'GET', `/api/audit?${query}`, { key: admin })).status, query).toBe(400);
    }
  });
});
