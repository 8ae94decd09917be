import { expect, test, type Page } from '@playwright/test';
import {
  collator,
  deMoney,
  downloadFrom,
  freezeResponses,
  hasLine,
  monthName,
  pick,
  readPdf,
  signInAt,
  spaces,
} from './navreb-helpers.ts';

// The page's requests must reach page.route, not be answered by the service worker.
test.use({ serviceWorkers: 'block' });

interface ApiAccount {
  account_id: string;
  account_name: string;
  broker_name: string;
  teiko_category: string;
  balance: number;
  equity: number;
  pnl: number;
  currency: string;
  account_currency: string;
  last_update: number;
}
interface ApiNavRow extends Omit<ApiAccount, 'pnl'> {
  date_id: string;
  date_day: number;
}
interface ApiNav {
  data: ApiNavRow[];
  available_dates: Record<string, number[]>;
}

/** docs/product.md#validation, Consolidated: consolidate rows, or global forex / global equity rows with a non-zero balance. */
const inConsolidated = (row: { teiko_category: string; balance: number }) =>
  row.teiko_category === 'consolidate' ||
  ((row.teiko_category === 'global forex' || row.teiko_category === 'global equity') && row.balance !== 0);

const byBrokerThenName = (a: { broker_name: string; account_name: string }, b: { broker_name: string; account_name: string }) =>
  collator.compare(a.broker_name, b.broker_name) || collator.compare(a.account_name, b.account_name);

function totalsByCurrency<T extends { currency: string; balance: number; equity: number }>(rows: T[], pnl?: (r: T) => number) {
  const totals = new Map<string, { balance: number; equity: number; pnl: number; count: number }>();
  for (const row of rows) {
    const t = totals.get(row.currency) ?? { balance: 0, equity: 0, pnl: 0, count: 0 };
    t.balance += row.balance;
    t.equity += row.equity;
    t.pnl += pnl ? pnl(row) : 0;
    t.count += 1;
    totals.set(row.currency, t);
  }
  return totals;
}

/** Account names in screen order, from the table on desktops or the cards on phones. */
async function shownNames(page: Page, isMobile: boolean): Promise<string[]> {
  const names = await page.locator(isMobile ? '.nav-cards .nav-card-name' : '.nav-table tbody .nav-account-name').allTextContents();
  return names.map(spaces);
}

function rowOf(page: Page, isMobile: boolean, name: string) {
  return isMobile
    ? page.locator('.nav-cards > li').filter({ has: page.locator('.nav-card-name', { hasText: new RegExp(`^${name}$`) }) })
    : page.locator('.nav-table tbody tr').filter({ has: page.locator('.nav-account-name', { hasText: new RegExp(`^${name}$`) }) });
}

async function expectSummary(page: Page, totals: ReturnType<typeof totalsByCurrency>, realtime: boolean) {
  const cards = page.getByRole('list', { name: 'Summary by currency' }).locator('> li');
  await expect(cards).toHaveCount(totals.size);
  for (const [currency, t] of totals) {
    const card = page.locator(`.currency-summary > li[data-currency="${currency}"]`);
    await expect(card.locator('[data-figure="balance"]')).toHaveText(deMoney(t.balance, currency), { useInnerText: true });
    await expect(card.locator('[data-figure="equity"]')).toHaveText(deMoney(t.equity, currency), { useInnerText: true });
    if (realtime) await expect(card.locator('[data-figure="pnl"]')).toHaveText(deMoney(t.pnl, currency), { useInnerText: true });
    else await expect(card.locator('[data-figure="pnl"]')).toHaveCount(0);
  }
}

