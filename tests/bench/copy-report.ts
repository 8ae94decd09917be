// Copy report for the whole demo (12 months of history, 32 accounts, every portfolio, All Time):
// computed cold (the figures of copy-quality.ts over every deal), then served from the answer cache
// within one tick. In process, on embedded PGlite, as the server runs it.
import { buildApp } from '#server/app.ts';
import { scopeOfPortfolios } from '#server/auth/scope.ts';
import { copyReport } from '#server/copy/copy-report.ts';
import { PORTFOLIOS } from '#shared/domain/portfolios.ts';
import { DEFAULT_AUTH, DEFAULT_MARKET } from '#server/config.ts';

const pct = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

export async function benchCopyReport(): Promise<Record<string, string>> {
  const app = await buildApp({
    port: 0, host: '127.0.0.1', dataDir: '', inMemory: true, databaseUrl: undefined, redisUrl: undefined, demo: true, staticDir: undefined,
    logLevel: 'silent', auth: DEFAULT_AUTH, market: { ...DEFAULT_MARKET, tickMs: 0, autoTrade: false, historyMonths: 12 },
  });
  try {
    const scope = scopeOfPortfolios([...PORTFOLIOS]);
    const snapshot = app.market.snapshot();
    const cold: number[] = [];
    let followers = 0;
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      const report = await copyReport(app.db, snapshot, scope, undefined, 'all', Date.now(), (ids) => app.broker.contact(ids));
      cold.push(performance.now() - t0);
      followers = report.followers.length;
    }
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const login = await fetch(`${url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin-demo' }) });
    const key = ((await login.json()) as { data: { api_key: string } }).data.api_key;
    const cached: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t0 = performance.now();
      const res = await fetch(`${url}/api/copy/report?portfolio=Consolidated%20Portfolio&period=all`, { headers: { 'x-api-key': key } });
      await res.arrayBuffer();
      cached.push(performance.now() - t0);
    }
    return {
      'copy report, whole demo, All Time (cold) p50 / max': `${pct(cold, 50).toFixed(0)} / ${Math.max(...cold).toFixed(0)} ms (${followers} followers; target ≤ 300 ms)`,
      'copy report over HTTP within one tick (cached) p50': `${pct(cached, 50).toFixed(1)} ms`,
    };
  } finally {
    await app.close();
  }
}
