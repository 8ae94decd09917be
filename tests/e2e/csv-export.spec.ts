import fs from 'node:fs';
import { expect, test, type Download, type Page } from '@playwright/test';
import { signIn } from './fixtures.ts';
import { deMoney, freezeResponses, signInAt, spaces } from './navreb-helpers.ts';

// The page's requests must reach page.route, not be answered by the service worker.
test.use({ serviceWorkers: 'block' });

/** RFC 4180 records, read independently of the library that wrote them: quoted fields, doubled quotes, CRLF. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else field += c;
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}

interface CsvFile {
  name: string;
  bytes: Buffer;
  header: string[];
  rows: Record<string, string>[];
}

async function readCsv(download: Download): Promise<CsvFile> {
  const bytes = fs.readFileSync(await download.path());
  const text = bytes.toString('utf8');
  const [header = [], ...records] = parseCsv(text.replace(/^\uFEFF/, ''));
  return {
    name: download.suggestedFilename(),
    bytes,
    header,
    rows: records.map((r) => Object.fromEntries(header.map((title, i) => [title, r[i] ?? '']))),
  };
}

/** Clicks the CSV button, checks the CSV code was not loaded before it, and returns the file. */
async function exportCsv(page: Page, name: string): Promise<CsvFile> {
  const csvChunks = () =>
    page.evaluate(() => performance.getEntriesByType('resource').filter((e) => /\/assets\/download-csv-[\w-]+\.js$/.test(e.name)).length);
  const button = page.getByRole('button', { name }).first();
  await expect(button).toBeEnabled();
  // The writer and papaparse are in no screen's chunks: they load on the first click.
  expect(await csvChunks()).toBe(0);
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(await csvChunks()).toBe(1);
  const file = await readCsv(download);
  // UTF-8 with a byte-order mark; CRLF after every record, the last one too, and no empty record.
  const text = file.bytes.toString('utf8');
  expect([...file.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(text.endsWith('\r\n')).toBe(true);
  expect(text).not.toContain('\r\n\r\n');
  return file;
}

const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

const isoSeconds = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

interface ApiAccount {
  account_name: string;
  broker_name: string;
  teiko_category: string;
  balance: number;
  equity: number;
  pnl: number;
  currency: string;
  last_update: number;
}

test('NAV: the CSV beside the PDF has the table’s columns, its rows in order and the unrounded figures', async ({ page, isMobile }) => {
  const captured = await freezeResponses(page, '**/api/brokers/accounts/info*');
  await signInAt(page, '/nav', 'admin');
  const accounts = ((await captured('/api/brokers/accounts/info')) as { data: ApiAccount[] }).data;
  await expect(page.getByRole('heading', { name: 'Net Asset Value - Consolidated Portfolio' })).toBeVisible();

  // The button sits beside 'Download PDF'.
  const pdf = await page.getByRole('button', { name: 'Download PDF' }).boundingBox();
  const csvButton = await page.getByRole('button', { name: 'Export NAV accounts as CSV' }).boundingBox();
  expect(pdf && csvButton && Math.abs(pdf.y - csvButton.y) < 4 && csvButton.x > pdf.x).toBe(true);

  const file = await exportCsv(page, 'Export NAV accounts as CSV');
  expect(file.name).toBe(`nav_report_Consolidated_Portfolio_${today()}.csv`);
  expect(file.header).toEqual(['Broker', 'Account Name', 'Balance', 'Equity', 'Live P/L', 'Currency', 'Last update']);

  // The rows in the screen's order.
  const names = (await page.locator(isMobile ? '.nav-cards .nav-card-name' : '.nav-table tbody .nav-account-name').allTextContents()).map(spaces);
  expect(file.rows.map((r) => r['Account Name'])).toEqual(names);

  // The first row against the screen: the same text, the figures the screen rounds.
  const first = file.rows[0]!;
  const row = isMobile ? page.locator('.nav-cards > li').first() : page.locator('.nav-table tbody tr').first();
  const columnIndex = { Balance: 2, Equity: 3, 'Live P/L': 4 } as const;
  // A card labels its fields as the table's headers; the table by position.
  const cell = (title: keyof typeof columnIndex) =>
    isMobile
      ? row.locator('.ui-card-row').filter({ has: page.locator('dt', { hasText: new RegExp(`^${title}$`) }) }).locator('dd')
      : row.locator('td').nth(columnIndex[title]);
  expect(spaces(await row.locator('.nav-broker > span').last().innerText())).toBe(first.Broker);
  for (const title of ['Balance', 'Equity', 'Live P/L'] as const) {
    expect(spaces(await cell(title).innerText())).toBe(deMoney(Number(first[title]), first.Currency ?? ''));
  }

  // Numbers exactly as the API gave them: '.' decimals, no grouping, no symbol; the time in UTC.
  const api = accounts.find((a) => a.account_name === first['Account Name'] && a.broker_name === first.Broker)!;
  expect(first.Balance).toBe(String(api.balance));
  expect(first.Equity).toBe(String(api.equity));
  expect(first['Live P/L']).toBe(String(api.pnl));
  expect(first.Currency).toBe(api.currency);
  expect(first['Last update']).toBe(isoSeconds(api.last_update));
});

test('Summary: the FX trades CSV in the panel’s header matches the positions on screen', async ({ page, isMobile }) => {
  await page.goto('/?portfolio=Global%20FX');
  await signIn(page, 'admin');
  const panel = page.locator('[data-panel="summary-fx"]');
  const shownRow = panel.locator('[data-position]').first();
  await expect(shownRow).toBeVisible();

  // In the panel's heading; a phone shows the icon alone, within the screen.
  const button = panel.getByRole('button', { name: 'Export FX trades as CSV' });
  const box = await button.boundingBox();
  expect(box && box.x + box.width <= (isMobile ? 390 : 1440) && box.height <= 44).toBe(true);
  await expect(button).toHaveText('CSV');
  if (isMobile) expect(box?.width).toBeLessThanOrEqual(44);

  // What the screen shows for a position whose identity does not move: account, symbol, side, entry.
  const [account, symbol, side] = ((await shownRow.getAttribute('data-position')) ?? '').split('|');
  const entry = await shownRow.getAttribute('data-entry');
  const quantity = isMobile ? null : spaces(await shownRow.locator('td').nth(2).innerText());

  const file = await exportCsv(page, 'Export FX trades as CSV');
  expect(file.name).toBe(`fx_trades_Global_FX_${today()}.csv`);
  expect(file.header).toEqual(['Date', 'Ins', 'Dir', 'Account', 'Q', 'P/L', 'Currency', 'EP', 'BE', 'SL', 'TP', 'Median MAE', 'Median MFE']);
  const row = file.rows.find((r) => r.Account === account && r.Ins === symbol && r.Dir === side);
  expect(row).toBeDefined();
  // The entry price as the feed gave it (the screen rounds it to 5 decimals), a plain number.
  expect(row!.EP).toBe(String(Number(entry)));
  expect(row!.Q).toMatch(/^-?\d+(\.\d+)?$/);
  // The quantity the table shows is the CSV's, at most 4 decimals, French separators.
  if (quantity !== null) expect(quantity).toBe(spaces(new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 4 }).format(Number(row!.Q))));
  expect(row!.Date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  expect(Number.isFinite(Number(row!['P/L']))).toBe(true);
  // Newest first, as on screen.
  const dates = file.rows.map((r) => r.Date ?? '');
  expect(dates).toEqual([...dates].sort().reverse());
});

/** Every table of the product, its button's name and the columns its file must have. */
interface TableCase {
  path: string;
  button: string | RegExp;
  file: RegExp;
  header: string[];
  /** The grid: one price column per account between header[0..1] and the last two. */
  ownerColumns?: boolean;
  /** Shown instead of rows when the market has none: the button is then disabled. */
  empty?: string;
}

const TABLES: TableCase[] = [
  { path: '/', button: 'Export FX trades as CSV', file: /^fx_trades_Consolidated_Portfolio_\d{4}-\d{2}-\d{2}\.csv$/, header: ['Date', 'Ins', 'Dir', 'Account', 'Q', 'P/L', 'Currency', 'EP', 'BE', 'SL', 'TP', 'Median MAE', 'Median MFE'] },
  { path: '/', button: 'Export Equity trades as CSV', file: /^equity_trades_Consolidated_Portfolio_/, header: ['Date', 'Ins', 'Dir', 'Account', 'Q', 'P/L', 'Currency', 'EP', 'BE', 'SL', 'TP', 'Median MAE', 'Median MFE'] },
  // The grid: a price column per account between the instrument and the best and worst fills.
  { path: '/', button: 'Export Broker execution as CSV', file: /^broker_execution_Accounts_Consolidated_Portfolio_/, header: ['Instrument', 'Dir', 'Best', 'Worst'], ownerColumns: true },
  { path: '/', button: 'Export Execution duration ranking as CSV', file: /^execution_duration_Accounts_/, header: ['Rank', 'Account', 'Execution duration (ms)'] },
  { path: '/', button: 'Export Best price per instrument as CSV', file: /^best_prices_Accounts_/, header: ['Instrument', 'Dir', 'Price', 'Account'] },
  { path: '/accounts', button: 'Export Live trades as CSV', file: /^live_trades_/, header: ['Date', 'Ins', 'Dir', 'Q', 'Open', 'Current', 'P/L', 'Currency', 'SL', 'TP'], empty: 'No live trades.' },
  {
    path: '/accounts',
    button: 'Export Historical trades as CSV',
    file: /^historical_trades_/,
    header: ['Date', 'Symbol', 'Type', 'Quantity', 'Open price', 'Close price', 'Profit', 'Swap', 'Commission', 'Fee', 'Rebate', 'Currency'],
  },
  { path: '/brokers', button: /^Export .+ accounts as CSV$/, file: /^broker_accounts_/, header: ['Account', 'Login', 'Balance', 'P/L', 'Comissions', 'Swap', 'Rebate', 'Currency'] },
  { path: '/brokers', button: 'Export Rebates by account as CSV', file: /^rebates_by_account_.+_All_Months_/, header: ['Account', 'Currency', 'Rebate'], empty: 'No rebate data for the selected period.' },
  { path: '/brokers', button: 'Export Live trades as CSV', file: /^live_trades_/, header: ['Date', 'Ins', 'Dir', 'Quantity', 'Price', 'P/L', 'Currency', 'Acc', 'Ser'], empty: 'No live trades.' },
  {
    path: '/rebates',
    button: 'Export Rebates as CSV',
    file: /^rebates_report_Consolidated_Portfolio_account_All_Months\.csv$/,
    header: ['Broker', 'Account', 'Balance', 'Total Rebate', '% Rebate', 'Profit Sharing', 'Currency'],
  },
];

test('every table has its CSV button, and each writes the table’s columns', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/');
  await signIn(page, 'admin');
  await expect(page.getByRole('heading', { name: 'Summary', level: 1 })).toBeVisible();
  let path = '';
  for (const table of TABLES) {
    if (table.path !== path) {
      path = table.path;
      await page.goto(path);
      // Panels far down a phone's screen are drawn as they come near: scroll through the page.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    }
    const button = page.getByRole('button', { name: table.button }).first();
    await button.scrollIntoViewIfNeeded();
    // A table with no rows (the market decides) has nothing to export: its button waits disabled.
    if (table.empty !== undefined && (await page.getByText(table.empty).first().isVisible())) {
      await expect(button).toBeDisabled();
      continue;
    }
    await expect(button).toBeEnabled({ timeout: 15_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    const file = await readCsv(download);
    expect(file.name, String(table.button)).toMatch(table.file);
    if (table.ownerColumns) {
      expect([...file.header.slice(0, 2), ...file.header.slice(-2)]).toEqual(table.header);
      expect(file.header.slice(2, -2).every((owner) => /Master|Follower/.test(owner)) && file.header.length > 4).toBe(true);
    } else expect(file.header, String(table.button)).toEqual(table.header);
    expect(file.rows.length, String(table.button)).toBeGreaterThan(0);
  }
});
