import { expect, test, type Page } from '@playwright/test';
import {
  collator,
  downloadFrom,
  freezeResponses,
  hasLine,
  monthName,
  percent,
  pick,
  readPdf,
  rebateMoney,
  signInAt,
  spaces,
} from './navreb-helpers.ts';

// The page's requests must reach page.route, not be answered by the service worker.
test.use({ serviceWorkers: 'block' });

interface ApiRebate {
  login: string;
  account: string;
  broker_name: string;
  currency: string;
  month: string;
  total_rebate: number;
  profit_sharing_amount: number;
  balance: number;
  portfolio_category: string;
}

interface Expected {
  broker: string;
  name: string;
  currency: string;
  balance: number;
  total: number;
  ps: number;
  pct: number;
}

const pctOf = (total: number, balance: number) => (balance > 0 ? (total / balance) * 100 : 0);
const kept = (r: ApiRebate) => r.total_rebate !== 0 || r.balance !== 0 || r.profit_sharing_amount !== 0;

/**
 * Rows of the rebates table, computed here from the API rows (docs/product.md#fields, §5): empty months dropped;
 * rebates and profit sharing summed; over all months the balance is the latest month's, within one
 * month that month's. Default order: broker name, then name and currency.
 */
function expectedRows(rows: ApiRebate[], month: string | null): Expected[] {
  const groups = new Map<string, Expected & { latest: string }>();
  for (const r of rows.filter(kept)) {
    if (month !== null && r.month !== month) continue;
    const key = `${r.broker_name}|${r.account}|${r.currency}`;
    const g = groups.get(key) ?? { broker: r.broker_name, name: r.account, currency: r.currency, balance: 0, total: 0, ps: 0, pct: 0, latest: '' };
    g.total += r.total_rebate;
    g.ps += r.profit_sharing_amount;
    if (month !== null) g.balance += r.balance;
    else if (r.month >= g.latest) {
      g.latest = r.month;
      g.balance = r.balance;
    }
    groups.set(key, g);
  }
  return [...groups.values()]
    .map((g) => ({ ...g, pct: pctOf(g.total, g.balance) }))
    .sort((a, b) => collator.compare(a.broker, b.broker) || collator.compare(a.name, b.name) || collator.compare(a.currency, b.currency));
}

function summaryOf(rows: Expected[]) {
  const byCurrency = new Map<string, { balance: number; total: number; ps: number }>();
  for (const r of rows) {
    const s = byCurrency.get(r.currency) ?? { balance: 0, total: 0, ps: 0 };
    s.balance += r.balance;
    s.total += r.total;
    s.ps += r.ps;
    byCurrency.set(r.currency, s);
  }
  return byCurrency;
}

/** The Account (or Broker) column in screen order. */
async function shownNames(page: Page, isMobile: boolean, byAccount: boolean): Promise<string[]> {
  if (isMobile) return (await page.locator('.rebates-cards > li .ui-card-title .rebates-name').allInnerTexts()).map(spaces);
  const cells = page.locator(`.rebates-table tbody tr td:nth-child(${byAccount ? 2 : 1})`);
  return (await (byAccount ? cells : cells.locator('.rebates-name')).allInnerTexts()).map(spaces);
}

async function rowTexts(page: Page, isMobile: boolean): Promise<string[]> {
  const texts = await page.locator(isMobile ? '.rebates-cards > li' : '.rebates-table tbody tr').allInnerTexts();
  return texts.map(spaces);
}

async function expectScreen(page: Page, isMobile: boolean, rows: Expected[], byAccount: boolean) {
  await expect.poll(() => shownNames(page, isMobile, byAccount)).toEqual(rows.map((r) => r.name));
  const texts = await rowTexts(page, isMobile);
  rows.forEach((r, i) => {
    const text = texts[i] ?? '';
    for (const part of [rebateMoney(r.balance, r.currency), rebateMoney(r.total, r.currency), percent(r.pct), rebateMoney(r.ps, r.currency)]) {
      expect(text).toContain(part);
    }
  });
  const summary = summaryOf(rows);
  await expect(page.locator('.currency-summary > li')).toHaveCount(summary.size);
  for (const [currency, s] of summary) {
    const card = page.locator(`.currency-summary > li[data-currency="${currency}"]`);
    await expect(card.locator('[data-figure="balance"]')).toHaveText(rebateMoney(s.balance, currency));
    await expect(card.locator('[data-figure="rebates"]')).toHaveText(rebateMoney(s.total, currency));
    await expect(card.locator('[data-figure="percent"]')).toHaveText(percent(pctOf(s.total, s.balance)));
    await expect(card.locator('[data-figure="profit-sharing"]')).toHaveText(rebateMoney(s.ps, currency));
  }
}

