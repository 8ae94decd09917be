import { expect, test, type Page } from '@playwright/test';
import { signIn } from './fixtures.ts';

// Issue 40, item 9: on a desktop the trade panels come right under the key figures, and each shows
// its positions with their actions and no sideways scroll, at 1440 and at 1920 px (the columns that
// matter least give way first: the medians of MAE and MFE, then the date).

async function summary(page: Page) {
  await page.goto('/');
  await signIn(page, 'admin');
  await expect(page.getByRole('heading', { name: 'Summary', level: 1 })).toBeVisible({ timeout: 15_000 });
  // The equity portfolio's panels are both there in Consolidated Portfolio.
  await expect(page.locator('[data-panel="summary-fx"] tr[data-position]').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('[data-panel="summary-eq"] tr[data-position]').first()).toBeVisible({ timeout: 15_000 });
}

async function noSidewaysScroll(page: Page, panel: string) {
  const scroll = page.locator(`[data-panel="${panel}"] .ui-table-scroll`);
  const { scrollWidth, clientWidth } = await scroll.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  expect(scrollWidth, `${panel}: ${scrollWidth} px of columns in ${clientWidth} px`).toBeLessThanOrEqual(clientWidth + 1);
  // Every visible column header is whole, and the first row's Close button is inside the panel.
  const box = (await scroll.boundingBox())!;
  const close = page.locator(`[data-panel="${panel}"] tr[data-position] button`, { hasText: 'Close' }).first();
  const button = (await close.boundingBox())!;
  expect(button.x + button.width).toBeLessThanOrEqual(box.x + box.width + 1);
  for (const label of ['Ins/Dir', 'Q', 'Price', 'P/L', 'SL', 'TP', 'Action']) {
    await expect(page.locator(`[data-panel="${panel}"] th`, { hasText: new RegExp(`^${label.replace('/', '\\/')}$`) }).first()).toBeVisible();
  }
}

for (const size of [
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
  // The narrowest width with the panels side by side, one a little under 1440, a narrow desktop window.
  { width: 1800, height: 1000 },
  { width: 1280, height: 800 },
  { width: 1024, height: 768 },
]) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.skip(({ isMobile }) => isMobile, 'desktop layout only');
    test.use({ viewport: size });

    test('the trade panels start under the key figures and show every row’s actions without a sideways scroll', async ({ page }) => {
      await summary(page);
      const top = (await page.locator('[data-panel="summary-fx"]').boundingBox())!.y;
      // Under the title, the key figures, the bridge line and the Master-only switch: no master cards first.
      expect(top).toBeLessThan(size.height / 2);
      await noSidewaysScroll(page, 'summary-fx');
      await noSidewaysScroll(page, 'summary-eq');
      const dir = process.env.FIT_SHOTS;
      if (dir) await page.screenshot({ path: `${dir}/admin-${size.width}-Summary.png` });
    });
  });
}

// Accounts beside its picker: every column of the historical trades, Rebate last, shows at 1440 and
// at 1920 px without a sideways scroll.
for (const size of [
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
]) {
  test.describe(`Accounts at ${size.width}×${size.height}`, () => {
    test.skip(({ isMobile }) => isMobile, 'desktop layout only');
    test.use({ viewport: size });

    test('the historical trades show every column, Rebate included, without a sideways scroll', async ({ page }) => {
      await page.goto('/accounts');
      await signIn(page, 'admin');
      const table = page.getByRole('table', { name: 'Historical trades' });
      await expect(table.locator('tbody tr').first()).toBeVisible({ timeout: 20_000 });
      const scroll = page.locator('.history-table');
      const { scrollWidth, clientWidth } = await scroll.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
      expect(scrollWidth, `${scrollWidth} px of columns in ${clientWidth} px`).toBeLessThanOrEqual(clientWidth + 1);
      const rebate = table.locator('th').last();
      await expect(rebate).toHaveText(/^Rebate/);
      const [column, panel] = [(await rebate.boundingBox())!, (await scroll.boundingBox())!];
      expect(column.x + column.width).toBeLessThanOrEqual(panel.x + panel.width + 1);
    });
  });
}