test('real-time NAV: summary per currency, default order, sorting and freshness dots', async ({ page, isMobile }) => {
  const nowSeconds = Math.floor(Date.now() / 1000);
  let staleId = '';
  let futureId = '';
  // Every account fresh, except one updated 10 minutes ago and one stamped 10 minutes in the future: both red.
  const captured = await freezeResponses(page, '**/api/brokers/accounts/info*', (json) => {
    const data = (json as { data: ApiAccount[] }).data;
    const candidates = data.filter((a) => a.balance !== 0 && inConsolidated(a));
    staleId = candidates[0]?.account_id ?? '';
    futureId = candidates[1]?.account_id ?? '';
    for (const a of data) a.last_update = a.account_id === staleId ? nowSeconds - 600 : a.account_id === futureId ? nowSeconds + 600 : nowSeconds;
    return json;
  });
  await signInAt(page, '/nav', 'admin');
  await expect(page.getByRole('heading', { name: 'Net Asset Value - Consolidated Portfolio' })).toBeVisible();
  const accounts = ((await captured('/api/brokers/accounts/info')) as { data: ApiAccount[] }).data;

  // docs/product.md#validation: zero balances hidden, Consolidated membership; default order broker then account name.
  const expected = accounts.filter((a) => a.balance !== 0 && inConsolidated(a)).sort(byBrokerThenName);
  expect(expected.length).toBeGreaterThan(5);
  await expect.poll(() => shownNames(page, isMobile)).toEqual(expected.map((a) => a.account_name));

  await expectSummary(page, totalsByCurrency(expected, (a) => a.equity - a.balance), true);

  for (const a of expected) {
    const row = rowOf(page, isMobile, a.account_name);
    const text = spaces((await row.innerText()).replace(/\n/g, ' '));
    expect(text).toContain(deMoney(a.balance, a.currency));
    expect(text).toContain(deMoney(a.equity, a.currency));
    expect(text).toContain(deMoney(a.equity - a.balance, a.currency));
    const fresh = a.account_id !== staleId && a.account_id !== futureId;
    await expect(row.locator('.nav-dot')).toHaveAttribute('data-fresh', String(fresh));
  }

  // Sorting: ascending on the first click, descending on the second (docs/product.md#states).
  const byBalance = [...expected].sort((a, b) => a.balance - b.balance).map((a) => a.account_name);
  if (isMobile) {
    await pick(page, /^Sort by/, 'Balance');
    await expect.poll(() => shownNames(page, isMobile)).toEqual(byBalance);
    await page.getByRole('button', { name: /sort descending/ }).click();
  } else {
    await expect(page.getByRole('columnheader', { name: 'Live P/L' })).toBeVisible();
    await page.getByRole('button', { name: 'Balance', exact: true }).click();
    await expect.poll(() => shownNames(page, isMobile)).toEqual(byBalance);
    await page.getByRole('button', { name: 'Balance', exact: true }).click();
  }
  await expect.poll(() => shownNames(page, isMobile)).toEqual([...byBalance].reverse());

  // Sorting on text: account name ascending.
  const byName = [...expected].sort((a, b) => collator.compare(a.account_name, b.account_name)).map((a) => a.account_name);
  if (isMobile) await pick(page, /^Sort by/, 'Account Name');
  else await page.getByRole('button', { name: 'Account Name', exact: true }).click();
  await expect.poll(() => shownNames(page, isMobile)).toEqual(byName);

  // The page never scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});

test('historical NAV: months newest first, the first day of the month and its rows; PDF without Live P/L', async ({
  page,
  isMobile,
}) => {
  const key = await signInAt(page, '/nav', 'admin');
  await expect(page.getByRole('heading', { name: 'Net Asset Value - Consolidated Portfolio' })).toBeVisible();
  const latest = (await (
    await page.request.get('/api/brokers/accounts/historical_infos', { headers: { 'x-api-key': key } })
  ).json()) as ApiNav;
  const monthKeys = Object.keys(latest.available_dates).sort((a, b) => {
    const [ma, ya] = a.split('.').map(Number);
    const [mb, yb] = b.split('.').map(Number);
    return (yb ?? 0) * 12 + (mb ?? 0) - ((ya ?? 0) * 12 + (ma ?? 0));
  });
  expect(monthKeys.length).toBeGreaterThan(2);

  // The selector: Real-Time Data, then the group 'Historical NAV' with month names, newest first.
  await page.getByRole('button', { name: /^NAV data/ }).click();
  const group = page.getByRole('group', { name: 'Historical NAV' });
  await expect(group.getByRole('option')).toHaveText(monthKeys.map((k) => new RegExp(`${monthName(k)}$`)));
  await expect(page.getByRole('option', { name: 'Real-Time Data' })).toBeVisible();
  const month = monthKeys[1] ?? '';
  await page.getByRole('option', { name: monthName(month), exact: true }).click();

  const days = latest.available_dates[month] ?? [];
  const [m, y] = month.split('.');
  const label = (d: number) => `${String(d).padStart(2, '0')}/${(m ?? '').padStart(2, '0')}/${y}`;
  const firstDay = days[0] ?? 0;
  await expect(page.getByRole('button', { name: /^End of Day/ })).toHaveText(label(firstDay));

  const monthData = (await (
    await page.request.get(`/api/brokers/accounts/historical_infos?date_id=${month}`, { headers: { 'x-api-key': key } })
  ).json()) as ApiNav;
  const rowsOf = (day: number) =>
    monthData.data.filter((r) => r.date_id === month && r.date_day === day && inConsolidated(r)).sort(byBrokerThenName);
  const expected = rowsOf(firstDay);
  expect(expected.length).toBeGreaterThan(0);
  await expect.poll(() => shownNames(page, isMobile)).toEqual(expected.map((r) => r.account_name));
  await expectSummary(page, totalsByCurrency(expected), false);
  for (const r of expected) {
    const text = spaces((await rowOf(page, isMobile, r.account_name).innerText()).replace(/\n/g, ' '));
    expect(text).toContain(deMoney(r.balance, r.currency));
    expect(text).toContain(deMoney(r.equity, r.currency));
  }
  await expect(page.locator('.nav-dot')).toHaveCount(0);
  if (!isMobile) await expect(page.getByRole('columnheader', { name: 'Live P/L' })).toHaveCount(0);

  // Another day of the month.
  const lastDay = days.at(-1) ?? 0;
  await pick(page, /^End of Day/, label(lastDay));
  const lastRows = rowsOf(lastDay);
  await expect.poll(() => shownNames(page, isMobile)).toEqual(lastRows.map((r) => r.account_name));
  const someRow = lastRows[0];
  if (someRow) {
    await expect(rowOf(page, isMobile, someRow.account_name)).toContainText(
      new RegExp(deMoney(someRow.balance, someRow.currency).replace(/[.$]/g, '\\$&').replace(/ /g, '\\s')),
    );
  }

  // Changing month resets the day to that month's first day.
  const other = monthKeys[2] ?? '';
  await pick(page, /^NAV data/, monthName(other));
  const [om, oy] = other.split('.');
  const otherFirst = latest.available_dates[other]?.[0] ?? 0;
  await expect(page.getByRole('button', { name: /^End of Day/ })).toHaveText(
    `${String(otherFirst).padStart(2, '0')}/${(om ?? '').padStart(2, '0')}/${oy}`,
  );

  // The end-of-day report: named after the day, no Live P/L, every row of the screen.
  await pick(page, /^NAV data/, monthName(month));
  await expect(page.getByRole('button', { name: /^End of Day/ })).toHaveText(label(firstDay));
  const download = await downloadFrom(page, page.getByRole('button', { name: 'Download PDF' }));
  const iso = `${y}-${(m ?? '').padStart(2, '0')}-${String(firstDay).padStart(2, '0')}`;
  expect(download.suggestedFilename()).toBe(`nav_report_Consolidated_Portfolio_${iso}.pdf`);
  const pdf = await readPdf(download);
  expect(pdf.all).toContain('Net Asset Value - Consolidated Portfolio');
  expect(pdf.all).toContain(`End of Day ${label(firstDay)}`);
  expect(pdf.all).not.toContain('Live P/L');
  for (const [currency, t] of totalsByCurrency(expected)) {
    expect(hasLine(pdf, [currency, String(t.count), deMoney(t.balance, currency), deMoney(t.equity, currency)])).toBe(true);
  }
  for (const r of expected) {
    expect(hasLine(pdf, [r.broker_name, r.account_name, deMoney(r.balance, r.currency), deMoney(r.equity, r.currency)])).toBe(true);
  }
  pdf.pages.forEach((lines, i) => expect(lines.join(' ')).toContain(`Page ${i + 1} of ${pdf.pages.length}`));

  // Back to real time: the day selector goes away.
  await pick(page, /^NAV data/, 'Real-Time Data');
  await expect(page.getByRole('button', { name: /^End of Day/ })).toHaveCount(0);
});

test('real-time NAV report: summary, every account row with Live P/L, page footers', async ({ page }) => {
  const captured = await freezeResponses(page, '**/api/brokers/accounts/info*');
  await signInAt(page, '/nav', 'admin');
  const accounts = ((await captured('/api/brokers/accounts/info')) as { data: ApiAccount[] }).data;
  const expected = accounts.filter((a) => a.balance !== 0 && inConsolidated(a)).sort(byBrokerThenName);
  const button = page.getByRole('button', { name: 'Download PDF' });
  await expect(button).toBeEnabled();
  const download = await downloadFrom(page, button);
  const d = new Date();
  const today = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  expect(download.suggestedFilename()).toBe(`nav_report_Consolidated_Portfolio_${today}.pdf`);
  const pdf = await readPdf(download);
  expect(pdf.all).toContain('Net Asset Value - Consolidated Portfolio');
  expect(pdf.all).toContain('Real-Time Data');
  expect(hasLine(pdf, ['Broker', 'Account Name', 'Balance', 'Equity', 'Live P/L'])).toBe(true);
  for (const [currency, t] of totalsByCurrency(expected, (a) => a.equity - a.balance)) {
    expect(
      hasLine(pdf, [currency, String(t.count), deMoney(t.balance, currency), deMoney(t.equity, currency), deMoney(t.pnl, currency)]),
    ).toBe(true);
  }
  for (const a of expected) {
    expect(
      hasLine(pdf, [a.broker_name, a.account_name, deMoney(a.balance, a.currency), deMoney(a.equity, a.currency), deMoney(a.equity - a.balance, a.currency)]),
    ).toBe(true);
  }
  pdf.pages.forEach((lines, i) => expect(lines.join(' ')).toContain(`Page ${i + 1} of ${pdf.pages.length}`));
});

test('no accounts: the empty messages and a disabled download', async ({ page }) => {
  await page.route('**/api/brokers/accounts/info*', (route) => route.fulfill({ json: { data: [] } }));
  await signInAt(page, '/nav?portfolio=SMA', 'manager');
  await expect(page.getByRole('heading', { name: 'Net Asset Value - SMA' })).toBeVisible();
  await expect(page.getByText('No summary data available.')).toBeVisible();
  await expect(page.getByText('No accounts found for this selection.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download PDF' })).toBeDisabled();
});
