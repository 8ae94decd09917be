import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { BACKENDS, simulatorOf, startServer, type TestServerOptions } from './helpers/server.ts';

const count = async (server: { app: { db: { query: <T extends object>(s: string) => Promise<T[]> } } }, table: string) =>
  (await server.app.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;

describe.each(BACKENDS)('a restart continues from what is stored (%s)', (backend) => {
  it('generates 12 months once, keeps them, and appends what the live market added', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'copy-monitor-restart-'));
    const schema = `r_${randomBytes(5).toString('hex')}`;
    const options: TestServerOptions = {
      market: { historyMonths: 12 },
      ...(backend === 'pglite' ? { dataDir: dir } : { schema }),
    };
    try {
      const first = await startServer(backend, options);
      const firstNav = (await first.app.db.query<{ d: Date }>('SELECT min(day) AS d FROM nav_snapshots'))[0]!.d;
      expect(Date.now() - firstNav.getTime()).toBeGreaterThan(365 * 86_400_000);
      const perAccount = await first.app.db.query<{ n: number }>(
        "SELECT count(DISTINCT date_trunc('month', datetime))::int AS n FROM deals WHERE kind = 'trade' GROUP BY account_id",
      );
      expect(Math.min(...perAccount.map((r) => r.n))).toBeGreaterThanOrEqual(12);

      const market = simulatorOf(first.app);
      const master = [...market.snapshot().accounts.values()].find((a) => a.is_master)!;
      const trade = await market.openMasterTrade(master.id, 'USDJPY', 'Buy', 1.5);
      await market.tick();
      const closed = await market.close([trade.id]);
      expect(closed).toBeGreaterThanOrEqual(1);
      const deals = await count(first, 'deals');
      const nav = await count(first, 'nav_snapshots');
      const open = market.snapshot().positions.length;
      const mids = market.snapshot().mids.get('EURUSD');
      await first.close();

      const second = await startServer(backend, options);
      expect(await count(second, 'deals')).toBe(deals);
      expect(await count(second, 'nav_snapshots')).toBe(nav);
      expect(await count(second, 'accounts')).toBe(32);
      expect(second.app.market.snapshot().positions.length).toBe(open);
      expect(second.app.market.snapshot().mids.get('EURUSD')).toBe(mids);
      await second.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      if (backend === 'postgres') {
        const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      }
    }
  });
});
