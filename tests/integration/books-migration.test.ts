/**
 * Migration 10 on a database written before it: the agent commission deals the terminals sent become
 * rebate rows of the deals table, and each real account gets derived NAV rows from its first deal,
 * next to the rows taken live (which stay).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openPglite, openPostgres, type Database } from '#server/db/database.ts';
import { migrate, MIGRATIONS } from '#server/db/migrations.ts';
import { BACKENDS } from './helpers/server.ts';

const day = (iso: string) => iso.slice(0, 10);

describe.each(BACKENDS)('migration 10 on stored books (%s)', (backend) => {
  let db: Database | undefined;
  let schema: string | undefined;

  afterEach(async () => {
    await db?.close();
    if (schema) {
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });

  it('books the stored agent commissions as rebate deals and derives NAV from the first deal, keeping live rows', async () => {
    schema = backend === 'postgres' ? `t_${randomBytes(6).toString('hex')}` : undefined;
    db = backend === 'postgres' ? await openPostgres(process.env.TEST_DATABASE_URL!, schema) : await openPglite(null);
    // The database as the versions before 10 left it (the days checked are past for any run from now on).
    await db.exec('CREATE TABLE schema_migrations (version INT PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
    for (const m of MIGRATIONS.filter((x) => x.version < 10)) {
      await db.exec(`BEGIN; ${m.sql}; INSERT INTO schema_migrations (version, name) VALUES (${m.version}, 'v${m.version}'); COMMIT;`);
    }
    await db.exec(`
      INSERT INTO brokers (broker_name, img_path) VALUES ('B', '/b.svg');
      INSERT INTO accounts (account_id, account, account_name, broker_id, server, server_name, teiko_category, currency, balance, source)
        VALUES ('real-1', '1', 'Real 1', 1, 'S', 'S', 'SMA', 'EUR', 10158.80, 'agent'),
               ('demo-1', '2', 'Demo 1', 1, 'S', 'S', 'SMA', 'EUR', 500, 'simulated');
      -- Deposit 10 000 (Nov 20), a trade netting 146.50 (Nov 21), an agent commission of 12.30 (Nov 23) the ledger kept only as a rebate row.
      INSERT INTO deals (account_id, kind, datetime, amount, net, ticket) VALUES
        (1, 'deposit', '2026-11-20T08:00:00Z', 10000, 0, 1),
        (1, 'trade', '2026-11-21T15:00:00Z', 0, 146.50, 3),
        (2, 'deposit', '2026-11-20T08:00:00Z', 500, 0, NULL);
      INSERT INTO broker_deals (account_id, ticket, position_id, type, entry, symbol, volume, price, commission, fee, swap, profit, time_utc, broker_time)
        VALUES (1, 4, 0, 11, 'in', '', 0, 0, 0, 0, 0, 12.30, '2026-11-23T06:00:00Z', 1795000000);
      INSERT INTO rebates (account_id, month, total_rebate, balance) VALUES (1, '2026-11-01', 12.30, 10158.80);
      INSERT INTO nav_snapshots (account_id, day, balance, equity, taken_at) VALUES (1, '2026-11-22', 10146.50, 10190, '2026-11-23T00:00:00Z');
    `);
    expect(await migrate(db)).toEqual(MIGRATIONS.filter((x) => x.version >= 10).map((x) => x.version));
    const rebate = await db.query<{ kind: string; amount: number; rebate: number; ticket: number }>("SELECT kind, amount, rebate, ticket FROM deals WHERE kind = 'rebate'");
    expect(rebate).toEqual([{ kind: 'rebate', amount: 12.3, rebate: 12.3, ticket: 4 }]);
    const nav = await db.query<{ account_id: number; day: Date; balance: number; equity: number; derived: boolean }>(
      "SELECT account_id, to_char(day, 'YYYY-MM-DD') AS day, balance, equity, derived FROM nav_snapshots WHERE day <= '2026-11-24' ORDER BY account_id, day",
    );
    expect(nav.map((r) => [r.account_id, day(String(r.day)), r.balance, r.equity, r.derived])).toEqual([
      [1, '2026-11-20', 10_000, 10_000, true],
      [1, '2026-11-21', 10_146.5, 10_146.5, true],
      [1, '2026-11-22', 10_146.5, 10_190, false],
      [1, '2026-11-23', 10_158.8, 10_158.8, true],
      [1, '2026-11-24', 10_158.8, 10_158.8, true],
    ]);
    // The simulated market's accounts keep their own NAV.
    expect(nav.some((r) => r.account_id === 2)).toBe(false);
  });
});
