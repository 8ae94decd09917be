import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import writeXlsxFile from 'write-excel-file/node';
import { IngestDeal, IngestPosition } from '#shared/contract/ingest.ts';
import { cents } from '#shared/domain/money.ts';
import { balanceOperations, roundTrips } from '#server/ingest/mt5-books.ts';
import { entryOf } from '#server/ledger/rules.ts';
import { MT5_XLSX_SHEET } from '../../../tests/fixtures/reports/mt5-xlsx-sheet.ts';
import { unzipSync, zipSync } from 'fflate';
import { mt5Report } from '../../../tests/fixtures/reports/mt5-report.ts';
import { READ_BUDGET } from '#shared/statements/budget.ts';
import { parseNumber, parseTicket, parseTime } from '#shared/statements/cells.ts';
import { NotAStatementError, parseStatement, ReadBudgetError, type ParsedStatement } from '#shared/statements/report.ts';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../../tests/fixtures/reports/${name}`, import.meta.url)));

/** A deal as expected, the money fields not given being 0 (as the report prints 0.00). */
function deal(fields: Partial<IngestDeal> & Pick<IngestDeal, 'ticket' | 'position_id' | 'time' | 'type' | 'entry'>): IngestDeal {
  return { symbol: '', volume: 0, price: 0, commission: 0, fee: 0, swap: 0, profit: 0, ...fields };
}

/** Every record passes the ingest contract unchanged. */
function expectContract(statement: ParsedStatement) {
  for (const record of statement.deals) expect(IngestDeal.parse(record)).toEqual(record);
  for (const record of statement.positions) expect(IngestPosition.parse(record)).toEqual(record);
}

/**
 * The account summary every MT5 report ends with (Balance … Equity): a report without it is one cut short.
 * The synthetic reports below end with it, their balance what their rows add up to.
 */
function mt5Summary(balance: string): string {
  const pair = (label: string, value: string) => `<td colspan="3">${label}</td><td>${value}</td>`;
  return [
    `<tr>${pair('Balance:', balance)}<td></td><td></td>${pair('Free Margin:', balance)}</tr>`,
    `<tr>${pair('Credit Facility:', '0.00')}<td></td><td></td>${pair('Margin:', '0.00')}</tr>`,
    `<tr>${pair('Floating P/L:', '0.00')}<td></td><td></td>${pair('Margin Level:', '0.00%')}</tr>`,
    `<tr>${pair('Equity:', balance)}</tr>`,
  ].join('\n');
}

// Epoch seconds of the fixtures' printed server times, read as UTC (worked out with `date -u -d … +%s`).
describe('MT5 Trade History Report, HTML in UTF-16 LE with a byte-order mark (hedging account)', () => {
  const bytes = fixture('mt5-hedging-utf16.html');

  it('is the file MT5 writes: FF FE, then UTF-16 LE', () => {
    expect([bytes[0], bytes[1], bytes[2], bytes[3]]).toEqual([0xff, 0xfe, 0x3c, 0x00]);
  });

  it('reads the account from the header block', async () => {
    const statement = await parseStatement(bytes, 'ReportHistory-51234567.html');
    expect(statement.format).toBe('mt5-html');
    expect(statement.account).toEqual({
      login: '51234567',
      name: 'Jane Example',
      currency: 'USD',
      server: 'ExampleBroker-Live',
      company: 'Example Markets Ltd.',
    });
    expect(statement.warnings).toEqual([]);
  });

  it('reads every deal: balance, agent commission, thousands with spaces, a partial close, two open XAUUSD buys told apart', async () => {
    const statement = await parseStatement(bytes);
    expect(statement.deals).toEqual([
      deal({ ticket: 1001, position_id: 0, time: 1709283600, type: 2, entry: 'in', profit: 10000, comment: 'Deposit' }),
      // Opening deals belong to the position their order opened (MT5: position id = opening order).
      deal({ ticket: 1002, position_id: 2001, order: 2001, time: 1709547330, type: 0, entry: 'in', symbol: 'XAUUSD', volume: 0.48, price: 2083.45, commission: -3.36 }),
      deal({ ticket: 1003, position_id: 2002, order: 2002, time: 1709550130, type: 1, entry: 'in', symbol: 'EURUSD', volume: 1, price: 1.08512, commission: -3.5 }),
      deal({ ticket: 1004, position_id: 2003, order: 2003, time: 1709629200, type: 0, entry: 'in', symbol: 'XAUUSD', volume: 0.1, price: 2110.2, commission: -0.7 }),
      // Partial close of 0.24 of 2001's 0.48: 2003 (0.10 open) is too small to be the one closed.
      deal({ ticket: 1005, position_id: 2001, order: 2004, time: 1709648527, type: 1, entry: 'out', symbol: 'XAUUSD', volume: 0.24, price: 2279.69, commission: -1.68, fee: -0.25, swap: -1.2, profit: 4709.76 }),
      deal({ ticket: 1006, position_id: 2005, order: 2005, time: 1709713800, type: 0, entry: 'in', symbol: 'EURUSD', volume: 0.5, price: 1.089, commission: -1.75 }),
      // 0.10 fits both open XAUUSD buys; the Positions section closes 2003 at this very second.
      deal({ ticket: 1007, position_id: 2003, order: 2006, time: 1709719200, type: 1, entry: 'out', symbol: 'XAUUSD', volume: 0.1, price: 2125.2, commission: -0.7, swap: -0.3, profit: 150 }),
      // A buy that closes: the one open EURUSD sell, not the EURUSD buy 2005 beside it.
      deal({ ticket: 1008, position_id: 2002, order: 2007, time: 1709829912, type: 0, entry: 'out', symbol: 'EURUSD', volume: 1, price: 1.09762, commission: -3.5, swap: -4.8, profit: -1250, comment: '[sl 1.09800]' }),
      deal({ ticket: 1009, position_id: 2001, order: 2008, time: 1709899200, type: 1, entry: 'out', symbol: 'XAUUSD', volume: 0.24, price: 2270, commission: -1.68, fee: -0.25, swap: -2.4, profit: 4477.2 }),
      deal({ ticket: 1010, position_id: 0, time: 1709942399, type: 10, entry: 'in', profit: 12.5, comment: 'IB rebate' }),
    ]);
    expectContract(statement);
  });

  it('the deals add up to the report’s own totals row (commission −16.87, fee −0.50, swap −8.70, profit 18 099.46)', async () => {
    const { deals } = await parseStatement(bytes);
    const sum = (key: 'commission' | 'fee' | 'swap' | 'profit') => Math.round(deals.reduce((total, d) => total + d[key], 0) * 100) / 100;
    expect([sum('commission'), sum('fee'), sum('swap'), sum('profit')]).toEqual([-16.87, -0.5, -8.7, 18099.46]);
  });

  it('reads the Open Positions section', async () => {
    const { positions } = await parseStatement(bytes);
    expect(positions).toEqual([
      {
        identifier: 2005,
        ticket: 2005,
        symbol: 'EURUSD',
        type: 'buy',
        volume: 0.5,
        price_open: 1.089,
        price_current: 1.0915,
        sl: 1.08,
        tp: 1.1,
        profit: 125,
        swap: -0.6,
        time: 1709713800,
        comment: 'hedge leg',
      },
    ]);
  });

  it('reads the same report saved in UTF-16 without a byte-order mark, or in UTF-8 with one', async () => {
    const expected = await parseStatement(bytes);
    const text = new TextDecoder('utf-16le').decode(bytes.subarray(2));
    const bomless = new Uint8Array(Buffer.from(text, 'utf16le'));
    const utf8 = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
    expect(await parseStatement(bomless)).toEqual(expected);
    expect(await parseStatement(utf8)).toEqual(expected);
  });
});

describe('MT5 Trade History Report, HTML in UTF-8 from an older build without Fee (netting account)', () => {
  const bytes = fixture('mt5-netting-utf8.html');

  it('reads the account, its name in UTF-8', async () => {
    const statement = await parseStatement(bytes);
    expect(statement.format).toBe('mt5-html');
    expect(statement.account).toEqual({
      login: '7104455',
      name: 'Zoë Brandt',
      currency: 'EUR',
      server: 'OtherBroker-Demo',
      company: 'Beispiel Broker GmbH',
    });
    expect(statement.warnings).toEqual([]);
  });

  it('keeps one position per symbol through an addition, a partial close and a reversal (in/out)', async () => {
    const statement = await parseStatement(bytes);
    expect(statement.deals).toEqual([
      deal({ ticket: 5001, position_id: 0, time: 1698825600, type: 2, entry: 'in', profit: 5000, comment: 'Initial deposit' }),
      deal({ ticket: 5002, position_id: 7001, order: 7001, time: 1698919200, type: 0, entry: 'in', symbol: 'GER40', volume: 2, price: 15120.5, commission: -2 }),
      // Netting: a second buy adds to position 7001 rather than opening its own.
      deal({ ticket: 5003, position_id: 7001, order: 7002, time: 1698939000, type: 0, entry: 'in', symbol: 'GER40', volume: 1, price: 15160.5, commission: -1 }),
      deal({ ticket: 5004, position_id: 7001, order: 7003, time: 1699002900, type: 1, entry: 'out', symbol: 'GER40', volume: 1, price: 15200.5, commission: -1, profit: 66.67 }),
      // Sell 4 against a buy of 2: closes it and leaves a sell of 2, the same position identifier.
      deal({ ticket: 5005, position_id: 7001, order: 7004, time: 1699020000, type: 1, entry: 'inout', symbol: 'GER40', volume: 4, price: 15100, commission: -4, profit: -67.67 }),
      deal({ ticket: 5006, position_id: 7001, order: 7005, time: 1699268400, type: 0, entry: 'out', symbol: 'GER40', volume: 2, price: 14475, commission: -2, swap: -3.1, profit: 1250 }),
      deal({ ticket: 5007, position_id: 0, time: 1699268700, type: 3, entry: 'in', profit: 500, comment: 'Credit bonus' }),
      deal({ ticket: 5008, position_id: 0, time: 1699315200, type: 4, entry: 'in', profit: -25, comment: 'Platform fee' }),
      deal({ ticket: 5009, position_id: 7006, order: 7006, time: 1699347600, type: 1, entry: 'in', symbol: 'EURUSD', volume: 0.3, price: 1.0701, commission: -0.6 }),
    ]);
    expectContract(statement);
  });

  it('lists no open positions when the report has no Open Positions section', async () => {
    expect((await parseStatement(bytes)).positions).toEqual([]);
  });
});

describe('MT5 report whose period starts after positions were opened', () => {
  const cells = (values: string[]) => values.map((value) => `<td>${value}</td>`).join('');
  // Positions rows with a visible blank cell after Type (a copy re-saved by another program).
  const html = `<html><head><title>99: A - Trade History Report</title></head><body><table>
    <tr><th colspan="4">Account:</th><th colspan="10"><b>99 (USD, S-1, real, Hedge)</b></th></tr>
    <tr><th colspan="14"><b>Positions</b></th></tr>
    <tr>${cells(['Time', 'Position', 'Symbol', 'Type', 'Volume', 'Price', 'S / L', 'T / P', 'Time', 'Price', 'Commission', 'Swap', 'Profit'])}</tr>
    <tr>${cells(['2024.01.05 10:00:00', '3001', 'EURUSD', 'buy', '', '0.5', '1.10000', '', '', '2024.01.10 12:00:00', '1.10500', '0.00', '0.00', '250.00'])}</tr>
    <tr>${cells(['2024.01.06 10:00:00', '3002', 'EURUSD', 'buy', '', '0.5', '1.09000', '', '', '2024.01.11 12:00:00', '1.10000', '0.00', '0.00', '500.00'])}</tr>
    <tr><th colspan="14"><b>Deals</b></th></tr>
    <tr>${cells(['Time', 'Deal', 'Symbol', 'Type', 'Direction', 'Volume', 'Price', 'Order', 'Commission', 'Fee', 'Swap', 'Profit', 'Balance', 'Comment'])}</tr>
    <tr>${cells(['2024.01.10 12:00:00', '4001', 'EURUSD', 'sell', 'out', '0.5', '1.10500', '3005', '0.00', '0.00', '0.00', '250.00', '1 250.00', ''])}</tr>
    <tr>${cells(['2024.01.12 09:00:00', '4002', 'GBPUSD', 'sell', 'out', '0.1', '1.27000', '3006', '0.00', '0.00', '0.00', '-10.00', '1 240.00', ''])}</tr>
    ${mt5Summary('1 240.00')}
    </table></body></html>`;

  it('finds a closed position in the Positions section by its close time, else keeps the deal’s order with a warning', async () => {
    const statement = await parseStatement(new TextEncoder().encode(html));
    // 2024-01-10 12:00:00 = 1704888000; 2024-01-12 09:00:00 = 1705050000.
    expect(statement.deals.map((d) => [d.ticket, d.position_id, d.time])).toEqual([
      [4001, 3001, 1704888000],
      [4002, 3006, 1705050000],
    ]);
    expect(statement.warnings).toEqual([
      'Row 9: the position of deal 4002 cannot be told from the report; it is recorded under its order (3006).',
    ]);
  });
});

describe('MT5 Trade History Report, Excel (.xlsx)', () => {
  const workbook = async () => new Uint8Array(await writeXlsxFile(MT5_XLSX_SHEET).toBuffer());

  it('is told by its zip signature and read from the sheet, merged cells and all', async () => {
    const bytes = await workbook();
    expect([bytes[0], bytes[1]]).toEqual([0x50, 0x4b]);
    const statement = await parseStatement(bytes, 'ReportHistory-7654321.xlsx');
    expect(statement.format).toBe('mt5-xlsx');
    expect(statement.account).toEqual({
      login: '7654321',
      name: 'Max Sample',
      currency: 'USD',
      server: 'Sample-Server',
      company: 'Sample Broker Inc.',
    });
    expect(statement.warnings).toEqual([]);
    expect(statement.positions).toEqual([]);
  });

  it('reads text and numeric cells, a date cell, close-by deals and a partial close', async () => {
    const statement = await parseStatement(await workbook());
    expect(statement.deals).toEqual([
      // Profit written as the text "2 500.00".
      deal({ ticket: 901, position_id: 0, time: 1714633200, type: 2, entry: 'in', profit: 2500, comment: 'D-2500' }),
      deal({ ticket: 902, position_id: 801, order: 801, time: 1714637411, type: 0, entry: 'in', symbol: 'GBPUSD', volume: 0.3, price: 1.2501, commission: -0.9 }),
      deal({ ticket: 903, position_id: 802, order: 802, time: 1714639200, type: 1, entry: 'in', symbol: 'GBPUSD', volume: 0.3, price: 1.251, commission: -0.9 }),
      // Close by: the sell closes the buy 801, the buy closes the sell 802, both under order 803.
      deal({ ticket: 904, position_id: 801, order: 803, time: 1714641300, type: 1, entry: 'out_by', symbol: 'GBPUSD', volume: 0.3, price: 1.251, profit: 27, comment: '#801 by #802' }),
      deal({ ticket: 905, position_id: 802, order: 803, time: 1714641300, type: 0, entry: 'out_by', symbol: 'GBPUSD', volume: 0.3, price: 1.251, comment: '#801 by #802' }),
      // Its time is a date cell (2024-05-03 10:00:00).
      deal({ ticket: 906, position_id: 804, order: 804, time: 1714730400, type: 1, entry: 'in', symbol: 'USDJPY', volume: 1, price: 155.25, commission: -3 }),
      deal({ ticket: 907, position_id: 804, order: 805, time: 1714737600, type: 0, entry: 'out', symbol: 'USDJPY', volume: 0.4, price: 154.9, commission: -1.2, fee: -0.15, profit: 90.38 }),
    ]);
    expectContract(statement);
  });
});

describe('MT4 Statement.htm (Windows-1252, no charset declared)', () => {
  const bytes = fixture('mt4-statement-cp1252.htm');

  it('reads the account from the header row and the broker from the line above it', async () => {
    const statement = await parseStatement(bytes, 'Statement.htm');
    expect(statement.format).toBe('mt4-html');
    expect(statement.account).toEqual({
      login: '2100123',
      name: 'José Müller',
      currency: 'USD',
      server: null,
      company: 'Example FX Ltd.',
    });
    expect(statement.warnings).toEqual([]);
  });

  it('turns each closed trade into an in and an out deal, balance rows into balance deals, and skips a cancelled order', async () => {
    const statement = await parseStatement(bytes);
    expect(statement.deals).toEqual([
      deal({ ticket: 60002000, position_id: 0, time: 1685606400, type: 2, entry: 'in', profit: 10000, comment: 'Deposit' }),
      // Ticket 30001001: in at open time and price; out with commission, taxes, swap and profit.
      deal({ ticket: 60002002, position_id: 30001001, order: 30001001, time: 1685610600, type: 0, entry: 'in', symbol: 'eurusd', volume: 1, price: 1.0715 }),
      deal({ ticket: 60002003, position_id: 30001001, order: 30001001, time: 1685719200, type: 1, entry: 'out', symbol: 'eurusd', volume: 1, price: 1.075, commission: -7, swap: -0.45, profit: 350 }),
      // Partial close: 0.20 closed under 30001002 ("to #30001003"), the rest 0.30 under 30001003 ("from #30001002"):
      // one position, 30001002, with two in and two out deals.
      deal({ ticket: 60002004, position_id: 30001002, order: 30001002, time: 1685959200, type: 1, entry: 'in', symbol: 'gbpusd', volume: 0.2, price: 1.243, comment: 'to #30001003' }),
      deal({ ticket: 60002005, position_id: 30001002, order: 30001002, time: 1685966400, type: 0, entry: 'out', symbol: 'gbpusd', volume: 0.2, price: 1.241, commission: -1.4, profit: 40, comment: 'to #30001003' }),
      deal({ ticket: 60002006, position_id: 30001002, order: 30001003, time: 1685959200, type: 1, entry: 'in', symbol: 'gbpusd', volume: 0.3, price: 1.243, comment: 'from #30001002' }),
      deal({ ticket: 60002007, position_id: 30001002, order: 30001003, time: 1686128400, type: 0, entry: 'out', symbol: 'gbpusd', volume: 0.3, price: 1.2455, commission: -2.1, fee: -1, swap: -0.9, profit: -75, comment: 'from #30001002' }),
      // 30001004 was a buy limit, cancelled: no deal.
      deal({ ticket: 60002010, position_id: 30001005, order: 30001005, time: 1686214800, type: 1, entry: 'in', symbol: 'xauusd', volume: 2, price: 1955.4, comment: '[sl]' }),
      deal({ ticket: 60002011, position_id: 30001005, order: 30001005, time: 1686241800, type: 0, entry: 'out', symbol: 'xauusd', volume: 2, price: 1961.65, commission: -14, profit: -1250, comment: '[sl]' }),
      deal({ ticket: 60002012, position_id: 0, time: 1686304800, type: 2, entry: 'in', profit: -500, comment: 'Withdrawal' }),
      // The open trade's opening deal (its costs stay on the position until it closes).
      deal({ ticket: 60002014, position_id: 30001007, order: 30001007, time: 1686308400, type: 0, entry: 'in', symbol: 'usdjpy', volume: 0.5, price: 139.5, comment: 'grid #1' }),
    ]);
    expectContract(statement);
  });

  it('the closed deals add up to the statement’s Closed P/L (−961.85)', async () => {
    const { deals } = await parseStatement(bytes);
    const trading = deals.filter((d) => d.type === 0 || d.type === 1);
    const total = trading.reduce((sum, d) => sum + d.commission + d.fee + d.swap + d.profit, 0);
    expect(Math.round(total * 100) / 100).toBe(-961.85);
  });

  it('reads Open Trades as open positions, the market price as the current price, and skips Working Orders', async () => {
    const { positions } = await parseStatement(bytes);
    expect(positions).toEqual([
      {
        identifier: 30001007,
        ticket: 30001007,
        symbol: 'usdjpy',
        type: 'buy',
        volume: 0.5,
        price_open: 139.5,
        price_current: 139.75,
        sl: 138.5,
        tp: 0,
        profit: 89.45,
        swap: -1.2,
        commission: -3.5,
        time: 1686308400,
        comment: 'grid #1',
      },
    ]);
  });
});

describe('files that are not statements', () => {
  const expectRefused = async (bytes: Uint8Array, message = 'This file is not a MetaTrader 4 or 5 trade history report.') => {
    const error: unknown = await parseStatement(bytes, 'upload.bin').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotAStatementError);
    expect((error as NotAStatementError).message).toBe(message);
    expect((error as NotAStatementError).fileName).toBe('upload.bin');
  };

  it('a PNG image', async () => {
    const png = new Uint8Array([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
      0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00, 0x0a, 0x49, 0x44, 0x41,
      0x54, 0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00, 0x00, 0x00, 0x00, 0x49,
      0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
    ]);
    await expectRefused(png);
  });

  it('random bytes, and an empty file', async () => {
    let seed = 12345;
    const noise = Uint8Array.from({ length: 4096 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 0xff);
    await expectRefused(noise);
    await expectRefused(new Uint8Array(0));
  });

  it('an HTML page with tables that is not a report', async () => {
    const page = `<!DOCTYPE html><html><head><title>Prices</title></head><body><h1>Our prices</h1>
      <table><tr><th>Time</th><th>Symbol</th><th>Type</th><th>Price</th></tr>
      <tr><td>2024.03.15 14:22:07</td><td>EURUSD</td><td>buy</td><td>1.08512</td></tr></table></body></html>`;
    await expectRefused(new TextEncoder().encode(page));
  });

  it('a zip that is not a workbook, a workbook that is not a report, and an old .xls', async () => {
    await expectRefused(
      new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new TextEncoder().encode('not really a zip')]),
      'This file is a zip archive or a damaged spreadsheet, not a MetaTrader 5 trade history report.',
    );
    const sheet = new Uint8Array(await writeXlsxFile([['Name', 'Amount'], ['Rent', 1200]]).toBuffer());
    await expectRefused(sheet);
    await expectRefused(
      new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]),
      'This is an old-style Excel (.xls) file. Save the report from MetaTrader as HTML or as Excel (.xlsx) and upload that.',
    );
  });

  it('an MT5 Strategy Tester report, whose Deals table is a backtest', async () => {
    const tester = `<html><head><title>Strategy Tester Report</title></head><body><table>
      <tr><td colspan="13"><b>Strategy Tester Report</b></td></tr>
      <tr><td><b>Time</b></td><td><b>Deal</b></td><td><b>Symbol</b></td><td><b>Type</b></td><td><b>Direction</b></td><td><b>Volume</b></td>
      <td><b>Price</b></td><td><b>Order</b></td><td><b>Commission</b></td><td><b>Swap</b></td><td><b>Profit</b></td><td><b>Balance</b></td><td><b>Comment</b></td></tr>
      <tr><td>2024.01.02 00:00:00</td><td>1</td><td></td><td>balance</td><td></td><td></td><td></td><td></td><td>0.00</td><td>0.00</td><td>10 000.00</td><td>10 000.00</td><td></td></tr>
      </table></body></html>`;
    await expectRefused(new TextEncoder().encode(tester), "This is a Strategy Tester report (a backtest), not an account's trade history.");
  });
});

describe('cells as MetaTrader prints them', () => {
  it('numbers with space or no-break-space thousands, a Unicode minus, filled / requested volumes', () => {
    expect(parseNumber('4 709.76')).toBe(4709.76);
    expect(parseNumber('-1 250.00')).toBe(-1250);
    expect(parseNumber('50\u00a0000.00')).toBe(50000);
    expect(parseNumber('\u22121 250.00')).toBe(-1250);
    expect(parseNumber('0.10 / 0.20')).toBe(0.1);
    expect(parseNumber('1,234.56')).toBe(1234.56);
    expect(parseNumber('')).toBeNull();
    expect(parseNumber('market')).toBeNull();
  });

  it('times as epoch seconds of the printed wall time, minutes-only MT4 times, and no impossible dates', () => {
    expect(parseTime('2024.03.15 14:22:07')).toBe(1710512527);
    expect(parseTime('2024.03.15 14:22')).toBe(1710512520);
    expect(parseTime('2024.02.30 10:00:00')).toBeNull();
    expect(parseTime('Balance:')).toBeNull();
  });

  it('tickets are whole non-negative numbers', () => {
    expect(parseTicket('30001007')).toBe(30001007);
    expect(parseTicket('12.5')).toBeNull();
    expect(parseTicket('-3')).toBeNull();
  });
});

describe('a 10,000-deal MT5 report', () => {
  /**
   * 5,000 positions on two symbols, each open 150 s and one opening every 60 s, so two positions of the
   * same symbol and side are often open at once and the closing deal must be told apart. UTF-16 with BOM.
   */
  function bigReport(positions: number) {
    const t0 = Date.UTC(2024, 0, 2, 0, 0, 0) / 1000;
    const wall = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ').replace(/-/g, '.');
    const money = (value: number) => value.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
    type Event = { time: number; position: number; entry: 'in' | 'out' };
    const events: Event[] = [];
    const positionRows: string[] = [];
    for (let i = 0; i < positions; i++) {
      const open = t0 + i * 60;
      events.push({ time: open, position: i, entry: 'in' }, { time: open + 150, position: i, entry: 'out' });
    }
    events.sort((a, b) => a.time - b.time || a.position - b.position);
    const symbolOf = (i: number) => (i % 2 === 0 ? 'EURUSD' : 'XAUUSD');
    const sideOf = (i: number) => (Math.floor(i / 4) % 2 === 0 ? 'buy' : 'sell');
    const volumeOf = (i: number) => (0.01 * (1 + (i % 3))).toFixed(2);
    for (let i = 0; i < positions; i++) {
      positionRows.push(
        `<tr bgcolor="#FFFFFF" align="right"><td>${wall(t0 + i * 60)}</td><td>${100000 + i}</td><td>${symbolOf(i)}</td><td>${sideOf(i)}</td><td class="hidden" colspan="8"></td><td>${volumeOf(i)}</td><td>1 234.50</td><td></td><td></td><td>${wall(t0 + i * 60 + 150)}</td><td>1 235.50</td><td>0.00</td><td>0.00</td><td colspan="2">1.00</td></tr>`,
      );
    }
    const expected: number[] = [];
    const dealRows = events.map((event, index) => {
      const i = event.position;
      expected.push(100000 + i);
      const type = (sideOf(i) === 'buy') === (event.entry === 'in') ? 'buy' : 'sell';
      const order = event.entry === 'in' ? 100000 + i : 200000 + i;
      return `<tr bgcolor="#F7F7F7" align="right"><td>${wall(event.time)}</td><td>${index + 1}</td><td>${symbolOf(i)}</td><td>${type}</td><td>${event.entry}</td><td>${volumeOf(i)}</td><td>1 234.50</td><td>${order}</td><td class="hidden"></td><td>-0.10</td><td>0.00</td><td>0.00</td><td>${event.entry === 'out' ? '1.00' : '0.00'}</td><td>${money(10000 + index)}</td><td></td></tr>`;
    });
    const html = `<html><head><title>1: Big - Trade History Report</title></head><body><div align="center"><table>
