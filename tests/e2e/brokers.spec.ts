import { expect, test, type Locator, type Page } from '@playwright/test';
import { signIn } from './fixtures.ts';
import { alphabetical, apiGet, captureResponses, monthName, pageOverflow } from './accounts-helpers.ts';

interface BrokerRow {
  broker_name: string;
  teiko_categories: string[];
}
interface AccountRow {
  account_id: string;
  account_name: string;
  broker_name: string;
  currency: string;
  balance: number;
  pnl: number;
  total_rebate: number | null;
}
interface RebateRow {
  account: string;
  broker_name: string;
  currency: string;
  month: string;
  total_rebate: number;
  balance: number;
  profit_sharing_amount: number;
}

/** Consolidated Portfolio's brokers (docs/product.md#validation membership), alphabetical. */
async function expectedBrokers(page: Page, categories: string[]): Promise<string[]> {
  const { body } = await apiGet<{ data: BrokerRow[] }>(page, '/api/brokers/accounts/info?only_broker_name=true');
  return body.data
    .filter((b) => b.teiko_categories.some((c) => categories.includes(c)))
    .map((b) => b.broker_name)
    .sort(alphabetical);
}

async function chooseBroker(page: Page, isMobile: boolean, name: string): Promise<void> {
  if (isMobile) {
    await page.getByRole('button', { name: /Select a Broker/ }).click();
    await page.getByRole('option', { name, exact: true }).click();
  } else {
    await page.getByRole('navigation', { name: 'Select a Broker' }).getByRole('button', { name, exact: true }).click();
  }
}

function summaryPanel(page: Page): Locator {
  return page.locator('section').filter({ has: page.getByRole('heading', { name: 'Broker Summary', exact: true }) }).first();
}

const close = (a: number, b: number) => Math.abs(a - b) < 0.005;

