import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page, type WebSocketRoute } from '@playwright/test';
import { signIn, swipeLeft } from './fixtures.ts';

// Issue 16 (items 6, 8, 9): the phone's trade cards are compact rows that open their details in
// place, newest first everywhere; a dropped feed keeps its last rows under a banner with a Retry.

test.describe('phone trade cards', () => {
  test.skip(({ isMobile }) => !isMobile, 'phone layout only');

  const fxRows = (page: Page) => page.locator('[data-panel="summary-fx"] [data-position]');
  const liveRows = (page: Page) => page.getByTestId('live-trades').getByRole('listitem');

  async function open(page: Page, path: string) {
    await page.goto(path);
    await signIn(page, 'admin');
  }

  /** Bottom of the sticky top bar: rows under it are not visible. */
  const topBarBottom = (page: Page) => page.locator('header.topbar').last().evaluate((el) => el.getBoundingClientRect().bottom);

  /**
   * Scrolls the first row to just under the top bar, as a reader scrolling the list into view, and
   * counts the rows whose box lies entirely between the top bar and the bottom of the viewport.
   */
  async function fullyVisibleRows(page: Page, rows: Locator): Promise<{ visible: number; total: number; heights: number[] }> {
    const bar = await topBarBottom(page);
    await rows.first().evaluate((el, under) => window.scrollBy(0, el.getBoundingClientRect().top - under - 4), bar);
    return rows.evaluateAll((els, under) => {
      const boxes = els.map((el) => el.getBoundingClientRect());
      return {
        visible: boxes.filter((r) => r.top >= under && r.bottom <= window.innerHeight).length,
        total: els.length,
        heights: boxes.map((r) => Math.round(r.height)),
      };
    }, bar);
  }

  /** Waits until every row of the list is drawn (the phone draws them a few at a time). */
  async function settled(rows: Locator): Promise<number> {
    let last = -1;
    await expect
      .poll(async () => {
        const now = await rows.count();
        const same = now === last && now > 0;
        last = now;
        return same;
      }, { intervals: [300] })
      .toBe(true);
    return last;
  }

  async function expectDense(page: Page, rows: Locator, where: string) {
    await expect(rows.first()).toBeVisible();
    await settled(rows);
    const { visible, total, heights } = await fullyVisibleRows(page, rows);
    // A compact row is about 62 px (60–72 px); six of them fit under the top bar with room to spare.
    for (const height of heights) expect(height, `${where}: row height`).toBeLessThanOrEqual(72);
    expect(visible, `${where}: ${visible} of ${total} rows fully visible`).toBeGreaterThanOrEqual(Math.min(6, total));
    return { visible, total };
  }

  test('Summary FX trades: at least six positions fully visible at 390×844', async ({ page }) => {
    await open(page, '/');
    await expect(page.getByRole('heading', { name: 'Summary', level: 1 })).toBeVisible();
    await expect(fxRows(page).first()).toBeVisible();
    // The masters' positions; the followers' copies are more when the masters hold fewer than six.
    if ((await settled(fxRows(page))) < 6) {
      await page.getByRole('switch', { name: 'Master only' }).click({ force: true });
      await expect.poll(() => fxRows(page).count()).toBeGreaterThanOrEqual(6);
    }
    const { total } = await expectDense(page, fxRows(page), 'Summary FX');
    expect(total).toBeGreaterThanOrEqual(6);
  });

  test('Accounts live trades and Brokers live trades are as dense', async ({ page }) => {
    await open(page, '/accounts');
    await expect(page.getByRole('heading', { name: 'Accounts', level: 1 })).toBeVisible();
    await expect(page.getByTestId('live-trades')).toHaveAttribute('data-state', 'live');
    await expectDense(page, liveRows(page), 'Accounts live trades');
    const history = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Historical trades', exact: true }) });
    await expectDense(page, history.getByRole('listitem'), 'Accounts historical trades');

    await page.goto('/brokers');
    await expect(page.getByTestId('live-trades')).toHaveAttribute('data-state', 'live');
    await expectDense(page, liveRows(page), 'Brokers live trades');
  });

  test('Brokers live-trade cards are newest first', async ({ page }) => {
    await open(page, '/brokers');
    await expect(page.getByTestId('live-trades')).toHaveAttribute('data-state', 'live');
    const rows = liveRows(page);
    await expect(rows.first()).toBeVisible();
    await settled(rows);
    // Each card's Date (dd/mm/yyyy HH:mm) sits in its details, drawn on a tap: open each card in
    // turn, as a reader would, and read it as yyyymmddHHmm.
    const times: string[] = [];
    for (let i = 0; i < (await rows.count()); i++) {
      const toggle = rows.nth(i).locator('[aria-expanded]').first();
      await toggle.click();
      const date = await rows.nth(i).locator('.ui-trade-field').filter({ has: page.locator('dt', { hasText: /^Date$/ }) }).locator('dd').innerText();
      await toggle.click();
      const [d, m, y, hh, mm] = date.split(/[/ :]/);
      times.push(`${y}${m}${d}${hh}${mm}`);
    }
    expect(times.length).toBeGreaterThan(1);
    expect(times.every((t) => /^\d{12}$/.test(t))).toBe(true);
    expect(times).toEqual(times.toSorted().toReversed());
  });

  test('a tap opens a position’s details in place; Enter does too; the swipe still reveals Edit and Close', async ({ page }) => {
    await open(page, '/');
    const rows = fxRows(page);
    await expect(rows.nth(1)).toBeVisible();
    const card = rows.first();
    const face = card.getByRole('button', { expanded: false });
    await face.tap();
    await expect(card.getByRole('button', { expanded: true })).toBeVisible();
    const details = card.locator('dl');
    await expect(details).toBeVisible();
    await expect(details.locator('dt')).toHaveText(['Date', 'Q', 'EP', 'BE', 'SL', 'TP', 'Median MAE', 'Median MFE']);
    await expect(details.locator('dd').first()).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    // A write user's Edit and Close sit under the open details, once each.
    await expect(card.getByRole('button', { name: /^Edit / })).toBeVisible();
    await expect(card.getByRole('button', { name: /^Close / })).toBeVisible();
    // The rows below moved down to make room, none hidden under the details.
    const [cardBox, nextBox] = await Promise.all([card.boundingBox(), rows.nth(1).boundingBox()]);
    expect(nextBox!.y).toBeGreaterThanOrEqual(cardBox!.y + cardBox!.height - 1);
    await card.getByRole('button', { expanded: true }).tap();
    await expect(details).toBeHidden();

    // Keyboard: the row is a button.
    await card.getByRole('button', { expanded: false }).focus();
    await page.keyboard.press('Enter');
    await expect(details).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(details).toBeHidden();

    // The swipe of a closed card still reveals Edit and Close.
    const other = rows.nth(1);
    const front = other.locator('.summary-swipe-front');
    await expect(other.getByRole('button', { name: /^Edit / })).toBeHidden();
    // A mouse pressed outside the viewport reaches nothing: swipeLeft brings the card in first.
    await swipeLeft(page, front);
    await expect(other.getByRole('button', { name: /^Edit / })).toBeVisible();
    await expect(other.getByRole('button', { name: /^Close / })).toBeVisible();
    await expect(other.locator('dl')).toBeHidden();
  });

  test('a dropped feed keeps its rows under the spec message with their age, and Retry reconnects at once', async ({ page }) => {
    let refuse = false;
    let refused = 0;
    let connections = 0;
    const sockets: WebSocketRoute[] = [];
    await page.routeWebSocket(/\/ws\//, (ws) => {
      if (refuse) {
        refused += 1;
        void ws.close({ code: 4000, reason: 'Server restarting' });
        return;
      }
      connections += 1;
      ws.connectToServer();
      sockets.push(ws);
    });
    await open(page, '/');
    const panel = page.locator('[data-panel="summary-fx"]');
    const rows = fxRows(page);
    await expect(rows.first()).toBeVisible();
    const shown = await settled(rows);

    // The server goes away: the page's sockets close with 4000, and every reconnect is refused.
    refuse = true;
    for (const ws of sockets.splice(0)) await ws.close({ code: 4000, reason: 'Server restarting' });
    const banner = panel.locator('.ui-feed-banner');
    await expect(banner.getByRole('status')).toHaveText('WebSocket closed: 4000 Server restarting');
    await expect(rows).toHaveCount(shown);
    await expect(rows.first()).toBeVisible();
    const age = banner.getByTestId('feed-age');
    await expect(age).toHaveText(/^Last update \d+ s ago$/);
    const first = await age.innerText();
    await expect(age).not.toHaveText(first, { timeout: 3_000 });
    // The banner is one compact line, not a screen.
    expect((await banner.boundingBox())!.height).toBeLessThanOrEqual(80);
    // The banner, the rows and a row's open details pass axe's WCAG AA rules (Lighthouse's engine).
    await rows.first().getByRole('button', { expanded: false }).tap();
    const axe = await new AxeBuilder({ page }).include('[data-panel="summary-fx"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 100)).join(' | ')}`)).toEqual([]);

    // After three refused attempts the next one is 8 s away (1 s × 2^n): Retry does not wait for it.
    await expect.poll(() => refused, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    refuse = false;
    const before = connections;
    await banner.getByRole('button', { name: 'Retry' }).tap();
    await expect(banner).toBeHidden({ timeout: 3_000 });
    expect(connections).toBe(before + 1);
    await expect(rows.first()).toBeVisible();
  });

  test('a trader’s list: copies under their master trade’s heading, folded by a tap, SL and TP on every face, the list’s total in euros (issue 40)', async ({ page }) => {
    await open(page, '/');
    const fx = page.locator('[data-panel="summary-fx"]');
    await expect(fxRows(page).first()).toBeVisible();
    // Every card's face carries its stop loss and take profit, set or not.
    for (const card of await fxRows(page).all()) {
      await expect(card.locator('.ui-trade-face [data-cell="face-sl"]')).toHaveText(/^SL /);
      await expect(card.locator('.ui-trade-face [data-cell="face-tp"]')).toHaveText(/^TP /);
    }
    await expect(fx.getByTestId('live-total')).toContainText('€');

    await page.getByRole('switch', { name: 'Master only' }).click({ force: true });
    const heading = fx.locator('li[data-group]').first();
    await expect(heading).toBeVisible({ timeout: 15_000 });
    const group = (await heading.getAttribute('data-group'))!;
    const [symbol, side] = group.split('|');
    const copies = fx.locator(`li.summary-group-child[data-position$="|${symbol}|${side}"]`);
    await settled(fxRows(page));
    const count = await copies.count();
    expect(count).toBeGreaterThanOrEqual(2);
    const toggle = heading.getByRole('button');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(toggle).toContainText(`${count} copies`);
    await expect(toggle).toContainText('€');
    // The copies come right under their heading.
    const order = await fx.locator('ul > li').evaluateAll((els) => els.map((el) => el.getAttribute('data-group') ?? el.getAttribute('data-position') ?? ''));
    const at = order.indexOf(group);
    expect(order.slice(at + 1, at + 1 + count).every((key) => key.endsWith(`|${symbol}|${side}`))).toBe(true);
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(copies).toHaveCount(0);
    await toggle.click();
    await expect(copies).toHaveCount(count);
  });

  test('skeleton rows have the compact rows’ shape until the first message', async ({ page }) => {
    // Hold the feed: no socket ever opens.
    await page.routeWebSocket(/\/ws\//, () => undefined);
    await open(page, '/');
    const skeleton = page.locator('[data-panel="summary-fx"]').getByRole('status').filter({ hasText: 'Loading live positions...' });
    await expect(skeleton).toBeVisible();
    const heights = await skeleton.locator('.ui-trade-skeleton').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height));
    expect(heights).toHaveLength(3);
    for (const h of heights) {
      expect(h).toBeGreaterThanOrEqual(56);
      expect(h).toBeLessThanOrEqual(72);
    }
  });
});

test('large screens keep the trade tables', async ({ page, isMobile }) => {
  test.skip(isMobile, 'desktop layout only');
  await page.goto('/');
  await signIn(page, 'admin');
  const fx = page.locator('[data-panel="summary-fx"]');
  await expect(fx.getByRole('columnheader').first()).toBeVisible();
  await expect(fx.locator('.ui-trade-list')).toHaveCount(0);
  await page.goto('/brokers');
  const live = page.getByTestId('live-trades');
  await expect(live.getByRole('columnheader', { name: /^Date/ })).toBeVisible();
  await expect(live.locator('.ui-trade-list')).toHaveCount(0);
});
