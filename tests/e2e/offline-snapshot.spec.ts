import { expect, test, type Page } from '@playwright/test';
import { openMenu, signIn } from './fixtures.ts';

// Issue 40, items 1 and 2: after one online visit the app is a full read of the last snapshot when
// started offline (positions, account stats and figures, the Copy screen), each with its time and
// no error text; once the network is back every figure refreshes by itself, without a reload.

test.use({ serviceWorkers: 'allow' });

/** Words that would read as a failure where the device is only offline. */
const ERROR_TEXT = /Error loading|Network error|Request failed|No update received yet|Failed to fetch/;

const figure = (page: Page, label: string) => page.locator(`[data-figure="${label}"] dd`).first();

async function goTo(page: Page, link: string, heading: string | RegExp) {
  await openMenu(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
  await expect(page.getByRole('heading', { name: heading, level: 1 }).first()).toBeVisible();
}

test('started offline after one visit, every screen reads its last data with its time; back online, every figure refreshes', async ({
  page,
  context,
}, testInfo) => {
  test.setTimeout(180_000);
  await page.goto('/login');
  await signIn(page, 'admin');
  await expect(page.getByRole('heading', { name: 'Summary', level: 1 })).toBeVisible();
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect(page.locator('[data-panel="summary-fx"] [data-position]').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('bridge-state')).toHaveText(/On|Off/);

  // One online visit of Accounts and Copy: their answers are kept on the device.
  await goTo(page, 'Accounts', 'Accounts');
  await expect(figure(page, 'P/L 24 hours')).not.toHaveText('—', { timeout: 20_000 });
  await expect(figure(page, 'P/L 7 days')).not.toHaveText('—');
  await expect(page.locator('.account-stats-panel [data-figure="Win"] dd')).toHaveText(/^\d+$/, { timeout: 20_000 });
  await expect(page.getByTestId('live-trades').locator('li, tbody tr').first()).toBeVisible({ timeout: 20_000 });
  await page.waitForTimeout(2_500);
  await goTo(page, 'Copy', /^Copy quality - /);
  await expect(page.getByRole('heading', { name: 'Recent copies' })).toBeVisible();
  await page.waitForTimeout(2_500);
  await goTo(page, 'Summary', 'Summary');
  await expect(page.locator('[data-panel="summary-fx"] [data-position]').first()).toBeVisible();
  // The device's copy is written at most once a second.
  await page.waitForTimeout(2_500);

  // Started offline: the service worker serves the app, the device its last answers.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Summary', level: 1 })).toBeVisible();
  await expect(page.locator('[data-panel="summary-fx"] [data-position]').first()).toBeVisible({ timeout: 10_000 });
  await expect(page.getByText(/Offline — data from \d\d\/\d\d\/\d{4} \d\d:\d\d/)).toBeVisible();
  await expect(page.getByText(/positions as of \d\d:\d\d/).first()).toBeVisible();
  await expect(page.getByTestId('bridge-state')).toHaveText(/On|Off/);
  await expect(page.locator('main')).not.toContainText(ERROR_TEXT);

  for (const size of [
    { width: 360, height: 780 },
    { width: 390, height: 844 },
    { width: 1440, height: 900 },
  ]) {
    await page.setViewportSize(size);
    await page.waitForTimeout(400);
    await page.screenshot({ path: testInfo.outputPath(`summary-offline-${size.width}x${size.height}.png`) });
  }
  await page.setViewportSize(testInfo.project.use.viewport!);

  await goTo(page, 'Accounts', 'Accounts');
  await expect(figure(page, 'P/L 24 hours')).not.toHaveText('—');
  await expect(figure(page, 'P/L 7 days')).not.toHaveText('—');
  await expect(figure(page, 'Max Drawdown')).toHaveText(/\d/);
  await expect(page.locator('.account-stats-panel [data-figure="Win"] dd')).toHaveText(/^\d+$/);
  await expect(page.getByTestId('live-trades').locator('li, tbody tr').first()).toBeVisible();
  await expect(page.getByText(/Offline — positions as of \d\d:\d\d/).first()).toBeVisible();
  // The chart's start date (and key) is new at every visit: the kept chart of the same period is shown.
  await expect(page.getByTestId('performance-chart')).toBeVisible();
  await expect(page.locator('main')).not.toContainText(ERROR_TEXT);

  await goTo(page, 'Copy', /^Copy quality - /);
  await expect(page.getByRole('heading', { name: 'Recent copies' })).toBeVisible();
  await expect(page.locator('main')).not.toContainText(ERROR_TEXT);

  // Back online: the feeds and every query come back by themselves.
  const fresh = new Set<string>();
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (response.ok() && !('x-offline-data-from' in response.headers())) fresh.add(url.pathname);
  });
  await goTo(page, 'Summary', 'Summary');
  await context.setOffline(false);
  await expect(page.locator('[data-connection="live"]').first()).toBeAttached({ timeout: 15_000 });
  await expect(page.getByText(/^Offline — /)).toHaveCount(0);
  await expect.poll(() => fresh.has('/api/bridge/status'), { timeout: 15_000 }).toBe(true);
  await expect(page.getByTestId('bridge-state')).toHaveText(/On|Off/);
  await expect(page.getByRole('switch', { name: 'Bridge' })).not.toHaveAttribute('aria-disabled', 'true');
  await goTo(page, 'Accounts', 'Accounts');
  await expect.poll(() => fresh.has('/api/brokers/accounts/historical-losses'), { timeout: 15_000 }).toBe(true);
  await expect(figure(page, 'P/L 24 hours')).not.toHaveText('—');
  await expect(figure(page, 'P/L 7 days')).not.toHaveText('—');
  await expect(page.locator('main')).not.toContainText(ERROR_TEXT);
});