async function sortBy(page: Page, isMobile: boolean, column: string) {
  if (isMobile) await pick(page, /^Sort by/, column);
  else await page.getByRole('button', { name: column, exact: true }).click();
}

async function flipSort(page: Page, isMobile: boolean, column: string) {
  if (isMobile) await page.getByRole('button', { name: /sort descending/ }).click();
  else await page.getByRole('button', { name: column, exact: true }).click();
}

test('rebates for All: grouping, month filter, sorting and the analysis chart', async ({ page, isMobile }) => {
  const captured = await freezeResponses(page, '**/api/stats/rebates*');
  await signInAt(page, '/rebates', 'admin');
  await expect(page.getByRole('heading', { name: 'Rebates - Consolidated Portfolio' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Account' })).toHaveAttribute('aria-checked', 'true');
  // The analysis is only offered for All.
  await expect(page.getByRole('button', { name: 'Show Analysis' })).toHaveCount(0);

  await page.getByRole('button', { name: 'All Portfolios' }).click();
  await expect(page.getByRole('heading', { name: 'Rebates - All' })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('portfolio')).toBe('All');
  const accountRows = ((await captured('group_by=account&portfolio=All')) as { data: ApiRebate[] }).data;

  const all = expectedRows(accountRows, null);
  expect(all.length).toBeGreaterThan(20);
  await expectScreen(page, isMobile, all, true);

  // Sorting: % Rebate ascending, then descending.
  const byPct = [...all].sort((a, b) => a.pct - b.pct);
  await sortBy(page, isMobile, '% Rebate');
  await expect.poll(() => shownNames(page, isMobile, true)).toEqual(byPct.map((r) => r.name));
  await flipSort(page, isMobile, '% Rebate');
  await expect.poll(() => shownNames(page, isMobile, true)).toEqual([...byPct].reverse().map((r) => r.name));

  // One month: its rows and its own balances.
  const months = [...new Set(accountRows.filter(kept).map((r) => r.month))].sort().reverse();
  const month = months[1] ?? '';
  await pick(page, /^Month/, monthName(month));
  const inMonth = expectedRows(accountRows, month);
  await sortBy(page, isMobile, 'Balance');
  const byBalance = [...inMonth].sort((a, b) => a.balance - b.balance);
  await expect.poll(() => shownNames(page, isMobile, true)).toEqual(byBalance.map((r) => r.name));
  await expectScreen(page, isMobile, byBalance, true);

  // Broker grouping: broker rows of the same month, and the sort is back to broker name.
  await page.getByRole('radio', { name: 'Broker' }).click();
  const brokerRows = ((await captured('group_by=broker&portfolio=All')) as { data: ApiRebate[] }).data;
  const brokers = expectedRows(brokerRows, month);
  await expectScreen(page, isMobile, brokers, false);
  if (!isMobile) await expect(page.getByRole('columnheader', { name: 'Account' })).toHaveCount(0);

  // The analysis: bars per portfolio and currency by month, a cumulative line per currency on the right axis.
  await page.getByRole('button', { name: 'Show Analysis' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rebates Analysis' });
  await expect(dialog.getByText('Monthly Rebates Analysis', { exact: true })).toBeVisible();
  const combos = new Map<string, number>();
  for (const r of accountRows.filter(kept)) {
    const key = `${r.portfolio_category} · ${r.currency}|${r.month}`;
    combos.set(key, (combos.get(key) ?? 0) + r.total_rebate);
  }
  const barCount = [...combos.values()].filter((v) => v !== 0).length;
  await expect(dialog.locator('rect.rebates-bar')).toHaveCount(barCount);
  const currencies = new Set(accountRows.filter(kept).map((r) => r.currency));
  await expect(dialog.locator('path.rebates-line')).toHaveCount(currencies.size);
  await expect(dialog.locator('.rebates-axis-right text').first()).toBeVisible();
  // Seven bar colours, cycling: series in portfolio order then currency.
  const order = ['Consolidated Portfolio', 'Global FX', 'Global Equity', 'SMA', 'AMC'];
  const series = [...new Set([...combos.keys()].map((k) => k.split('|')[0] ?? ''))].sort((a, b) => {
    const [pa, ca] = a.split(' · ');
    const [pb, cb] = b.split(' · ');
    return order.indexOf(pa ?? '') - order.indexOf(pb ?? '') || collator.compare(ca ?? '', cb ?? '');
  });
  expect(series.length).toBeGreaterThan(7);
  const fillOf = (key: string) => dialog.locator(`rect.rebates-bar[data-series="${key}"]`).first().getAttribute('fill');
  const fills = await Promise.all(series.map(fillOf));
  expect(new Set(fills.slice(0, 7)).size).toBe(7);
  fills.slice(7).forEach((fill, i) => expect(fill).toBe(fills[i]));
  const lineColours = await dialog.locator('path.rebates-line').evaluateAll((paths) => paths.map((p) => p.getAttribute('stroke')));
  expect(new Set(lineColours).size).toBe(Math.min(4, currencies.size));
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});

test('rebates reports: spec file names, summary, every row and page footers', async ({ page, isMobile }) => {
  const captured = await freezeResponses(page, '**/api/stats/rebates*');
  await signInAt(page, '/rebates?portfolio=All', 'admin');
  await expect(page.getByRole('heading', { name: 'Rebates - All' })).toBeVisible();
  const accountRows = ((await captured('group_by=account&portfolio=All')) as { data: ApiRebate[] }).data;
  const all = expectedRows(accountRows, null);
  await expect.poll(() => shownNames(page, isMobile, true)).toEqual(all.map((r) => r.name));

  const pdf = await readPdf(await downloadFrom(page, page.getByRole('button', { name: 'Download PDF' })));
  expect(pdf.file.endsWith('/rebates_report_All_account_All_Months.pdf')).toBe(true);
  expect(pdf.all).toContain('Rebates - All');
  expect(pdf.all).toContain('All Months');
  for (const [currency, s] of summaryOf(all)) {
    expect(hasLine(pdf, [currency, rebateMoney(s.balance, currency), rebateMoney(s.total, currency), percent(pctOf(s.total, s.balance)), rebateMoney(s.ps, currency)])).toBe(true);
  }
  for (const r of all) {
    expect(
      hasLine(pdf, [r.broker, r.name, rebateMoney(r.balance, r.currency), rebateMoney(r.total, r.currency), percent(r.pct), rebateMoney(r.ps, r.currency), r.currency]),
    ).toBe(true);
  }
  // Long enough for two pages: the footer is on every one.
  expect(pdf.pages.length).toBeGreaterThanOrEqual(2);
  pdf.pages.forEach((lines, i) => expect(lines.join(' ')).toContain(`Page ${i + 1} of ${pdf.pages.length}`));

  // Broker grouping of one month.
  const months = [...new Set(accountRows.filter(kept).map((r) => r.month))].sort().reverse();
  const month = months[0] ?? '';
  await page.getByRole('radio', { name: 'Broker' }).click();
  await pick(page, /^Month/, monthName(month));
  const brokerRows = ((await captured('group_by=broker&portfolio=All')) as { data: ApiRebate[] }).data;
  const brokers = expectedRows(brokerRows, month);
  await expect.poll(() => shownNames(page, isMobile, false)).toEqual(brokers.map((r) => r.name));
  const byBroker = await readPdf(await downloadFrom(page, page.getByRole('button', { name: 'Download PDF' })));
  expect(byBroker.file.endsWith(`/rebates_report_All_broker_${month}.pdf`)).toBe(true);
  expect(byBroker.all).toContain(monthName(month));
  for (const r of brokers) {
    expect(hasLine(byBroker, [r.name, rebateMoney(r.balance, r.currency), rebateMoney(r.total, r.currency), percent(r.pct)])).toBe(true);
  }
  byBroker.pages.forEach((lines, i) => expect(lines.join(' ')).toContain(`Page ${i + 1} of ${byBroker.pages.length}`));
});

test('the investor, without read_rebate, gets no rebate data: Access Denied and 403 from the server', async ({ page }) => {
  const key = await signInAt(page, '/rebates', 'investor');
  await expect(page.getByText('Access Denied - You do not have the required permissions to view this page.')).toBeVisible();
  for (const query of ['group_by=account&portfolio=Global%20FX', 'group_by=broker&portfolio=All']) {
    const response = await page.request.get(`/api/stats/rebates?${query}`, { headers: { 'x-api-key': key } });
    expect(response.status()).toBe(403);
    expect(JSON.stringify(await response.json())).not.toContain('total_rebate');
  }
});
