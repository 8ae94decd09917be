import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ImportStatementResponse } from '#shared/contract/import.ts';
import type { HistoricalDealsResponse } from '#shared/contract/deals.ts';
import type { BrokerEvent } from '#shared/domain/broker-events.ts';
import { marketOf, replay } from '#shared/domain/round-trips.ts';
import { insertBroker } from '#server/db/accounts-repo.ts';
import { insertRegisteredAccount } from '#server/db/registry-repo.ts';
import { BACKENDS, http, login, startServer, type TestServer } from './helpers/server.ts';
import { REAL_REPORTS, realReportsDescribe, realReportsTitle } from '../fixtures/real-reports.ts';

/**
 * Conformance over genuine Interactive Brokers Flex statements written by other people
 * (../shared/real-reports/ibkr beside the project; REAL_REPORTS_DIR overrides it), imported through
 * the app's statement import into Interactive Brokers accounts registered for them, and read back
 * through the API and the books. The expected figures are each file's own (its CashReport, its
 * realized P/L), read off the file by hand and listed in the folder's README; importing a file again
 * changes nothing.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FOLDER = path.join(REAL_REPORTS, 'ibkr');
const FIXTURES = path.resolve(ROOT, 'tests/fixtures/ibkr');

type Cash = ImportStatementResponse['statements'][number]['cash'][number];

realReportsDescribe.each(BACKENDS)(realReportsTitle('Interactive Brokers Flex statements imported (%s)'), (backend) => {
  let server: TestServer;
  let admin = '';
  const ids = new Map<string, number>();

  const upload = (account: string, bytes: Uint8Array) =>
    fetch(`${server.url}/api/accounts/import-statement?account=${encodeURIComponent(account)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'x-api-key': admin },
      body: new Blob([new Uint8Array(bytes)]),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as ImportStatementResponse & { message: string } }));
  const real = (name: string) => new Uint8Array(fs.readFileSync(path.join(FOLDER, name)));
  const fixture = (name: string) => new Uint8Array(fs.readFileSync(path.join(FIXTURES, name)));
  const cashOf = (body: ImportStatementResponse, currency: string): Cash | undefined => body.statements[0]!.cash.find((c) => c.currency === currency);
  const accountRow = async (accountId: string) =>
    (await http<{ data: { account_id: string; balance: number; equity: number; feed: string }[] }>(server, 'GET', '/api/brokers/accounts/info', { key: admin })).body.data.find(
      (a) => a.account_id === accountId,
    );
  /** The account's stored events replayed: what is open after them, by symbol. */
  const openAfter = async (accountId: string) => {
    const rows = await server.app.db.query<{ event: BrokerEvent }>('SELECT event FROM broker_events WHERE account_id = $1', [ids.get(accountId)]);
    const { open } = replay(0, rows.map((r) => r.event), marketOf);
    return new Map([...open.values()].map((o) => [o.symbol, o.quantity]));
  };

  beforeAll(async () => {
    server = await startServer(backend, { demo: true });
    admin = await login(server, 'admin');
    const db = server.app.db;
    const broker = await insertBroker(db, { broker_name: 'Interactive Brokers', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
    // The accounts the files are of, registered as an operator does (account add --source ibkr), in their base currencies.
    for (const [login, currency] of [['U12345678', 'EUR'], ['U1234567', 'EUR'], ['U123456', 'CHF'], ['U000000', 'CHF'], ['U7000001', 'USD'], ['U7000002', 'USD']] as const) {
      const accountId = `interactive-brokers-${login}`;
      ids.set(accountId, await insertRegisteredAccount(db, {
        source: 'ibkr', account_id: accountId, account: login, account_name: `IB ${login}`, broker_id: broker, server: 'IBKR', server_name: 'IBKR',
        teiko_category: 'global equity', currency, leverage: 1,
      }));
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  it('tradeznet_kmi.xml: base EUR, the KMI round trip counted once across its three levels of detail, at IB\'s realized 344.995717 USD', async () => {
    const res = await upload('U12345678', real('tradeznet_kmi.xml'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s = res.body.statements[0]!;
    expect(s).toMatchObject({ account: 'interactive-brokers-U12345678', booked: true, base_currency: 'EUR', trades: 3 });
    // Realized once: 344.995717 (not 1 034.99, the three levels summed), to the cent on the wire.
    expect(cashOf(res.body, 'USD')!.realized).toBe(345);
    // The deal row in EUR at the sell's fxRateToBase 0.86228: 344.995717 × 0.86228 = 297.4823… → 297.48.
    const deals = await http<HistoricalDealsResponse>(server, 'GET', '/api/brokers/historical-deals?account=interactive-brokers-U12345678', { key: admin });
    const trades = deals.body.dealsStats[0]!.deals.filter((d) => d.category !== 'Balance');
    expect(trades).toHaveLength(1);
    expect(trades[0]!.symbol).toBe('KMI');
    expect(trades[0]!.quantity).toBe(200);
    expect(trades[0]!.profit + trades[0]!.commission + trades[0]!.swap + trades[0]!.fee).toBeCloseTo(297.48, 2);
    // Imported again: nothing changes.
    const again = await upload('U12345678', real('tradeznet_kmi.xml'));
    expect(again.body).toMatchObject({ added: 0, updated: 0 });
    expect(again.body.skipped).toBe(res.body.added);
  });

  it('gabbersepp_TestForCoding.xml: base EUR, cash per currency equal to its CashReport, the account\'s cash its BASE_SUMMARY', async () => {
    const res = await upload('U1234567', real('gabbersepp_TestForCoding.xml'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.statements[0]).toMatchObject({ base_currency: 'EUR', trades: 15 });
    // CashReportCurrency startingCash → endingCash, per currency (the README's figures), to the cent.
    expect(cashOf(res.body, 'CHF')).toMatchObject({ cash_start: 120, cash_end: 120 });
    expect(cashOf(res.body, 'EUR')).toMatchObject({ cash_start: 9_371.2, cash_end: 9_359.8 });
    expect(cashOf(res.body, 'GBP')).toMatchObject({ cash_start: -803.51, cash_end: 94.79 });
    expect(cashOf(res.body, 'USD')).toMatchObject({ cash_start: 80_464.69, cash_end: 94_605.73 });
    // Commissions (ibCommission) per currency: USD −28.210679, EUR −11.4, GBP −1.7.
    expect(cashOf(res.body, 'USD')!.commissions).toBe(-28.21);
    expect(cashOf(res.body, 'EUR')!.commissions).toBe(-11.4);
    expect(cashOf(res.body, 'GBP')!.commissions).toBe(-1.7);
    // The account's balance: BASE_SUMMARY endingCash 93 035.705712123; it is fed by statements.
    expect(await accountRow('interactive-brokers-U1234567')).toMatchObject({ balance: 93_035.71, feed: 'statement' });
  });

  it('pp_testIBFlexStatementFile01.xml: base CHF (FxTransaction@functionalCurrency), 2 358 CAD realized on UUU through its tender, 480 GCM after the 1-for-25 split', async () => {
    const res = await upload('U123456', real('pp_testIBFlexStatementFile01.xml'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.statements[0]).toMatchObject({ base_currency: 'CHF', base_rule: 'FxTransaction@functionalCurrency' });
    expect(cashOf(res.body, 'CAD')!.realized).toBe(2_358);
    // The UUU shares, tendered into UUU.TEN2 and merged for CAD 2.86 each: 12 000 × 2.86 = 34 320 proceeds, 2 358 over IB's cost.
    const open = await openAfter('interactive-brokers-U123456');
    expect(open.get('GCM')).toBe(480);
    expect(open.has('UUU')).toBe(false);
    expect(open.has('UUU.TEN2')).toBe(false);
  });

  it('pp_testIBFlexStatementFile14.xml: base CHF, CHF and USD cash equal to its CashReport, the account\'s cash 89.57 CHF', async () => {
    const res = await upload('U000000', real('pp_testIBFlexStatementFile14.xml'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.statements[0]).toMatchObject({ base_currency: 'CHF' });
    expect(cashOf(res.body, 'CHF')).toMatchObject({ cash_start: 0.52, cash_end: 5.88 });
    expect(cashOf(res.body, 'USD')).toMatchObject({ cash_start: 56.32, cash_end: 88.83 });
    expect(await accountRow('interactive-brokers-U000000')).toMatchObject({ balance: 89.57 });
    // Two deposits of CHF 1 500 on the books.
    const deals = await http<HistoricalDealsResponse>(server, 'GET', '/api/brokers/historical-deals?account=interactive-brokers-U000000', { key: admin });
    expect(deals.body.dealsStats[0]!.deals.filter((d) => d.type === 'Deposit').map((d) => d.profit)).toEqual([1_500, 1_500]);
  });

  it('books each statement of a multi-account file into its own registered account, never moving cash across, and reports one not registered', async () => {
    const res = await upload('U7000001', fixture('three-accounts.xml'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.statements.map((s) => [s.account, s.booked, s.reason])).toEqual([
      ['interactive-brokers-U7000001', true, null],
      ['interactive-brokers-U7000002', true, null],
      ['U7000003', false, 'No account U7000003 is registered in your portfolios: its statement is not booked.'],
    ]);
    // Each its own deposit: 2 000 into U7000001, 300 into U7000002; U7000003's 900 nowhere.
    expect(await accountRow('interactive-brokers-U7000001')).toMatchObject({ balance: 2_000 });
    expect(await accountRow('interactive-brokers-U7000002')).toMatchObject({ balance: 300 });
    const deposits = await server.app.db.query<{ account_id: number; amount: number }>(
      "SELECT account_id, amount FROM deals WHERE kind = 'deposit' AND account_id = ANY($1::int[]) ORDER BY account_id",
      [[ids.get('interactive-brokers-U7000001'), ids.get('interactive-brokers-U7000002')]],
    );
    expect(deposits.map((d) => [d.account_id, Number(d.amount)])).toEqual([
      [ids.get('interactive-brokers-U7000001'), 2_000],
      [ids.get('interactive-brokers-U7000002'), 300],
    ]);
  });

  it('refuses a statement whose base currency is not the account\'s, naming both, and books nothing', async () => {
    const res = await upload('U12345678', fixture('multi-account.xml'));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('This Interactive Brokers Flex statement holds the accounts U9000001, U9000002, not U12345678.');
    const single = await upload('U7000001', real('tradeznet_kmi.xml'));
    expect(single.status).toBe(400);
    expect(single.body.message).toBe('This report is for account U12345678, not U7000001.');
  });

  it('refuses a statement in another base currency than the account\'s', async () => {
    const db = server.app.db;
    const [broker] = await db.query<{ id: number }>("SELECT id FROM brokers WHERE broker_name = 'Interactive Brokers'");
    await insertRegisteredAccount(db, {
      source: 'ibkr', account_id: 'interactive-brokers-U9000002', account: 'U9000002', account_name: 'IB U9000002 in EUR', broker_id: broker!.id,
      server: 'IBKR', server_name: 'IBKR', teiko_category: 'global equity', currency: 'EUR', leverage: 1,
    });
    const [one] = await db.query<{ id: number }>("SELECT id FROM accounts WHERE account = 'U9000002'");
    const res = await upload('U9000002', fixture('multi-account.xml'));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('This report is in USD, but the account U9000002 is in EUR.');
    expect((await db.query('SELECT 1 FROM broker_events WHERE account_id = $1', [one!.id])).length).toBe(0);
  });
});
