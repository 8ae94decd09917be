import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replay } from '#agent/agent.ts';
import { insertAccount, insertBroker } from '#server/db/accounts-repo.ts';
import { grantAccount, insertAgent } from '#server/db/agents-repo.ts';
import { hashToken, newToken } from '#server/auth/tokens.ts';
import { BACKENDS, startServer, type TestServer } from './helpers/server.ts';

const REPORT = 'tests/fixtures/reports/mt5-netting-utf8.html';

describe.each(BACKENDS)('the reference agent replays a report through the ingest API (%s)', (backend) => {
  let server: TestServer;
  let key: string;
  let accountId: number;
  const lines: string[] = [];
  const options = () => ({ url: server.url, key, utcOffsetMinutes: 120, log: (l: string) => lines.push(l) });
  const one = async <T extends object>(sql: string, params: unknown[] = []) => (await server.app.db.query<T>(sql, params))[0]!;

  beforeAll(async () => {
    server = await startServer(backend, { demo: false });
    const db = server.app.db;
    const broker = await insertBroker(db, {
      broker_name: 'Beispiel Broker', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0,
    });
    // The report's own account: 7104455 on OtherBroker-Demo, in EUR.
    accountId = await insertAccount(db, {
      account_id: 'beispiel-7104455', account: '7104455', account_name: 'Zoë Brandt', broker_id: broker, server: 'OtherBroker-Demo',
      server_name: 'OtherBroker Demo', teiko_category: 'SMA', currency: 'EUR', is_master: true, master_id: null, copy_ratio: 1,
      leverage: 100, ping: 0, last_update: 0, source: 'agent',
    });
    key = newToken();
    await grantAccount(db, await insertAgent(db, 'replayer', hashToken(key)), accountId, 'read');
  });
  afterAll(async () => server.close());

  it('books the round trips, the deposit and the charge of the report, and a second replay changes nothing', async () => {
    const first = await replay(fs.readFileSync(REPORT), REPORT, options());
    // 9 deals: a deposit, two buys in, a partial out, a reversal, an out, a credit, a charge, a sell in.
    // Booked: the deposit, three round trips and the charge (the credit and the open sell book nothing).
    expect(first).toEqual({ batches: 1, deals: 9, booked: 5 });
    const rows = await server.app.db.query<{ kind: string; ticket: number; profit: number; amount: number }>(
      'SELECT kind, ticket, profit, amount FROM deals WHERE account_id = $1 ORDER BY ticket',
      [accountId],
    );
    expect(rows.map((r) => [r.kind, r.ticket])).toEqual([['deposit', 5001], ['trade', 5004], ['trade', 5005], ['trade', 5006], ['result', 5008]]);
    expect(rows[0]!.amount).toBe(5_000);
    // The closing deals' profits: 66.67 − 67.67 + 1,250.00.
    expect(rows.slice(1, 4).reduce((s, r) => s + r.profit, 0)).toBeCloseTo(1_249, 2);
    // The charge: a platform fee of −25.00.
    expect(rows[4]!.amount).toBe(-25);
    const balance = (await one<{ balance: number }>('SELECT balance FROM accounts WHERE id = $1', [accountId])).balance;

    const again = await replay(fs.readFileSync(REPORT), REPORT, options());
    expect(again.booked).toBe(0);
    expect((await one<{ n: number }>('SELECT count(*)::int AS n FROM deals WHERE account_id = $1', [accountId])).n).toBe(5);
    expect((await one<{ balance: number }>('SELECT balance FROM accounts WHERE id = $1', [accountId])).balance).toBe(balance);
    expect(lines.at(-1)).toBe('mt5-html: 9 deals of 7104455@OtherBroker-Demo sent in 1 batches; 0 rows booked.');
  });

  it('runs as a command, and refuses a file that is not a report with its message', async () => {
    const run = promisify(execFile);
    const bad = await run(process.execPath, ['--import', 'tsx', 'src/agent/agent.ts', 'replay', 'package.json', '--url', server.url, '--key', key]).catch(
      (err: { code: number; stderr: string }) => err,
    );
    expect('code' in bad && bad.code).toBe(1);
    expect('stderr' in bad && bad.stderr).toMatch(/not a MetaTrader 4 or 5 trade history report/);
    const ok = await run(process.execPath, ['--import', 'tsx', 'src/agent/agent.ts', 'replay', REPORT, '--url', server.url, '--key', key, '--utc-offset', '120']);
    expect(ok.stdout).toMatch(/9 deals of 7104455@OtherBroker-Demo sent in 1 batches; 0 rows booked\./);
  });
});
