import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import writeXlsxFile from 'write-excel-file/node';
import { hashPassword } from '#server/auth/password.ts';
import { insertAccount } from '#server/db/accounts-repo.ts';
import type { ImportStatementResponse } from '#shared/contract/import.ts';
import type { HistoricalDealsResponse } from '#shared/contract/deals.ts';
import { BACKENDS, http, login, startServer, type TestServer } from './helpers/server.ts';
import { MT5_XLSX_SHEET } from '../fixtures/reports/mt5-xlsx-sheet.ts';

/**
 * Statement import from the Accounts screen (issue 18 item 4), over real HTTP: a write user uploads
 * an MT5 Trade History Report into the account it belongs to.
 */

const report = (name: string) => fs.readFileSync(new URL(`../fixtures/reports/${name}`, import.meta.url));
/** Account: 7104455 (EUR, OtherBroker-Demo, demo, Netting), nine deals, tickets 5001–5009. */
const NETTING = report('mt5-netting-utf8.html');
const LOGIN = '7104455';
/** The hedging report belongs to another account: 51234567. */
const OTHER_LOGIN_REPORT = report('mt5-hedging-utf16.html');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01]);
const NOT_A_REPORT =
  'This file is not a statement this app reads: a MetaTrader 5 trade history report (HTML or Excel), a MetaTrader 4 statement, ' +
  'or an Interactive Brokers Flex statement (Activity Flex Query, XML).';
/** The broker's server time is UTC+2 in these imports: every time moves two hours back. */
const OFFSET_MIN = 120;
const utc = (brokerIso: string) => Date.parse(`${brokerIso}Z`) / 1000 - OFFSET_MIN * 60;

type Answer = ImportStatementResponse & { message: string };

