import { expect, test } from '@playwright/test';
import { signIn } from './fixtures.ts';
import { startTcpProxy } from './tcp-proxy.ts';

// Issue 40, item 2: while the feed is down (a tunnel: the browser still says online), the key figures
// are muted with their time in plain text, every P/L is muted, and a line under the top bar says since
// when the live data is old, on phones too; once the network is back, nothing stays marked.

const E2E_PORT = Number(process.env.E2E_PORT ?? 4319);

test('a dropped feed marks the figures stale, in words on phones too, until the network is back', async ({ page }) => {
  test.setTimeout(90_000);
  const proxy = await startTcpProxy(E2E_PORT);
  try {
    await page.goto(`${proxy.url}/login`);
    await signIn(page, 'investor');
    await expect(page.getByRole('heading', { name: 'Summary', level: 1 })).toBeVisible();
    await expect(page.locator('[data-connection="live"]').first()).toBeAttached({ timeout: 15_000 });
    const keyFigures = page.getByRole('region', { name: /^Key figures of / });
    await expect(keyFigures.getByText('Equity')).toBeVisible();
    await expect(keyFigures).not.toHaveClass(/is-stale/);
    await expect(page.locator('html')).not.toHaveAttribute('data-live-stale');

    proxy.cut();
    await expect(page.getByText(/^Reconnecting… live data as of \d\d:\d\d:\d\d$/)).toBeVisible({ timeout: 10_000 });
    await expect(keyFigures).toHaveClass(/is-stale/);
    await expect(keyFigures.getByText(/^Not live: figures as of \d\d:\d\d$/)).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-live-stale', '');
    // A position's P/L is drawn in the muted colour, not green or red.
    const muted = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--muted').trim());
    const pnl = page.locator('.summary-trades :is(.ui-trade-up, .ui-trade-down, td .summary-pos, td .summary-neg)').first();
    await expect(pnl).toBeVisible();
    const [r, g, b] = (muted.match(/[0-9a-f]{2}/gi) ?? []).map((h) => parseInt(h, 16));
    await expect(pnl).toHaveCSS('color', `rgb(${r}, ${g}, ${b})`);
    // Stated in words, not only in a tooltip, and never wider than the screen.
    const viewport = page.viewportSize()!.width;
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport);

    proxy.restore();
    await expect(page.locator('[data-connection="live"]').first()).toBeAttached({ timeout: 15_000 });
    await expect(page.getByText(/^Reconnecting… live data as of/)).toHaveCount(0);
    await expect(keyFigures).not.toHaveClass(/is-stale/, { timeout: 10_000 });
    await expect(page.locator('html')).not.toHaveAttribute('data-live-stale');
  } finally {
    await proxy.close();
  }
});
