import { expect, test, type Page } from '@playwright/test';
import { signIn } from './fixtures.ts';
import { startTcpProxy } from './tcp-proxy.ts';

// A phone loses its network for a while (a tunnel, a lift) and gets it back: the live positions must
// flow again within 2 s of the network's return, whatever the reconnection backoff had reached, and
// meanwhile the screen says its data is stale and since when.

const E2E_PORT = Number(process.env.E2E_PORT ?? 4319);
const FRESH_WITHIN_MS = 2_000;

/** Every live-feed snapshot the page receives, with the time it arrived. */
function recordFrames(page: Page): number[] {
  const arrivals: number[] = [];
  page.on('websocket', (ws) => {
    ws.on('framereceived', (frame) => {
      if (String(frame.payload).startsWith('{"type":"snapshot"')) arrivals.push(Date.now());
    });
  });
  return arrivals;
}

for (const outageMs of [5_000, 20_000]) {
  test(`live positions flow again within 2 s of a ${outageMs / 1000} s network outage`, async ({ page }) => {
    test.setTimeout(90_000);
    const proxy = await startTcpProxy(E2E_PORT);
    try {
      const arrivals = recordFrames(page);
      await page.goto(`${proxy.url}/login`);
      await signIn(page, 'investor');
      await expect(page.getByRole('heading', { name: 'Summary', level: 1 })).toBeVisible();
      await expect(page.locator('[data-connection="live"]').first()).toBeAttached({ timeout: 15_000 });
      await expect.poll(() => arrivals.length, { timeout: 15_000 }).toBeGreaterThan(1);

      proxy.cut();
      const indicator = page.locator('.connection').first();
      await expect(indicator).toHaveAttribute('data-connection', /reconnecting|offline/, { timeout: 5_000 });
      await expect(indicator).toHaveAttribute('title', /since \d\d:\d\d:\d\d$/);
      await expect(page.getByLabel('Bridge health')).toContainText('Connection lost · as of', { timeout: 5_000 });
      // The longer status never widens the page (a phone would zoom out to show it).
      const viewport = page.viewportSize()!.width;
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport);
      await page.waitForTimeout(outageMs);

      const restoredAt = Date.now();
      proxy.restore();
      await expect.poll(() => arrivals.filter((t) => t > restoredAt).length, { timeout: 35_000 }).toBeGreaterThan(0);
      const firstFresh = arrivals.find((t) => t > restoredAt)!;
      expect(firstFresh - restoredAt).toBeLessThan(FRESH_WITHIN_MS);
      await expect(indicator).toHaveAttribute('data-connection', 'live');
      await expect(page.getByLabel('Bridge health')).not.toContainText('Connection lost');
    } finally {
      await proxy.close();
    }
  });
}