describe.each(BACKENDS)('statement import into an account (%s)', (backend) => {
  let server: TestServer;
  let admin: string;
  let investor: string;
  /** A write user of Global FX only: the SMA account is outside their portfolios. */
  let fxWriter: string;
  let accountId: string;

  const upload = (account: string, body: Buffer | string, key: string, query = `&utc_offset_minutes=${OFFSET_MIN}`) =>
    // The helper sends string bodies only: the file's bytes go through fetch directly.
    fetch(`${server.url}/api/accounts/import-statement?account=${encodeURIComponent(account)}${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'x-api-key': key },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as Answer }));

  const balanceOf = async () => {
    const info = await http<{ data: { account_id: string; balance: number }[] }>(server, 'GET', '/api/brokers/accounts/info', { key: admin });
    return info.body.data.find((a) => a.account_id === accountId)?.balance;
  };
  const dealsOf = async () =>
    (await http<HistoricalDealsResponse>(server, 'GET', `/api/brokers/historical-deals?account=${accountId}`, { key: admin })).body.dealsStats[0]!.deals;
  const auditRows = async () =>
    server.app.db.query<{ detail: Record<string, unknown> }>("SELECT detail FROM audit_log WHERE action = 'accounts.import-statement' ORDER BY id");

  beforeAll(async () => {
    server = await startServer(backend);
    admin = await login(server, 'admin');
    investor = await login(server, 'investor');
    // The demo has no account of the report's login: register one, as `npm run admin` would.
    const db = server.app.db;
    const broker = (await db.query<{ id: number }>('SELECT id FROM brokers ORDER BY id LIMIT 1'))[0]!;
    accountId = `import-${LOGIN}`;
    await insertAccount(db, {
      account_id: accountId,
      account: LOGIN,
      account_name: 'Zoë Brandt (imported)',
      broker_id: broker.id,
      server: 'OtherBroker-Demo',
      server_name: 'OtherBroker Demo',
      teiko_category: 'SMA',
      currency: 'EUR',
      is_master: false,
      master_id: null,
      copy_ratio: 1,
      leverage: 100,
      ping: 0,
      last_update: 1_699_000_000,
      source: 'agent',
    });
    await server.app.authStore.upsertUser({
      username: 'fx-writer',
      password_hash: await hashPassword('fx-writer-pass'),
      status: 'active',
      permissions: ['write'],
      portfolio_auth: ['Global FX'],
    });
    const signIn = await http<{ data: { api_key: string } }>(server, 'POST', '/api/login', { body: { username: 'fx-writer', password: 'fx-writer-pass' } });
    fxWriter = signIn.body.data.api_key;
  });
  afterAll(async () => {
    await server.close();
  });

  it('imports the report: nine deals added, booked as one deposit, three round trips and a charge', async () => {
    expect(await balanceOf()).toBe(0);
    const res = await upload(LOGIN, NETTING, admin);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Imported: 9 added, 0 updated, 0 skipped.', format: 'mt5-html', added: 9, updated: 0, skipped: 0, warnings: [] });
    // Per statement (one): six fills (5002, 5003, 5004, 5005, 5006, 5009); realized (66.67 − 2) + (−67.67 − 6) + (1 250 − 3.10 − 2)
    // = 1 235.90; commissions −3 (the opening) −1 −4 −2 −0.60 = −10.60; the balance it leaves 6 210.90 (no opening balance stated).
    expect(res.body.statements).toEqual([
      { account: accountId, booked: true, reason: null, base_currency: 'EUR', base_rule: 'the report header', trades: 6,
        cash: [{ currency: 'EUR', cash_start: null, cash_end: 6_210.9, realized: 1_235.9, commissions: -10.6 }] },
    ]);

    // By hand from the report: the deposit (5001); position 7001 bought 2 @ 15 120.5 and 1 @ 15 160.5
    // (average 15 133.8333, commission −3), sold 1 (5004: −1 own, −1 its third of the opening), then
    // sold 4 in/out (5005: closes the 2 left, −4 own, −2 the rest of the opening; opens a sell of 2),
    // bought 2 out (5006). The charge (5008, a platform fee of −25.00) is a result of the account, a row
    // of its own; the credit (5007) and the still-open EURUSD (5009) book no deal row. Newest first,
    // times moved from broker time (UTC+2) to UTC.
    const deals = await dealsOf();
    expect(deals.map((d) => ({ type: d.type, symbol: d.symbol, quantity: d.quantity, profit: d.profit, commission: d.commission, swap: d.swap, datetime: d.datetime }))).toEqual([
      { type: 'Charge', symbol: '', quantity: 0, profit: -25, commission: 0, swap: 0, datetime: utc('2023-11-07T00:00:00') },
      { type: 'Sell', symbol: 'GER40', quantity: 2, profit: 1250, commission: -2, swap: -3.1, datetime: utc('2023-11-06T11:00:00') },
      { type: 'Buy', symbol: 'GER40', quantity: 2, profit: -67.67, commission: -6, swap: 0, datetime: utc('2023-11-03T14:00:00') },
      { type: 'Buy', symbol: 'GER40', quantity: 1, profit: 66.67, commission: -2, swap: 0, datetime: utc('2023-11-03T09:15:00') },
      { type: 'Deposit', symbol: '', quantity: 0, profit: 5000, commission: 0, swap: 0, datetime: utc('2023-11-01T08:00:00') },
    ]);
    expect(deals[3]!.open_price).toBeCloseTo(45_401.5 / 3, 6);
    expect(deals[3]!.close_price).toBe(15_200.5);
    expect(deals[1]!.open_price).toBe(15_100);
    expect(deals[1]!.close_price).toBe(14_475);
    // 5 000 + (66.67 − 2) + (−67.67 − 6) + (1 250 − 3.10 − 2) − 25: the report's own balance after deal
    // 5008 (6 210.90); 5009's entry commission of −0.60 is booked when its position closes.
    expect(await balanceOf()).toBeCloseTo(6_210.9, 2);
    expect((await auditRows()).map((r) => r.detail)).toEqual([{ account: accountId, format: 'mt5-html', added: 9, updated: 0, skipped: 0 }]);
  });

  it('importing the same report again adds nothing, skips every deal and changes no balance', async () => {
    const before = await balanceOf();
    const dealsBefore = await dealsOf();
    // By login this time (the route takes account_id or login).
    const res = await upload(LOGIN, NETTING, admin);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Imported: 0 added, 0 updated, 9 skipped.', added: 0, updated: 0, skipped: 9, warnings: [] });
    expect(await balanceOf()).toBe(before);
    expect(await dealsOf()).toEqual(dealsBefore);
  });

  it('the same report read at another broker offset updates every deal (their times move)', async () => {
    const res = await upload(accountId, NETTING, admin, '&utc_offset_minutes=180');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ added: 0, updated: 9, skipped: 0 });
    expect((await dealsOf()).at(-1)!.datetime).toBe(Date.parse('2023-11-01T08:00:00Z') / 1000 - 180 * 60);
    expect(await balanceOf()).toBeCloseTo(6_210.9, 2);
    // Back to UTC+2 for the tests that follow.
    expect((await upload(accountId, NETTING, admin)).body).toMatchObject({ added: 0, updated: 9, skipped: 0 });
  });

  it('refuses a file that is not a report with the reader\'s message, and changes nothing', async () => {
    const before = await balanceOf();
    for (const body of [PNG, Buffer.from('just some text, no table'), Buffer.from('<html><table><tr><td>1</td></tr></table></html>')]) {
      const res = await upload(accountId, body, admin);
      expect(res).toEqual({ status: 400, body: { message: NOT_A_REPORT } });
    }
    const zip = await upload(accountId, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]), admin);
    expect(zip.status).toBe(400);
    expect(zip.body.message).toMatch(/not a MetaTrader 5 trade history report/);
    expect((await upload(accountId, Buffer.alloc(0), admin)).status).toBe(400);
    expect(await balanceOf()).toBe(before);
  });

  it('refuses a report of another account, naming both logins, or in another currency', async () => {
    const before = await balanceOf();
    const res = await upload(accountId, OTHER_LOGIN_REPORT, admin);
    expect(res).toEqual({ status: 400, body: { message: `This report is for account 51234567, not ${LOGIN}.` } });
    // The Excel export travels the same way (a zip, read as a workbook): account 7654321's.
    const workbook = Buffer.from(await writeXlsxFile(MT5_XLSX_SHEET).toBuffer());
    expect(await upload(accountId, workbook, admin)).toEqual({ status: 400, body: { message: `This report is for account 7654321, not ${LOGIN}.` } });
    const inUsd = Buffer.from(NETTING.toString('utf8').replace('(EUR,', '(USD,'));
    expect(await upload(accountId, inUsd, admin)).toEqual({ status: 400, body: { message: `This report is in USD, but the account ${LOGIN} is in EUR.` } });
    expect(await balanceOf()).toBe(before);
  });

  it('refuses other content types, a bad offset and an oversized file with a 4xx and a message', async () => {
    const json = await http<{ message: string }>(server, 'POST', `/api/accounts/import-statement?account=${accountId}`, { body: { file: 'x' }, key: admin });
    expect(json.status).toBe(415);
    expect(json.body.message).toMatch(/application\/octet-stream/);
    for (const offset of ['abc', '1.5', '841', '-721']) {
      const res = await upload(accountId, NETTING, admin, `&utc_offset_minutes=${offset}`);
      expect({ offset, status: res.status }).toEqual({ offset, status: 400 });
      expect(res.body.message).toMatch(/utc_offset_minutes/);
    }
    const huge = await upload(accountId, Buffer.alloc(20 * 1024 * 1024 + 1, 0x20), admin);
    expect(huge.status).toBe(413);
    expect(huge.body.message).toMatch(/larger than 20 MB/);
  });

  it('is for users with write only: the investor gets 403, and no key 401', async () => {
    const res = await upload(accountId, NETTING, investor);
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/^Forbidden: .*write/);
    const anonymous = await fetch(`${server.url}/api/accounts/import-statement?account=${accountId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(NETTING),
    });
    expect(anonymous.status).toBe(401);
  });

  it('answers an unknown account and one outside the caller\'s portfolios alike (404)', async () => {
    expect(await upload('no-such-account', NETTING, admin)).toEqual({ status: 404, body: { message: 'Account not found: no-such-account' } });
    expect(await upload(accountId, NETTING, fxWriter)).toEqual({ status: 404, body: { message: `Account not found: ${accountId}` } });
    // Only the imports that reached the books were recorded: the first, and three re-imports.
    expect((await auditRows()).length).toBe(4);
  });
});
