/**
 * Scoped reads in the repositories (docs/security.md, 'Audit log' and 'Alert texts'): what each audit
 * row is about, as written now and as migration 24 attributed the rows written before it; which rows
 * a reader of some portfolios reads; and an alert's text per reader. The HTTP side is in
 * permissions-matrix.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '#server/db/database.ts';
import { alertTextFor, insertAlerts, listAlerts, MASTER_OUTSIDE, namingMaster } from '#server/db/alerts-repo.ts';
import { audit, auditSystem, listAudit, type AuditReader } from '#server/db/audit-repo.ts';
import { migrate } from '#server/db/migrations.ts';
import { auditOperator } from '#server/db/registry-repo.ts';
import { BACKENDS } from './helpers/server.ts';
import { databaseBefore, type OldDatabase } from './helpers/old-database.ts';

/** AMC's account 1 (a master), Global FX's accounts 2 (its follower) and 3, SMA's 4; a user of each. */
const SETUP = `
  INSERT INTO brokers (broker_name, img_path) VALUES ('B', '/b.svg');
  INSERT INTO accounts (account_id, account, account_name, broker_id, server, server_name, teiko_category, currency, source) VALUES
    ('amc-1', '1001', 'AMC One', 1, 'S', 'S', 'AMC', 'USD', 'agent'),
    ('fx-2', '1002', 'FX Two', 1, 'S', 'S', 'global forex', 'USD', 'agent'),
    ('fx-3', '1003', 'FX Three', 1, 'S', 'S', 'global forex', 'USD', 'agent'),
    ('sma-4', '1004', 'SMA Four', 1, 'S', 'S', 'SMA', 'USD', 'agent');
  INSERT INTO users (username, password_hash, permissions, portfolio_auth) VALUES
    ('fx-writer', 'x', '{write}', '{Global FX}'), ('amc-writer', 'x', '{write}', '{AMC}');
  INSERT INTO copy_relations (master_id, follower_id, sizing, sizing_value, started_at) VALUES (1, 2, 'ratio', 1, now());
  INSERT INTO positions (account_id, symbol, type, category, quantity, price_open, price_current, price_low, price_high, opened_at)
    VALUES (3, 'EURUSD', 'Buy', 'Forex', 1, 1.1, 1.1, 1.1, 1.1, now());
`;

const FX: AuditReader = { admin: false, userId: 1, categories: ['global forex'], portfolios: ['Global FX'] };
const AMC: AuditReader = { admin: false, userId: 2, categories: ['AMC'], portfolios: ['AMC'] };
const actions = async (db: Database, reader: AuditReader) => {
  const { rows, total } = await listAudit(db, reader, 100, 0);
  expect(total).toBe(rows.length);
  return rows.map((r) => `${r.action} ${JSON.stringify(r.detail)}`).sort();
};

