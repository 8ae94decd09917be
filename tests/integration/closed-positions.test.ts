/**
 * Positions terminals reported and then closed are remembered (a copy is closed only once its
 * master's is known closed), and forgotten after 30 days unless an open copy still names one.
 */
import { describe, expect, it } from 'vitest';
import { openPglite } from '#server/db/database.ts';
import { migrate } from '#server/db/migrations.ts';
import { pruneClosedPositions } from '#server/db/copy-links-repo.ts';

describe('closed positions remembered for copies', () => {
  it('forgets those closed before the cut that no open copy names, and keeps the rest', async () => {
    const db = await openPglite(null);
    await migrate(db);
    await db.exec(`
      INSERT INTO brokers (broker_name, img_path) VALUES ('B', '/b.svg');
      INSERT INTO accounts (account_id, account, account_name, broker_id, server, server_name, teiko_category, currency, source)
        VALUES ('m', '1', 'Master', 1, 'S', 'S', 'SMA', 'EUR', 'agent'), ('f', '2', 'Follower', 1, 'S', 'S', 'SMA', 'EUR', 'agent');
      INSERT INTO copy_relations (master_id, follower_id, sizing, sizing_value, started_at) VALUES (1, 2, 'ratio', 1, '2026-01-01T00:00:00Z');
      -- The master's positions 501 (old), 502 (old, its copy still open: the follower's terminal refused the close) and 503 (recent).
      INSERT INTO closed_positions (account_id, identifier, position_id, copy_of, closed_at) VALUES
        (1, 501, 1, NULL, '2026-09-01T00:00:00Z'),
        (1, 502, 2, NULL, '2026-09-02T00:00:00Z'),
        (1, 503, 3, NULL, '2026-11-20T00:00:00Z');
      INSERT INTO positions (account_id, symbol, type, category, quantity, price_open, price_current, price_low, price_high, opened_at, identifier, copy_of)
        VALUES (2, 'EURUSD', 'Buy', 'Forex', 1, 1.1, 1.1, 1.1, 1.1, '2026-09-01T00:00:00Z', 9001, 502);
    `);
    expect(await pruneClosedPositions(db, new Date('2026-10-27T00:00:00Z'))).toBe(1);
    const left = await db.query<{ identifier: number }>('SELECT identifier FROM closed_positions ORDER BY identifier');
    expect(left.map((r) => Number(r.identifier))).toEqual([502, 503]);
    await db.close();
  });
});