test('admin: broker figures equal the sums of its accounts and rebate rows, and switching broker resets live trades', async ({
  page,
  isMobile,
}) => {
  const infos = captureResponses<{ data: AccountRow[] }>(page, '/api/brokers/accounts/info');
  const rebates = captureResponses<{ data: RebateRow[] }>(page, '/api/stats/rebates');
  await page.goto('/brokers');
  await signIn(page, 'admin');
  await expect(page.getByRole('heading', { name: 'Brokers', level: 1 })).toBeVisible();

  const brokers = await expectedBrokers(page, ['consolidate', 'global forex', 'global equity']);
  const [first, second] = brokers;
  if (first === undefined || second === undefined) throw new Error('the demo market has at least two brokers');
  await expect(page.getByRole('heading', { name: first, level: 2 })).toBeVisible();

  // Information: per currency, the sums of the accounts the page received (balance, P/L, rebate).
  const summary = summaryPanel(page);
  await expect
    .poll(async () => {
      const latest = infos.findLast((r) => !r.url.searchParams.has('only_broker_name'));
      const mine = latest?.body.data.filter((a) => a.broker_name === first) ?? [];
      if (mine.length === 0) return 'no accounts yet';
      const currencies = [...new Set(mine.map((a) => a.currency))];
      for (const [label, field] of [
        ['Total Balance', 'balance'],
        ['Total PnL', 'pnl'],
        ['Total Rebate', 'total_rebate'],
      ] as const) {
        for (const currency of currencies) {
          const expected = mine.filter((a) => a.currency === currency).reduce((s, a) => s + (a[field] ?? 0), 0);
          const shown = await summary
            .locator(`[data-figure="${label}"] dd[data-currency="${currency}"]`)
            .getAttribute('data-value', { timeout: 1000 })
            .catch(() => null);
          if (shown === null || !close(Number(shown), expected)) return `${label} ${currency}: ${shown} vs ${expected}`;
        }
      }
      return 'match';
    })
    .toBe('match');

  // Accounts of that broker, with the Rebate column for read_rebate.
  const latest = infos.findLast((r) => !r.url.searchParams.has('only_broker_name'))!;
  const names = latest.body.data.filter((a) => a.broker_name === first).map((a) => a.account_name);
  for (const name of names) await expect(summary.getByText(name, { exact: true }).first()).toBeVisible();
  await expect(summary.getByText('Comissions', { exact: true }).first()).toBeVisible();
  await expect(summary.getByText('Rebate', { exact: true }).first()).toBeVisible();
  await expect(summary.getByText('Total Rebate', { exact: true })).toBeVisible();

  // Rebates by Account: All Months first, then the newest month equals the sum of that month's rows.
  const card = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Rebates by Account' }) });
  const monthButton = card.getByRole('button', { name: /^Month/ });
  await expect(monthButton).toContainText('All Months');
  await expect.poll(() => rebates.length).toBeGreaterThan(0);
  const rows = rebates.at(-1)!.body.data.filter((r) => r.broker_name === first);
  const months = [...new Set(rows.map((r) => r.month))].sort().reverse();
  const checkCard = async (monthRows: RebateRow[], percentOfBalance: boolean) => {
    for (const currency of new Set(monthRows.map((r) => r.currency))) {
      const ofCurrency = monthRows.filter((r) => r.currency === currency);
      const total = ofCurrency.reduce((s, r) => s + r.total_rebate, 0);
      const summaryCard = card.locator(`[data-currency="${currency}"]`);
      expect(Number(await summaryCard.getByTestId('total-rebates').getAttribute('data-value'))).toBeCloseTo(total, 6);
      if (percentOfBalance) {
        const balance = ofCurrency.reduce((s, r) => s + r.balance, 0);
        const percent = balance > 0 ? (total / balance) * 100 : 0;
        expect(Number(await summaryCard.getByTestId('overall-rebate').getAttribute('data-value'))).toBeCloseTo(percent, 6);
      }
    }
  };
  await expect(card.getByRole('group', { name: 'Rebates by account' })).toBeVisible();
  await checkCard(rows, false);
  const newest = months[0]!;
  await monthButton.click();
  await card.getByRole('option', { name: monthName(newest), exact: true }).click();
  await expect(monthButton).toContainText(monthName(newest));
  const monthRows = rows.filter((r) => r.month === newest && (r.total_rebate !== 0 || r.balance !== 0 || r.profit_sharing_amount !== 0));
  if (monthRows.length === 0) await expect(card).toContainText('No rebate data for the selected period.');
  else await checkCard(monthRows, true);
  const maxHeight = await card.getByRole('group', { name: 'Rebates by account' }).evaluate((el) => getComputedStyle(el).maxHeight);
  expect(parseFloat(maxHeight)).toBeCloseTo((isMobile ? 844 : 900) * 0.25, 0);

  // Expand opens the summary in a modal.
  await page.getByRole('button', { name: 'Expand Broker Summary' }).click();
  const dialog = page.getByRole('dialog', { name: `Broker Summary - ${first}` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Total Balance')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // Live trades belong to the chosen broker; switching drops the old rows at once.
  const live = page.getByTestId('live-trades');
  await expect(live).toHaveAttribute('data-state', 'live');
  for (const b of ((await live.getAttribute('data-brokers')) ?? '').split(',').filter(Boolean)) expect(b).toBe(first);
  await chooseBroker(page, isMobile, second);
  await expect(page.getByRole('heading', { name: second, level: 2 })).toBeVisible();
  expect((await live.getAttribute('data-brokers')) ?? '').not.toContain(first);
  await expect(live).toHaveAttribute('data-state', 'live');
  const shownBrokers = ((await live.getAttribute('data-brokers')) ?? '').split(',').filter(Boolean);
  for (const b of shownBrokers) expect(b).toBe(second);
  if (shownBrokers.length === 0) await expect(live).toContainText('No live trades.');
  if (!isMobile) {
    for (const header of ['Date', 'Ins', 'Quantity', 'Price', 'P/L', 'Acc', 'Ser']) {
      await expect(live.getByRole('columnheader', { name: new RegExp(`^${header.replace('/', '\\/')}`) })).toBeVisible();
    }
  }
  // The Rebates card starts again at All Months for the new broker.
  await expect(card.getByRole('button', { name: /^Month/ })).toContainText('All Months');
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
});

test('investor: Global FX brokers without any rebate figure; the server refuses the rebate call', async ({ page }) => {
  // Slow the account list a little so the French loading message can be seen.
  await page.route('**/api/brokers/accounts/info*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.goto('/brokers');
  await signIn(page, 'investor');
  await expect(page.getByText('Chargement du broker...')).toBeVisible();
  const brokers = await expectedBrokers(page, ['global forex']);
  await expect(page.getByRole('heading', { name: brokers[0]!, level: 2 })).toBeVisible();

  const summary = summaryPanel(page);
  await expect(summary.getByText('Total Balance', { exact: true })).toBeVisible();
  await expect(summary.getByText('Total PnL', { exact: true })).toBeVisible();
  await expect(summary.getByText('Comissions', { exact: true }).first()).toBeVisible();
  await expect(summary.getByText('Total Rebate', { exact: true })).toHaveCount(0);
  await expect(summary.getByText('Rebate', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Rebates by Account' })).toHaveCount(0);
  await expect(summary.getByText('Forex', { exact: true }).first()).toBeVisible();

  const refused = await apiGet<{ message: string }>(page, '/api/stats/rebates?group_by=account&portfolio=Global%20FX');
  expect(refused.status).toBe(403);
  const accounts = await apiGet<{ data: AccountRow[] }>(page, '/api/brokers/accounts/info?portfolio=Global%20FX');
  for (const a of accounts.body.data) expect(a.total_rebate).toBeNull();
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
});