describe.each(BACKENDS)('scoped reads of the audit log and the alerts (%s)', (backend) => {
  let old: OldDatabase | undefined;
  afterEach(async () => {
    await old?.drop();
    old = undefined;
  });

  it('attributes the rows written before migration 24 by what they name, and the copy alerts to their master', async () => {
    old = await databaseBefore(backend, 24);
    const db = old.db;
    await db.exec(`${SETUP}
      INSERT INTO copy_guards (scope, relation_id, account_id, basis, unit, started_at) VALUES ('relation', 1, NULL, 'equity_floor', 'money', now()), ('follower', NULL, 3, 'equity_floor', 'money', now());
      INSERT INTO audit_log (user_id, action, detail) VALUES
        (NULL, 'fees.terms', '{"account_id": "fx-3"}'),
        (NULL, 'accounts.add', '{"account_id": "fx-2", "master": "1001@S", "via": "admin cli"}'),
        (NULL, 'accounts.add', '{"account_id": "fx-3", "master": null, "via": "admin cli"}'),
        (1, 'copy.relation.create', '{"relation": 1, "master": "amc-1", "follower": "fx-2"}'),
        (1, 'risk.guard-set', '{"guard_id": 1, "scope": "relation", "target": 1}'),
        (NULL, 'risk.guard-warn', '{"guard_id": 2, "account": "fx-3", "via": "server"}'),
        (1, 'positions.close', '{"symbol": "EURUSD", "positions": [1]}'),
        (1, 'risk.limits', '{"portfolio": "Global FX", "max_drawdown_pct": 20}'),
        (1, 'fees.terms', '{"account_id": "no-such-account"}'),
        (1, 'bridge.stop', '{}'),
        (2, 'users.create', '{"username": "amc-writer"}'),
        (NULL, 'agents.create', '{"agent": "t", "accounts": ["1003@S:trade"]}');
      INSERT INTO copy_events (at, kind, reason, master_account_id, follower_account_id, master_position_id, symbol, type)
        VALUES ('2026-11-20T10:00:00Z', 'missed', 'pair_not_allowed', 1, 2, 77, 'GBPJPY', 'Buy');
      INSERT INTO alerts (type, message, datetime, account_id) VALUES
        ('copy', 'Missed copy on FX Two: Buy GBPJPY of AMC One was not copied (the pair is not allowed).', '2026-11-20T10:00:00Z', 2),
        ('margin', 'Margin level of FX Two at 80 %', '2026-11-20T10:00:00Z', 2);
    `);
    expect(await migrate(db)).toEqual(old.pending);
    const rows = await db.query<{ action: string; account_ids: number[] | null; portfolios: string[] | null }>('SELECT action, account_ids, portfolios FROM audit_log ORDER BY id');
    expect(rows.map((r) => [r.action, (r.account_ids ? [...r.account_ids].sort((a, b) => a - b) : null), r.portfolios])).toEqual([
      ['fees.terms', [3], null],
      ['accounts.add', [1, 2], null],
      ['accounts.add', [3], null],
      ['copy.relation.create', [1, 2], null],
      ['risk.guard-set', [1, 2], null],
      ['risk.guard-warn', [3], null],
      ['positions.close', [3], null],
      ['risk.limits', null, ['Global FX']],
      ['fees.terms', [0], null],
      ['bridge.stop', null, null],
      ['users.create', null, null],
      ['agents.create', null, null],
    ]);
    // The writer of Global FX: its accounts' rows and its portfolio's, its own bridge switch; nothing naming AMC's account, nor what names no account it knows.
    expect((await actions(db, FX)).map((a) => a.split(' ')[0])).toEqual(['accounts.add', 'bridge.stop', 'fees.terms', 'positions.close', 'risk.guard-warn', 'risk.limits']);
    expect((await actions(db, AMC)).map((a) => a.split(' ')[0])).toEqual(['users.create']);
    expect((await listAudit(db, { admin: true }, 100, 0)).total).toBe(12);

    const alerts = await listAlerts(db, { categories: ['global forex'] });
    expect(alerts.map((a) => a.message).sort()).toEqual([
      'Margin level of FX Two at 80 %',
      `Missed copy on FX Two: Buy GBPJPY of ${MASTER_OUTSIDE} was not copied.`,
    ]);
    expect((await listAlerts(db, { categories: ['global forex', 'AMC'] })).map((a) => a.message)).toContain(
      'Missed copy on FX Two: Buy GBPJPY of AMC One was not copied (the pair is not allowed).',
    );
  });

  it('attributes each new row as it is written, and renders an alert naming a master per reader', async () => {
    old = await databaseBefore(backend, 1_000);
    const db = old.db;
    await db.exec(SETUP);
    await db.exec("INSERT INTO copy_guards (scope, relation_id, account_id, basis, unit, started_at) VALUES ('relation', 1, NULL, 'equity_floor', 'money', now())");
    await audit(db, 1, 'copy.relation.update', { relation: 1, master: 'amc-1', follower: 'fx-2', before: { relation: 1, master: 'amc-1', follower: 'fx-2' } });
    await audit(db, 1, 'fees.terms', { account_id: 'fx-3' });
    await audit(db, 1, 'positions.set-tp-sl', { positions: [1] });
    await audit(db, 1, 'positions.close', { positions: [1, 999] });
    await audit(db, 1, 'risk.limits', { portfolio: 'Global FX' });
    await audit(db, 1, 'risk.limits', { portfolio: 'SMA' });
    await audit(db, 1, 'accounts.import-statement', { account: 'fx-3', accounts: ['fx-3', 'sma-4'] });
    await audit(db, 1, 'risk.guard-rearm', { guard_id: 1, fresh_mark: false });
    await audit(db, 1, 'account.password', { sessions_ended: 1 });
    await auditSystem(db, 'risk.guard-close', { guard_id: 1, position: 1 });
    await auditOperator(db, 'accounts.add', { account_id: 'fx-3', master: '1004@S' });
    await auditOperator(db, 'agents.grant', { agent: 't', accounts: ['1003@S:trade'] });
    await audit(db, 2, 'a.new-action', { account: 'fx-3' });
    const ids = await db.query<{ action: string; account_ids: number[] | null; portfolios: string[] | null }>('SELECT action, account_ids, portfolios FROM audit_log ORDER BY id');
    expect(ids.map((r) => [r.action, (r.account_ids ? [...r.account_ids].sort((a, b) => a - b) : null), r.portfolios])).toEqual([
      ['copy.relation.update', [1, 2], null],
      ['fees.terms', [3], null],
      ['positions.set-tp-sl', [3], null],
      ['positions.close', [0, 3], null],
      ['risk.limits', null, ['Global FX']],
      ['risk.limits', null, ['SMA']],
      ['accounts.import-statement', [3, 4], null],
      ['risk.guard-rearm', [1, 2], null],
      ['account.password', null, null],
      ['risk.guard-close', [1, 2], null],
      ['accounts.add', [3, 4], null],
      ['agents.grant', null, null],
      ['a.new-action', null, null],
    ]);
    expect((await actions(db, FX)).map((a) => a.split(' ')[0])).toEqual(['account.password', 'fees.terms', 'positions.set-tp-sl', 'risk.limits']);
    // An action the attribution does not know: its author's and an administrator's only.
    expect((await actions(db, AMC)).map((a) => a.split(' ')[0])).toEqual(['a.new-action']);
    expect((await actions(db, { admin: false, userId: 99, categories: ['global forex', 'AMC', 'SMA'], portfolios: ['Global FX', 'AMC', 'SMA'] })).length).toBe(9);

    // An alert naming a master: as written for a reader who sees the master, the other text for the others.
    const named = namingMaster({ id: 1, account_name: 'AMC One' }, (m) => `Duplicated copy on FX Two: 2 copies of Buy EURUSD of ${m}.`);
    expect(named).toEqual({
      message: 'Duplicated copy on FX Two: 2 copies of Buy EURUSD of AMC One.',
      master: { accountId: 1, outsideMessage: `Duplicated copy on FX Two: 2 copies of Buy EURUSD of ${MASTER_OUTSIDE}.` },
    });
    await insertAlerts(db, [{ type: 'copy', ...named, at: 1_795_000_000, accountId: 2 }]);
    expect((await listAlerts(db, { categories: ['global forex'] })).map((a) => a.message)).toEqual([named.master!.outsideMessage]);
    expect((await listAlerts(db, { categories: ['global forex', 'AMC'] })).map((a) => a.message)).toEqual([named.message]);
    expect(await listAlerts(db, { categories: ['AMC'] })).toEqual([]);
    const pending = { message: named.message, masterCategory: 'AMC', messageOutside: named.master!.outsideMessage };
    expect(alertTextFor(pending, { portfolioAuth: ['Global FX'] })).toBe(named.master!.outsideMessage);
    expect(alertTextFor(pending, { portfolioAuth: ['Global FX', 'AMC'] })).toBe(named.message);
    expect(alertTextFor({ ...pending, masterCategory: null }, { portfolioAuth: ['AMC'] })).toBe(named.master!.outsideMessage);
    expect(alertTextFor({ message: 'Margin level 80 %', masterCategory: null, messageOutside: null }, { portfolioAuth: [] })).toBe('Margin level 80 %');
  });
});
