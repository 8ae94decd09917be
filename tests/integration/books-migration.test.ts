/**
 * Migration 10 on a database written before it: the agent commission deals the terminals sent become
 * rebate rows of the deals table, and each real account gets derived NAV rows from its first deal,
 * next to the rows taken live (which stay). Migration 14 likewise books the charges, interest, bonuses
 * and other balance operations the books dropped before it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '#server/db/migrations.ts';
import { BACKENDS } from './helpers/server.ts';
import { databaseBefore, type OldDatabase } from './helpers/old-database.ts';

const day = (iso: string) => iso.slice(0, 10);

describe.each(BACKENDS)('migration 10 on stored books (%s)', (backend) => {
  let old: OldDatabase | undefined;

  afterEach(async () => {
    await old?.drop();
    old = undefined;
  });

  it('books the stored agent commissions as rebate deals and derives NAV from the first deal, keeping live rows', async () => {
    // The database as the versions before 10 left it (the days checked are past for any run from now on).
    old = await databaseBefore(backend, 10);
    const db = old.db;
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
    expect(await migrate(db)).toEqual(old.pending);
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

describe.each(BACKENDS)('migration 14 on stored books (%s)', (backend) => {
  let old: OldDatabase | undefined;

  afterEach(async () => {
    await old?.drop();
    old = undefined;
  });

  it('books the stored charges, interest and bonuses the ledger dropped, on the balance where the books hold it, and derives NAV again', async () => {
    old = await databaseBefore(backend, 14);
    const db = old.db;
    await db.exec(`
      INSERT INTO brokers (broker_name, img_path) VALUES ('B', '/b.svg');
      -- Account 1, imported from a statement: its balance is its rows' (deposit 1 000 + a trade netting 100 = 1 100).
      -- Account 2, fed by a terminal, which reported 1 001.23 (its interest of 1.23 counted); its rows hold 1 000.
      INSERT INTO accounts (account_id, account, account_name, broker_id, server, server_name, teiko_category, currency, balance, equity, hwm, dd_peak, source)
        VALUES ('real-1', '1', 'Real 1', 1, 'S', 'S', 'SMA', 'EUR', 1100, 1100, 1000, 1000, 'agent'),
               ('real-2', '2', 'Real 2', 1, 'S', 'S', 'SMA', 'EUR', 1001.23, 1001.23, 1000, NULL, 'agent');
      INSERT INTO deals (account_id, kind, datetime, amount, net, ticket) VALUES
        (1, 'deposit', '2026-11-20T08:00:00Z', 1000, 0, 1),
        (1, 'trade', '2026-11-21T15:00:00Z', 0, 100, 3),
        (2, 'deposit', '2026-11-20T08:00:00Z', 1000, 0, 1);
      INSERT INTO broker_deals (account_id, ticket, position_id, type, entry, symbol, volume, price, commission, fee, swap, profit, time_utc, broker_time)
        VALUES (1, 1, 0, 2, 'in', '', 0, 0, 0, 0, 0, 1000, '2026-11-20T08:00:00Z', 1795000000),
               (1, 5, 0, 4, 'in', '', 0, 0, 0, 0, 0, -5, '2026-11-22T06:00:00Z', 1795000000),
               (1, 6, 0, 6, 'in', '', 0, 0, 0, 0, 0, 100, '2026-11-24T06:00:00Z', 1795000000),
               (1, 7, 0, 3, 'in', '', 0, 0, 0, 0, 0, 500, '2026-11-24T07:00:00Z', 1795000000),
               (2, 1, 0, 2, 'in', '', 0, 0, 0, 0, 0, 1000, '2026-11-20T08:00:00Z', 1795000000),
               (2, 2, 0, 12, 'in', '', 0, 0, 0, 1.23, 0, 0, '2026-11-21T06:00:00Z', 1795000000);
      INSERT INTO nav_snapshots (account_id, day, balance, equity, taken_at, derived) VALUES
        (1, '2026-11-20', 1000, 1000, '2026-11-21T00:00:00Z', true),
        (1, '2026-11-21', 1100, 1100, '2026-11-22T00:00:00Z', true),
        (1, '2026-11-22', 1100, 1100, '2026-11-23T00:00:00Z', true),
        (1, '2026-11-23', 1100, 1120, '2026-11-24T00:00:00Z', false),
        (1, '2026-11-24', 1100, 1100, '2026-11-25T00:00:00Z', true);
    `);
    expect(await migrate(db)).toEqual(old.pending);
    // Migration 18 names them by their reason, as the neutral model does (MT5's types 4, 6 and 12).
    const deals = await db.query<{ account_id: number; kind: string; amount: number; ticket: number; reason: string | null }>(
      'SELECT account_id, kind, amount, ticket, reason FROM deals ORDER BY account_id, ticket',
    );
    // The charge a result, the bonus a deposit, the interest (its money in the fee column) a result; the credit nothing.
    expect(deals.map((d) => [d.account_id, d.kind, d.amount, d.ticket, d.reason])).toEqual([
      [1, 'deposit', 1_000, 1, null],
      [1, 'trade', 0, 3, null],
      [1, 'result', -5, 5, 'charge'],
      [1, 'deposit', 100, 6, 'bonus'],
      [2, 'deposit', 1_000, 1, null],
      [2, 'result', 1.23, 2, 'interest'],
    ]);
    const accounts = await db.query<{ id: number; balance: number; equity: number; hwm: number; dd_peak: number | null }>(
      'SELECT id, balance, equity, hwm, dd_peak FROM accounts ORDER BY id',
    );
    // Account 1: 1 100 − 5 + 100 = 1 195; the bonus raises the mark and the peak by 100. Account 2 keeps its terminal's 1 001.23.
    expect(accounts.map((a) => [a.id, a.balance, a.equity, a.hwm, a.dd_peak])).toEqual([
      [1, 1_195, 1_195, 1_100, 1_100],
      [2, 1_001.23, 1_001.23, 1_000, null],
    ]);
    const nav = await db.query<{ account_id: number; day: string; balance: number; equity: number; derived: boolean }>(
      "SELECT account_id, to_char(day, 'YYYY-MM-DD') AS day, balance, equity, derived FROM nav_snapshots WHERE day <= '2026-11-24' ORDER BY account_id, day",
    );
    // Account 1: Nov 22 1 100 − 5 = 1 095; Nov 23 taken live, kept; Nov 24 1 095 + 100 = 1 195.
    // Account 2 had none: derived from its first deal, 1 000 on Nov 20, 1 001.23 from Nov 21.
    expect(nav.map((r) => [r.account_id, r.day, r.balance, r.equity, r.derived])).toEqual([
      [1, '2026-11-20', 1_000, 1_000, true],
      [1, '2026-11-21', 1_100, 1_100, true],
      [1, '2026-11-22', 1_095, 1_095, true],
      [1, '2026-11-23', 1_100, 1_120, false],
      [1, '2026-11-24', 1_195, 1_195, true],
      [2, '2026-11-20', 1_000, 1_000, true],
      [2, '2026-11-21', 1_001.23, 1_001.23, true],
      [2, '2026-11-22', 1_001.23, 1_001.23, true],
      [2, '2026-11-23', 1_001.23, 1_001.23, true],
      [2, '2026-11-24', 1_001.23, 1_001.23, true],
    ]);
  });
});
