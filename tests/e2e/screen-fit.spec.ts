import { expect, test, type Page } from '@playwright/test';
import { signIn } from './fixtures.ts';

// What a screen gives its room to: the panels that share a desktop's screen, a chart as wide as its
// panel, and panels below a phone's fold that show their skeletons rather than blank boxes.

async function openAs(page: Page, path: string, heading: string) {
  await page.goto(path);
  await signIn(page, 'admin');
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
}

test.describe('on a desktop', () => {
  test.skip(({ isMobile }) => isMobile, 'desktop layout only');

  test('Summary’s FX and Equity panels share one screen, each with rows in view', async ({ page }) => {
    await openAs(page, '/', 'Summary');
    const trades = page.locator('.summary-trades-two');
    await expect(page.locator('[data-panel="summary-eq"] [data-position]').first()).toBeVisible({ timeout: 15_000 });
    const viewport = page.viewportSize()!;
    const both = (await trades.boundingBox())!;
    expect(both.height).toBeLessThanOrEqual(viewport.height);
    for (const panel of ['summary-fx', 'summary-eq']) {
      const box = (await page.locator(`[data-panel="${panel}"]`).boundingBox())!;
      // Room for the header and at least three rows of the table.
      expect(box.height).toBeGreaterThanOrEqual(240);
    }
  });

  test('the Accounts Performance chart is as wide as its panel', async ({ page }) => {
    await openAs(page, '/accounts', 'Accounts');
    const chart = page.getByTestId('performance-chart');
    await expect(chart.locator('svg').first()).toBeVisible({ timeout: 15_000 });
    const panel = (await page.locator('.performance-panel').boundingBox())!;
    const svg = (await chart.locator('svg').first().boundingBox())!;
    expect(svg.width).toBeGreaterThanOrEqual(panel.width * 0.8);
  });
});

test.describe('on a phone', () => {
  test.skip(({ isMobile }) => !isMobile, 'phone layout only');

  test('Summary’s panels below the fold show their skeletons until drawn, never a blank box', async ({ page }) => {
    // No snapshot ever comes: every panel the live feed fills keeps its skeleton. A short screen (a
    // phone held sideways) keeps the accounts area more than a screen down, so it is a skeleton too.
    await page.routeWebSocket(/\/ws\//, () => undefined);
    await page.setViewportSize({ width: 390, height: 480 });
    await openAs(page, '/', 'Summary');
    await expect(page.getByRole('status').filter({ hasText: 'Loading execution prices...' })).toBeAttached({ timeout: 15_000 });
    await expect(page.getByRole('status').filter({ hasText: 'Loading accounts...' })).toBeAttached();
    // Skipped by the browser's content-visibility, a skeleton paints nothing: a white box on a fast scroll.
    const skipped = () =>
      page
        .locator('main [role="status"][aria-busy="true"]')
        .evaluateAll((els) => els.filter((el) => !el.checkVisibility({ contentVisibilityAuto: true })).map((el) => el.textContent));
    expect(await skipped()).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect(page.getByRole('heading', { name: 'Distribution' })).toBeVisible();
    expect(await skipped()).toEqual([]);
  });
});
