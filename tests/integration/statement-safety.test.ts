import fs from 'node:fs';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount } from '#server/db/accounts-repo.ts';
import { LIMITS, READ_BUDGET, ReadBudgetError } from '#shared/statements/budget.ts';
import { readStatement } from '#server/import/read-in-worker.ts';
import type { ImportStatementResponse } from '#shared/contract/import.ts';
import { BACKENDS, login, startServer, type TestServer } from './helpers/server.ts';

/**
 * Untrusted statement files through the import route: a zip bomb, markup nested 300,000 deep, a deal
 * listed twice, a report cut short. Each is answered with a 400 and a message (or imported as far as it
 * honestly can be), nothing is written by a refused file, and the server keeps serving meanwhile.
 */

const NETTING = fs.readFileSync(new URL('../fixtures/reports/mt5-netting-utf8.html', import.meta.url), 'utf8');
const LOGIN = '7104455';
/** The Deals table's row of deal 5004 (a partial close). */
const DEAL_5004 = /<tr[^>\n]*>[^\n]*<td>5004<\/td>[^\n]*<\/tr>/.exec(NETTING)![0];
const CUT_SHORT = /^This report is incomplete: the file ends before the report does/;

// ------------------------------------------------------------------------------------------------
// A zip written by hand, so a test can lie in it the way a hostile file would
// ------------------------------------------------------------------------------------------------

interface Entry {
  name: string;
  /** Stored as is (method 0), or already deflated (method 8) with the size it claims to inflate to. */
  data: Buffer;
  deflated?: { claimedSize: number };
}

