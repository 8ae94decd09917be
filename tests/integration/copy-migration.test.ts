/**
 * Migration 9 on a database the version before it left: who copies whom moves from the accounts to
 * copy relations, and copies opened then (which named their master position by its row id) stay
 * linked to their master, open and after it closes, even as their terminal keeps echoing that row id.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '#server/db/migrations.ts';
import { closeReportedPositions, resolveCopies, saveCopyOf } from '#server/db/copy-links-repo.ts';
import { BACKENDS } from './helpers/server.ts';
import { databaseBefore, type OldDatabase } from './helpers/old-database.ts';

describe.each(BACKENDS)('migration 9 on stored copies (%s)', (backend) => {
  let old: OldDatabase | undefined;

  afterEach(async () => {
    await old?.drop();
    old = undefined;
  });

  it('moves masters, ratios and equity stops to relations and keeps open copies linked to their masters', async () => {
    old = await databaseBefore(backend, 9);
    const db = old.db;
    // Master 1; follower 2 at 0.5 with the stop field left at 0 (no stop); follower 3 at 2 with a stop
    // of 900 that fired. The master's position (row 1, terminal identifier 5000001) is copied by
    // follower 2's position, whose terminal reported copy_of = 1 (the row id its open command named).
    await db.exec(`
      INSERT INTO brokers (broker_name, img_path) VALUES ('B', '/b.svg');
      INSERT INTO accounts (account_id, account, account_name, broker_id, server, server_name, teiko_category, currency, balance, source)
        VALUES ('m', '100', 'Master', 1, 'S', 'S', 'SMA', 'EUR', 10000, 'agent'),
               ('f1', '200', 'Follower 1', 1, 'S', 'S', 'SMA', 'EUR', 5000, 'agent'),
               ('f2', '300', 'Follower 2', 1, 'S', 'S', 'SMA', 'EUR', 20000, 'agent');
      UPDATE accounts SET is_master = (id = 1);
      UPDATE accounts SET master_id = 1, copy_ratio = 0.5, equity_stop = 0.00 WHERE id = 2;
      UPDATE accounts SET master_id = 1, copy_ratio = 2, equity_stop = 900, equity_stopped_at = '2026-11-20T10:00:00Z' WHERE id = 3;
      INSERT INTO deals (account_id, kind, datetime, amount, net, ticket) VALUES (2, 'deposit', '2026-11-02T08:00:00Z', 5000, 0, 1);
      INSERT INTO positions (account_id, master_position_id, symbol, type, category, quantity, price_open, price_current, price_low, price_high, opened_at, identifier)
        VALUES (1, NULL, 'EURUSD', 'Buy', 'Forex', 1, 1.1, 1.1, 1.1, 1.1, '2026-11-25T09:00:00Z', 5000001),
               (2, 1, 'EURUSD', 'Buy', 'Forex', 0.5, 1.1, 1.1, 1.1, 1.1, '2026-11-25T09:00:01Z', 7000001);
    `);
    expect(await migrate(db)).toEqual(old.pending);

    const relations = await db.query<{ follower_id: number; sizing: string; sizing_value: number; equity_stop: number | null; stopped: boolean; started: string }>(
      // Since migration 22 a relation's equity stop is its equity-floor guard in close-only (fired: its fired_at).
      `SELECT r.follower_id, r.sizing, r.sizing_value, g.close_only::float AS equity_stop, g.fired_at IS NOT NULL AS stopped,
              to_char(r.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS started
         FROM copy_relations r LEFT JOIN copy_guards g ON g.relation_id = r.id AND g.basis = 'equity_floor'
        WHERE r.master_id = 1 AND r.ended_at IS NULL ORDER BY r.follower_id`,
    );
    expect(relations).toEqual([
      { follower_id: 2, sizing: 'ratio', sizing_value: 0.5, equity_stop: null, stopped: false, started: '2026-11-02' },
      { follower_id: 3, sizing: 'ratio', sizing_value: 2, equity_stop: 900, stopped: true, started: (await db.query<{ d: string }>("SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS d"))[0]!.d },
    ]);

    // The copy names its master by the master's terminal identifier now, and is linked to row 1.
    const [copy] = await db.query<{ id: number; copy_of: number }>('SELECT id, copy_of FROM positions WHERE account_id = 2');
    expect(copy!.copy_of).toBe(5000001);
    expect((await resolveCopies(db)).get(copy!.id)).toBe(1);

    // Its terminal reports it again as it always did (copy_of = 1): still linked to the master.
    await saveCopyOf(db, 2, [{ identifier: 7000001, copy_of: 1 }]);
    expect((await resolveCopies(db)).get(copy!.id)).toBe(1);

    // The master closes its position: the copy stays linked to it (so the engine closes the copy).
    await closeReportedPositions(db, 1, { keep: [] }, new Date('2026-11-25T10:00:00Z'));
    expect((await resolveCopies(db)).get(copy!.id)).toBe(1);
  });
});