<tr align="left"><th colspan="4">Account:</th><th colspan="10"><b>1&nbsp;(USD,&nbsp;Big-Server,&nbsp;real,&nbsp;Hedge)</b></th></tr>
<tr align="center"><th colspan="14"><b>Positions</b></th></tr>
<tr><td><b>Time</b></td><td><b>Position</b></td><td><b>Symbol</b></td><td><b>Type</b></td><td><b>Volume</b></td><td><b>Price</b></td><td><b>S / L</b></td><td><b>T / P</b></td><td><b>Time</b></td><td><b>Price</b></td><td><b>Commission</b></td><td><b>Swap</b></td><td colspan="2"><b>Profit</b></td></tr>
${positionRows.join('\n')}
<tr align="center"><th colspan="14"><b>Deals</b></th></tr>
<tr><td><b>Time</b></td><td><b>Deal</b></td><td><b>Symbol</b></td><td><b>Type</b></td><td><b>Direction</b></td><td><b>Volume</b></td><td><b>Price</b></td><td><b>Order</b></td><td class="hidden"><b>Cost</b></td><td><b>Commission</b></td><td><b>Fee</b></td><td><b>Swap</b></td><td><b>Profit</b></td><td><b>Balance</b></td><td><b>Comment</b></td></tr>
${dealRows.join('\n')}
${mt5Summary(money(10000.1 - positions * 2 * 0.1 + positions))}
</table></div></body></html>`;
    return { bytes: new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(html, 'utf16le')])), expected };
  }

  it('parses every deal and links each to its position', async () => {
    const { bytes, expected } = bigReport(5000);
    const started = performance.now();
    const statement = await parseStatement(bytes);
    const elapsed = performance.now() - started;
    console.log(`10,000-deal MT5 report (${(bytes.length / 1e6).toFixed(1)} MB, UTF-16): parsed in ${elapsed.toFixed(0)} ms`);
    expect(statement.deals).toHaveLength(10_000);
    expect(statement.deals.map((d) => d.position_id)).toEqual(expected);
    expect(statement.warnings).toEqual([]);
  });
});

describe('a report in another language: read by its structure', () => {
  // MT5 writes headings and labels in the terminal's language; Japanese prints Commission and Fee alike.
  const GERMAN: Record<string, string> = {
    'Trade History Report': 'Handelshistorie',
    'Name:': 'Name:',
    'Account:': 'Konto:',
    'Company:': 'Firma:',
    'Date:': 'Datum:',
    Positions: 'Positionen',
    Orders: 'Aufträge',
    Deals: 'Geschäfte',
    Time: 'Zeit',
    'Open Time': 'Eröffnungszeit',
    Position: 'Position',
    Deal: 'Geschäft',
    Order: 'Auftrag',
    Symbol: 'Symbol',
    Type: 'Typ',
    Direction: 'Richtung',
    Volume: 'Volumen',
    Price: 'Preis',
    Commission: 'Gebühr',
    Fee: 'Gebühr',
    Swap: 'Swap',
    Profit: 'Gewinn',
    Balance: 'Saldo',
    Comment: 'Kommentar',
    State: 'Status',
    'Balance:': 'Saldo:',
    'Free Margin:': 'Freie Marge:',
    'Credit Facility:': 'Kredit:',
    'Margin:': 'Marge:',
    'Floating P/L:': 'Schwebender G/V:',
    'Margin Level:': 'Margenniveau:',
    'Equity:': 'Eigenkapital:',
    Results: 'Ergebnisse',
    'Total Net Profit:': 'Nettogewinn gesamt:',
    'Gross Profit:': 'Bruttogewinn:',
    'Gross Loss:': 'Bruttoverlust:',
    'Total Trades:': 'Trades gesamt:',
  };
  const spec = {
    login: '8800002',
    opening: 2_000,
    trades: [
      {
        position: 501,
        symbol: 'EURUSD',
        side: 'buy' as const,
        volume: 0.1,
        open: { deal: 101, time: '2024.01.05 10:00:00', price: 1.1 },
        close: { deal: 102, order: 601, time: '2024.01.06 10:00:00', price: 1.11, profit: 100 },
      },
    ],
    cashFlows: [{ deal: 103, time: '2024.01.20 10:00:00', amount: 500, comment: 'Einzahlung' }],
  };

  it('reads the same deals, account, opening balance and figures as the English report', async () => {
    const english = await parseStatement(new TextEncoder().encode(mt5Report(spec)));
    const german = await parseStatement(new TextEncoder().encode(mt5Report({ ...spec, headings: GERMAN })));
    expect(german).toEqual(english);
    expect(german.account).toEqual({ login: '8800002', name: 'Test Trader', currency: 'USD', server: 'Example-Server', company: 'Example Markets Ltd.' });
    // By hand: 2 000 before the period, +100, +500.
    expect(german.opening).toEqual({ ticket: 101, balance: 2_000 });
    expect(german.rowsBalance).toBe(2_600);
    expect(german.stated).toMatchObject({ balance: 2_600, equity: 2_600, netProfit: 100, trades: 1 });
    expect(german.deals.map((d) => [d.ticket, d.position_id, d.profit])).toEqual([[101, 501, 0], [102, 501, 100], [103, 0, 500]]);
  });
});

describe('a statement that disagrees with itself', () => {
  it('is read from its rows, with a warning naming its stated balance, the rows\' balance and the difference', async () => {
    const text = new TextDecoder('windows-1252').decode(fixture('mt4-statement-cp1252.htm'));
    const wrong = text.replace(/8 538\.15/g, '8 000.00');
    expect(wrong).not.toBe(text);
    const statement = await parseStatement(new TextEncoder().encode(wrong));
    // By hand: 10 000 − 961.85 − 500 = 8 538.15 from the rows; the Summary says 8 000.00.
    expect(statement.rowsBalance).toBe(8_538.15);
    expect(statement.warnings).toEqual([
      "The report states a balance of 8 000.00 USD, but its rows add up to 8 538.15 USD (a difference of -538.15 USD): the rows are imported as they are, so the account's balance will be 8 538.15 USD.",
    ]);
  });

  it('an MT4 ticket listed twice with different figures refuses the file', async () => {
    const text = new TextDecoder('windows-1252').decode(fixture('mt4-statement-cp1252.htm'));
    const row = /<tr[^>]*>\s*<td[^>]*>30001001<\/td>.*?<\/tr>/is.exec(text)?.[0];
    expect(row).toBeDefined();
    const twice = text.replace(row!, `${row!}${row!.replace('350.00', '351.00')}`);
    const error: unknown = await parseStatement(new TextEncoder().encode(twice)).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/^This report lists ticket 30001001 twice with different figures \(rows \d+ and \d+\)/);
  });
});

describe('a .xlsx whose XML parts are UTF-16, as MetaTrader 5 writes them', () => {
  it('reads the same as its UTF-8 twin', async () => {
    const utf8 = new Uint8Array(await writeXlsxFile(MT5_XLSX_SHEET).toBuffer());
    const parts = unzipSync(utf8);
    const utf16: Record<string, Uint8Array> = {};
    for (const [name, data] of Object.entries(parts)) {
      utf16[name] = name.endsWith('.xml') || name.endsWith('.rels')
        ? new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(new TextDecoder().decode(data).replace('encoding="UTF-8"', 'encoding="UTF-16"'), 'utf16le')]))
        : data;
    }
    const rezipped = zipSync(utf16);
    const sheet = utf16['xl/worksheets/sheet1.xml']!;
    expect([sheet[0], sheet[1], sheet[2], sheet[3]]).toEqual([0xff, 0xfe, 0x3c, 0x00]);
    expect(await parseStatement(rezipped)).toEqual(await parseStatement(utf8));
  });

  it('a part that inflates past the reading budget is stopped while inflating', async () => {
    // Zeros a little past the per-part budget in one part.
    const sheet = new Uint8Array(READ_BUDGET.partBytes + 1024);
    const bomb = zipSync({ 'xl/workbook.xml': new TextEncoder().encode('<workbook/>'), 'xl/worksheets/sheet1.xml': sheet }, { level: 1 });
    const error: unknown = await parseStatement(bomb).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ReadBudgetError);
    expect((error as Error).message).toBe(`This file is too large or too complex to read (limit: ${READ_BUDGET.partBytes / 1024 / 1024} MB unpacked for one part of a spreadsheet).`);
  });

  it('a workbook cut short is refused as incomplete', async () => {
    const bytes = new Uint8Array(await writeXlsxFile(MT5_XLSX_SHEET).toBuffer());
    const error: unknown = await parseStatement(bytes.subarray(0, Math.floor(bytes.length * 0.45))).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotAStatementError);
  });
});

describe('an MT4 statement in another language: read by its structure', () => {
  // Headings and labels as a German terminal would print them; the data words (buy, balance, …) stay.
  const GERMAN: [string, string][] = [
    ['Account:', 'Konto:'], ['Name:', 'Name:'], ['Currency:', 'Währung:'], ['Leverage:', 'Hebel:'],
    ['Closed Transactions:', 'Geschlossene Transaktionen:'], ['Open Trades:', 'Offene Trades:'], ['Working Orders:', 'Wartende Orders:'],
    ['Ticket', 'Ticket'], ['Open Time', 'Eröffnungszeit'], ['Close Time', 'Schlusszeit'], ['Type', 'Typ'], ['Size', 'Größe'],
    ['Item', 'Symbol'], ['Price', 'Preis'], ['Commission', 'Kommission'], ['Taxes', 'Steuern'], ['Swap', 'Swap'], ['Profit', 'Gewinn'],
    ['Market Price', 'Marktpreis'], ['Closed P/L:', 'Geschlossener G/V:'], ['Floating P/L:', 'Schwebender G/V:'], ['Summary:', 'Übersicht:'],
    ['Deposit/Withdrawal:', 'Einzahlung/Auszahlung:'], ['Credit Facility:', 'Kredit:'], ['Closed Trade P/L:', 'G/V geschlossen:'],
    ['Margin:', 'Marge:'], ['Balance:', 'Kontostand:'], ['Equity:', 'Eigenkapital:'], ['Free Margin:', 'Freie Marge:'],
    ['Details:', 'Details:'], ['Gross Profit:', 'Bruttogewinn:'], ['Gross Loss:', 'Bruttoverlust:'], ['Total Net Profit:', 'Nettogewinn:'],
    ['Total Trades:', 'Trades gesamt:'], ['Short Positions (won %):', 'Short (gewonnen %):'], ['Long Positions (won %):', 'Long (gewonnen %):'],
  ];

  it('reads the same deals, positions, account and figures as the English statement', async () => {
    const english = new TextDecoder('windows-1252').decode(fixture('mt4-statement-cp1252.htm'));
    let german = english;
    for (const [word, translated] of GERMAN) german = german.replaceAll(`>${word}`, `>${translated}`);
    expect(german).not.toContain('>Closed Transactions:');
    const read = (text: string) => parseStatement(new TextEncoder().encode(text));
    expect(await read(german)).toEqual(await read(english));
  });
});

describe('an MT5 report with the balance operations MetaTrader books beside the trades', () => {
  // 1 000.00 before the period; a trade +100.00 (Jan 6); a charge −5.00, interest +1.23, a dividend +4.50 and its
  // tax −0.68, a commission deal −7.00 and a bonus +100.00; a credit of 500.00, kept apart from the balance.
  // Balance: 1 000.00 + 100.00 = 1 100.00; − 5.00 = 1 095.00; + 1.23 = 1 096.23; + 4.50 = 1 100.73; − 0.68 = 1 100.05;
  // − 7.00 = 1 093.05; + 100.00 = 1 193.05.
  const spec = {
    login: '8800003',
    opening: 1_000,
    trades: [
      {
        position: 501, symbol: 'EURUSD', side: 'buy' as const, volume: 0.1,
        open: { deal: 101, time: '2024.01.05 10:00:00', price: 1.1 },
        close: { deal: 102, order: 601, time: '2024.01.06 10:00:00', price: 1.11, profit: 100 },
      },
    ],
    cashFlows: [
      { deal: 103, time: '2024.01.07 00:00:00', amount: -5, type: 'charge', comment: 'Account fee' },
      { deal: 104, time: '2024.01.08 00:00:00', amount: 1.23, type: 'interest' },
      { deal: 105, time: '2024.01.09 00:00:00', amount: 4.5, type: 'dividend' },
      { deal: 106, time: '2024.01.09 00:00:01', amount: -0.68, type: 'tax' },
      { deal: 107, time: '2024.01.10 00:00:00', amount: -7, type: 'commission' },
      { deal: 108, time: '2024.01.11 00:00:00', amount: 100, type: 'bonus' },
      { deal: 109, time: '2024.01.12 00:00:00', amount: 500, type: 'credit' },
    ],
  };

  it('reads each with its type, adds them up to the stated balance without a warning, and the books reach the same balance', async () => {
    const statement = await parseStatement(new TextEncoder().encode(mt5Report(spec)));
    expect(statement.deals.filter((d) => d.position_id === 0).map((d) => [d.ticket, d.type, d.profit])).toEqual([
      [103, 4, -5], [104, 12, 1.23], [105, 15, 4.5], [106, 17, -0.68], [107, 7, -7], [108, 6, 100], [109, 3, 500],
    ]);
    expect(statement.stated.balance).toBe(1_193.05);
    expect(statement.rowsBalance).toBe(1_193.05);
    expect(statement.warnings).toEqual([]);
    // What the books make of the same deals: the opening, the round trip's net and every balance operation.
    const trips = roundTrips(1, statement.deals);
    const operations = balanceOperations(1, statement.deals).map((e) => entryOf(e).amount);
    const books = cents(statement.opening!.balance + trips.reduce((s, t) => s + t.profit + t.commission + t.swap + t.fee, 0) + operations.reduce((s, x) => s + x, 0));
    expect(books).toBe(1_193.05);
  });

  it("counts only the deals it imports: a skipped row's money is not in the rows' balance", async () => {
    // Deal 107's volume is past the contract's limit: the row is skipped, so the books never see its −7.00;
    // the rows add up to 1 193.05 + 7.00 = 1 200.05, and the report's 1 193.05 differs by −7.00.
    const html = mt5Report(spec).replace('<td>107</td><td></td><td>commission</td><td></td><td></td>', '<td>107</td><td></td><td>commission</td><td></td><td>9999999999</td>');
    const statement = await parseStatement(new TextEncoder().encode(html));
    expect(statement.deals.map((d) => d.ticket)).not.toContain(107);
    expect(statement.rowsBalance).toBe(1_200.05);
    expect(statement.warnings).toEqual([
      expect.stringMatching(/^Row \d+: deal 107 skipped \(/),
      "The report states a balance of 1 193.05 USD, but its rows add up to 1 200.05 USD (a difference of -7.00 USD): the rows are imported as they are, so the account's balance will be 1 200.05 USD.",
    ]);
  });
});

describe('an MT4 statement with a row that cannot be imported', () => {
  it("leaves that row's money out of the rows' balance, and says the balance the account will have", async () => {
    const text = new TextDecoder('windows-1252').decode(fixture('mt4-statement-cp1252.htm'));
    // Ticket 30001001 (+350.00, commission −7.00, swap −0.45: 342.55) with a size past the contract's limit is skipped.
    const broken = text.replace('<td class=mspt>1.00</td><td>eurusd</td>', '<td class=mspt>9999999999</td><td>eurusd</td>');
    expect(broken).not.toBe(text);
    const statement = await parseStatement(new TextEncoder().encode(broken));
    // By hand: the statement's 8 538.15 less the skipped 342.55 = 8 195.60.
    expect(statement.rowsBalance).toBe(8_195.6);
    expect(statement.warnings).toEqual([
      expect.stringMatching(/^Row \d+: skipped \(/),
      "The report states a balance of 8 538.15 USD, but its rows add up to 8 195.60 USD (a difference of 342.55 USD): the rows are imported as they are, so the account's balance will be 8 195.60 USD.",
    ]);
  });
});
