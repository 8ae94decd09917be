import { expect, test, type Page } from '@playwright/test';
import { signIn } from './fixtures.ts';

// The Accounts and Brokers screens keep their picker's place while their lists load: the panels
// beside it (large screens) or under it (phones) do not move when the list comes. Lighthouse's
// mobile run counted 0.09 of layout shift on each screen for that move alone (the picker appeared
// above the panels once the accounts were in; on a large screen the panels jumped a column).

interface Shift {
  value: number;
  what: string[];
}

async function recordShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: Shift[] = [];
    (window as unknown as { shifts: Shift[] }).shifts = shifts;
    type Entry = { value: number; hadRecentInput: boolean; sources: { node: Node | null; previousRect: DOMRect; currentRect: DOMRect }[] };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as Entry[]) {
        if (entry.hadRecentInput) continue;
        const what = entry.sources.map(
          (s) =>
            `${s.node instanceof Element ? `${s.node.className || s.node.tagName}` : s.node?.nodeName} ${Math.round(s.previousRect.left)},${Math.round(s.previousRect.top)}→${Math.round(s.currentRect.left)},${Math.round(s.currentRect.top)}`,
        );
        shifts.push({ value: entry.value, what });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

const screens = [
  { name: 'Accounts', path: '/accounts', filled: '.account-panels .account-name' },
  { name: 'Brokers', path: '/brokers', filled: '.broker-panels .broker-name' },
] as const;

for (const screen of screens) {
  test(`${screen.name}: nothing moves when the list arrives late`, async ({ page }) => {
    await page.goto('/login');
    await signIn(page, 'admin');
    await expect(page.getByRole('heading', { name: 'Summary', level: 1 })).toBeVisible();
    await recordShifts(page);
    // The list (accounts, and brokers: one route) answers late, as on a phone's network: the
    // screen is drawn with its loading state first.
    await page.route('**/api/brokers/accounts/info**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue().catch(() => undefined);
    });
    await page.goto(screen.path);
    await expect(page.getByRole('heading', { name: screen.name, level: 1 })).toBeVisible();
    await expect(page.locator(screen.filled)).toBeVisible({ timeout: 15_000 });
    // The panels' first data (the figures, the feed's first snapshot) come meanwhile.
    await page.waitForTimeout(1000);
    const shifts = await page.evaluate(() => (window as unknown as { shifts: Shift[] }).shifts);
    const total = shifts.reduce((sum, s) => sum + s.value, 0);
    // The Brokers screen's target on a phone is under 0.02 (Lighthouse). The build before moved
    // 0.024–0.087 here on a phone (the panels, under the picker) and 0.08–0.19 on a large screen
    // (the panels, beside it, and the performance chart under the stats filling in); this one
    // 0.00003–0.004 (on a large screen, the top bar taking its final shape).
    expect(total, JSON.stringify(shifts)).toBeLessThan(0.01);
  });
}