function zip(entries: Entry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const method = entry.deflated ? 8 : 0;
    const size = entry.deflated ? entry.deflated.claimedSize : entry.data.length;
    // The CRC is left 0: the reader must not need it to refuse a bomb.
    const crc = entry.deflated ? 0 : zlib.crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * A raw deflate stream of `mib` MiB of zeros: one MiB deflated once (~1 KB, ending on a full flush, so
 * it stands alone) repeated, then an empty final block.
 */
function deflatedZeros(mib: number): Buffer {
  const chunk = zlib.deflateRawSync(Buffer.alloc(1024 * 1024), { finishFlush: zlib.constants.Z_FULL_FLUSH });
  return Buffer.concat([...Array<Buffer>(mib).fill(chunk), zlib.deflateRawSync(Buffer.alloc(0))]);
}

const WORKBOOK = `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"
  xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const RELATIONSHIPS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
  <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;

/** An .xlsx of ~2 MB whose sheet inflates to 2 GiB of zeros, while its header claims 1 KB. */
function zipBomb(): Buffer {
  return zip([
    { name: 'xl/workbook.xml', data: Buffer.from(WORKBOOK) },
    { name: 'xl/_rels/workbook.xml.rels', data: Buffer.from(RELATIONSHIPS) },
    { name: 'xl/worksheets/sheet1.xml', data: deflatedZeros(2048), deflated: { claimedSize: 1024 } },
  ]);
}

describe.each(BACKENDS)('statement files that attack the server (%s)', (backend) => {
  let server: TestServer;
  let admin: string;
  const accountId = `safety-${LOGIN}`;

  const upload = (body: Uint8Array | string) =>
    fetch(`${server.url}/api/accounts/import-statement?account=${accountId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'x-api-key': admin },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as ImportStatementResponse & { message: string } }));

  const books = async () => {
    const rows = await server.app.db.query<{ balance: number; deals: number; broker_deals: number }>(
      `SELECT a.balance, (SELECT count(*)::int FROM deals d WHERE d.account_id = a.id) AS deals,
              (SELECT count(*)::int FROM broker_events b WHERE b.account_id = a.id) AS broker_deals
       FROM accounts a WHERE a.account_id = $1`,
      [accountId],
    );
    return rows[0]!;
  };

  /** GET /health's status. */
  const health = async () => (await fetch(`${server.url}/health`)).status;

  beforeAll(async () => {
    server = await startServer(backend);
    admin = await login(server, 'admin');
    const broker = (await server.app.db.query<{ id: number }>('SELECT id FROM brokers ORDER BY id LIMIT 1'))[0]!;
    await insertAccount(server.app.db, {
      account_id: accountId, account: LOGIN, account_name: 'Safety', broker_id: broker.id, server: 'OtherBroker-Demo',
      server_name: 'OtherBroker Demo', teiko_category: 'SMA', currency: 'EUR', is_master: false, master_id: null,
      copy_ratio: 1, leverage: 100, ping: 0, last_update: 0, source: 'agent',
    });
  });
  afterAll(async () => {
    await server.close();
  });

  // No assertion here is on the wall clock (a loaded CI machine stretches any): a time budget is
  // asserted through what enforces it. A file past a limit is refused by the limit that counts it, not
  // by the deadline (whose message names "s of reading"); a file answered 200 was read before its
  // deadline, which would have refused it. How fast /health answers meanwhile is the bench's to measure.

  it('a 2 MB .xlsx that inflates to 2 GiB is refused by the bytes it inflates, not by the deadline, and the server keeps serving', async () => {
    const bomb = zipBomb();
    expect(bomb.length).toBeLessThan(3 * 1024 * 1024);
    const res = await upload(bomb);
    expect(res.status).toBe(400);
    // Stopped once one part had inflated past its limit: 128 MB read of the 2 GiB it holds.
    expect(res.body.message).toBe(`This file is too large or too complex to read (limit: ${LIMITS.part}).`);
    expect(await health()).toBe(200);
    expect(await books()).toEqual({ balance: 0, deals: 0, broker_deals: 0 });
    // And it still imports a real report.
    expect((await upload(NETTING)).status).toBe(200);
  });

  it('a 3.3 MB statement of 300,000 nested <div> is read before its deadline (which would refuse it), the server answering meanwhile', async () => {
    const nested = `${'<div>'.repeat(300_000)}x${'</div>'.repeat(300_000)}`;
    const file = NETTING.replace(/<body[^>]*>/, (body) => `${body}${nested}`);
    expect(file.length).toBeGreaterThan(3_300_000);
    const answer = upload(file);
    // /health answers all the while the file is read (in a worker thread).
    const probes: number[] = [];
    let done = false;
    void answer.finally(() => (done = true));
    while (!done) {
      probes.push(await health());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const res = await answer;
    // Read in linear time: the report in it imports (its deals are already there: skipped). Past
    // READ_BUDGET.seconds the worker would have been stopped and the file refused naming that limit.
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ added: 0, updated: 0, skipped: 9 });
    expect(probes.every((status) => status === 200)).toBe(true);
  });

  it('the deadline stops a reading worker and refuses the file, naming the limit', async () => {
    const nested = `${'<div>'.repeat(300_000)}x${'</div>'.repeat(300_000)}`;
    const file = NETTING.replace(/<body[^>]*>/, (body) => `${body}${nested}`);
    // The same file with a deadline no reading meets (the worker cannot even start in it).
    const refused = await readStatement(new TextEncoder().encode(file), 'nested.html', { seconds: 0.001 }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ReadBudgetError);
    expect((refused as Error).message).toBe(`This file is too large or too complex to read (limit: ${LIMITS.seconds}).`);
    expect(LIMITS.seconds).toBe(`${READ_BUDGET.seconds} s of reading`);
  });

  it('a deal listed twice as it was: read once, with a warning', async () => {
    const row = DEAL_5004;
    const twice = NETTING.replace(row, `${row}\n${row}`);
    const res = await upload(twice);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ added: 0, updated: 0, skipped: 9 });
    expect(res.body.warnings).toEqual([expect.stringMatching(/^Row \d+: deal 5004 is listed twice \(also row \d+\) and was read once\.$/)]);
  });

  it('a deal listed twice with different figures: refused naming the deal, nothing written', async () => {
    const before = await books();
    const row = DEAL_5004;
    const other = row.replace('66.67', '99.99');
    expect(other).not.toBe(row);
    const res = await upload(NETTING.replace(row, `${row}\n${other}`));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^This report lists deal 5004 twice with different figures \(rows \d+ and \d+\): it cannot be imported as it is\.$/);
    expect(await books()).toEqual(before);
  });

  it('a deal dated years ahead of the server\'s clock is refused naming the deal, nothing written', async () => {
    const before = await books();
    const future = DEAL_5004.replace('2023.11.03 09:15:00', '2040.11.03 09:15:00');
    expect(future).not.toBe(DEAL_5004);
    const res = await upload(NETTING.replace(DEAL_5004, future));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      "The report dates deal 5004 2040-11-03 09:15:00 on the broker's clock, later than the server's clock allows: it cannot be imported.",
    );
    expect(await books()).toEqual(before);
  });

  it('a report cut short is refused, and nothing is written', async () => {
    // A new account's worth: the report's deals are not there yet.
    await server.app.db.query('DELETE FROM deals WHERE account_id = (SELECT id FROM accounts WHERE account_id = $1)', [accountId]);
    await server.app.db.query('DELETE FROM broker_events WHERE account_id = (SELECT id FROM accounts WHERE account_id = $1)', [accountId]);
    await server.app.db.query('UPDATE accounts SET balance = 0 WHERE account_id = $1', [accountId]);
    const bytes = Buffer.from(NETTING);
    for (const share of [0.45, 0.6, 0.75, 0.9, 0.99]) {
      const res = await upload(bytes.subarray(0, Math.floor(bytes.length * share)));
      expect({ share, status: res.status }).toEqual({ share, status: 400 });
      expect(res.body.message).toMatch(CUT_SHORT);
    }
    // Cut before the account line: not recognisable as a report at all.
    expect((await upload(bytes.subarray(0, 200))).status).toBe(400);
    expect(await books()).toEqual({ balance: 0, deals: 0, broker_deals: 0 });
  });
});

describe('the zip bomb as built here', () => {
  it('is what it claims: ~2 MB that inflate to 2 GiB', () => {
    const zeros = deflatedZeros(4);
    expect(zlib.inflateRawSync(zeros).length).toBe(4 * 1024 * 1024);
    expect(zeros.length).toBeLessThan(8 * 1024);
  });
});
