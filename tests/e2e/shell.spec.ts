import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { openMenu, signIn, USERS, withSharedStateLock, type DemoUser } from './fixtures.ts';

// These tests are about the service worker: let it run (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

async function apiKey(request: APIRequestContext, who: DemoUser): Promise<string> {
  const response = await request.post('/api/login', { data: USERS[who] });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { data: { api_key: string } }).data.api_key;
}

async function bridgeRunning(request: APIRequestContext, key: string): Promise<boolean> {
  const response = await request.get('/api/bridge/status', { headers: { 'x-api-key': key } });
  return ((await response.json()) as { data: { running: boolean } }).data.running;
}

async function signInAt(page: Page, who: DemoUser, route = '/') {
  await page.goto(`/login?redirect=${encodeURIComponent(route)}`);
  await signIn(page, who);
}

test('the bridge toggle flips as admin, reads Updating... while pending, and reverts when the call fails', async ({ page }) => {
  const key = await apiKey(page.request, 'admin');
  await signInAt(page, 'admin');
  const toggle = page.getByRole('switch', { name: 'Bridge' });
  await expect(toggle).toBeEnabled();

  await withSharedStateLock('bridge', async () => {
    await page.reload();
    await expect(toggle).toBeEnabled();
    const before = await bridgeRunning(page.request, key);
    await expect(toggle).toHaveAttribute('aria-checked', String(before));

    // A slow answer: the switch moves at once and reads 'Updating...' until the server has answered.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/bridge/*', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      await released;
      await route.fallback();
    });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', String(!before));
    await expect(page.getByTestId('bridge-state')).toHaveText('Updating...');
    release();
    await expect(page.getByTestId('bridge-state')).toHaveText(before ? 'Off' : 'On');
    await expect.poll(() => bridgeRunning(page.request, key)).toBe(!before);
    await page.unroute('**/api/bridge/*');

    // A failing call (the connection drops): the switch moves, then goes back; the server is unchanged.
    let failNext!: () => void;
    const fail = new Promise<void>((resolve) => (failNext = resolve));
    await page.route('**/api/bridge/*', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      await fail;
      await route.abort('connectionfailed');
    });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', String(before));
    await expect(page.getByTestId('bridge-state')).toHaveText('Updating...');
    failNext();
    await expect(toggle).toHaveAttribute('aria-checked', String(!before));
    await expect(page.getByTestId('bridge-state')).toHaveText(before ? 'Off' : 'On');
    expect(await bridgeRunning(page.request, key)).toBe(!before);
    await page.unroute('**/api/bridge/*');

    // Back as it was, through the switch.
    await toggle.click();
    await expect.poll(() => bridgeRunning(page.request, key)).toBe(before);
    await expect(toggle).toHaveAttribute('aria-checked', String(before));
  });
});

test('the investor has no bridge toggle, and the server refuses the investor anyway', async ({ page }) => {
  await signInAt(page, 'investor');
  await expect(page.getByRole('heading', { name: 'Summary' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Notifications/ })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Bridge' })).toHaveCount(0);
  const key = await apiKey(page.request, 'investor');
  for (const call of ['/api/bridge/start', '/api/bridge/stop']) {
    const response = await page.request.post(call, { headers: { 'x-api-key': key } });
    expect(response.status()).toBe(403);
  }
});

test('the notifications panel lists alerts newest first and closes on Escape (and on a drag on phones)', async ({ page, isMobile }) => {
  type Alert = { id: number; type: string; message: string; datetime: number };
  const key = await apiKey(page.request, 'admin');
  const { alerts } = (await (await page.request.get('/api/alerts/infos', { headers: { 'x-api-key': key } })).json()) as { alerts: Alert[] };
  expect(alerts.length).toBeGreaterThan(1);
  // The market records alerts as it runs: the panel is held to the newest alert the page itself has
  // received, not to one read before (a copy alert recorded in between came first once in CI). Every
  // list received is kept: the bodies are read asynchronously, so the last one read may be an older
  // list than the app's (that came first in CI too); alerts are never deleted, so the newest of all
  // of them is the newest of the app's latest list. Ties go to the higher id, as on the screen.
  const received = new Map<number, Alert>(alerts.map((a) => [a.id, a]));
  page.on('response', (response) => {
    if (!response.url().includes('/api/alerts/infos') || !response.ok()) return;
    response.json().then(
      (body: { alerts: Alert[] }) => {
        for (const a of body.alerts) received.set(a.id, a);
      },
      () => undefined,
    );
  });
  const newestReceived = () => [...received.values()].sort((a, b) => b.datetime - a.datetime || b.id - a.id)[0]!;

  await signInAt(page, 'admin');
  const bell = page.getByRole('button', { name: /Notifications/ });
  await bell.click();
  const panel = page.getByRole('dialog', { name: 'Notifications' });
  await expect(panel).toBeVisible();
  const items = panel.getByRole('listitem');
  await expect(async () => {
    const newest = newestReceived();
    await expect(items.first()).toContainText(newest.message, { timeout: 500 });
    await expect(items.first()).toContainText(newest.type, { timeout: 500 });
    // French date and time: dd/mm/yyyy HH:mm, computed here independently of the app.
    const french = new Intl.DateTimeFormat('fr-FR', {
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(newest.datetime * 1000));
    await expect(items.first()).toContainText(french, { timeout: 500 });
  }).toPass({ timeout: 10_000 });
  const datetimes = await panel.locator('time').evaluateAll((nodes) => nodes.map((n) => Date.parse(n.getAttribute('datetime') ?? '')));
  expect(datetimes).toEqual([...datetimes].sort((a, b) => b - a));

  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  if (isMobile) {
    await bell.click();
    await expect(panel).toBeVisible();
    // Let the sheet finish sliding in, then drag it down by its handle with a finger.
    await expect.poll(async () => (await panel.boundingBox())?.y).toBeLessThan(844 - 100);
    const box = (await panel.boundingBox())!;
    await page.waitForTimeout(400);
    const touch = await page.context().newCDPSession(page);
    const x = box.x + box.width / 2;
    const y = (await panel.boundingBox())!.y + 10;
    await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
    for (let step = 1; step <= 10; step += 1) {
      await touch.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: y + step * 30 }] });
    }
    await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await expect(panel).toBeHidden();
  }
});

test('the manifest and service worker make the app installable', async ({ page }, testInfo) => {
  await page.goto('/login');
  const manifest = (await (await page.request.get('/manifest.webmanifest')).json()) as Record<string, unknown> & {
    icons: { sizes: string; purpose?: string }[];
  };
  expect(manifest).toMatchObject({ display: 'standalone', start_url: '/', scope: '/' });
  expect(manifest.name).toBeTruthy();
  expect(manifest.short_name).toBeTruthy();
  expect(manifest.theme_color).toBeTruthy();
  expect(manifest.background_color).toBeTruthy();
  expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);

  // Chromium never offers to install from an incognito profile, which is what test contexts are:
  // ask its installability check in a real (persistent) profile.
  const origin = new URL(page.url()).origin;
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'copy-monitor-install-'));
  const browser = await chromium.launchPersistentContext(profile, { ...testInfo.project.use.launchOptions, headless: true });
  try {
    const tab = browser.pages()[0] ?? (await browser.newPage());
    await tab.goto(`${origin}/login`);
    await tab.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const cdp = await browser.newCDPSession(tab);
    await expect
      .poll(async () => ((await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] }).installabilityErrors)
      .toEqual([]);
  } finally {
    await browser.close();
    await fs.rm(profile, { recursive: true, force: true });
  }
});

/** Entries in the two IndexedDB stores the app keeps per user, and the app's localStorage keys. */
function storedOnDevice(page: Page) {
  return page.evaluate(async () => {
    const existing = new Set((await indexedDB.databases()).map((d) => d.name));
    const count = (db: string, store: string) =>
      new Promise<number>((resolve, reject) => {
        // Never create a database here: an empty one would stand in the app's way.
        if (!existing.has(db)) return resolve(0);
        const open = indexedDB.open(db);
        open.onerror = () => reject(new Error(String(open.error)));
        open.onsuccess = () => {
          const names = Array.from(open.result.objectStoreNames);
          if (!names.includes(store)) return resolve(0);
          const request = open.result.transaction(store).objectStore(store).count();
          request.onsuccess = () => {
            resolve(request.result);
            open.result.close();
          };
          request.onerror = () => reject(new Error(String(request.error)));
        };
      });
    return {
      responses: await count('copy-monitor-offline', 'responses'),
      queries: await count('copy-monitor-query-cache', 'clients'),
      local: Object.keys(localStorage),
    };
  });
}

/** The real-time NAV's call, as the NAV screen makes it (the server picks the portfolio's accounts). */
const NAV_INFO = '/api/brokers/accounts/info?nav_portfolio=Consolidated+Portfolio';

/** Asks for the real-time NAV with a key, as anyone holding it could: what comes back, and whether from the device's store. */
function replayNav(page: Page, apiKey: string) {
  return page.evaluate(async ([key, url]) => {
    try {
      const response = await fetch(url, { headers: { 'x-api-key': key } });
      const body = (await response.json()) as { data?: unknown[] };
      return { status: response.status, stored: response.headers.has('x-offline-data-from'), rows: body.data?.length ?? 0 };
    } catch {
      return 'no data';
    }
  }, [apiKey, NAV_INFO] as const);
}

/**
 * A returning visitor: the first visit installs the service worker, the next load goes through it
 * (calls made while it was still installing never reached its store).
 */
async function untilControlled(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
}

test('offline: the shell, the last NAV rows and alerts come from the device; online again the feed resumes; after logout nothing is left', async ({
  page,
  context,
}) => {
  const key = await apiKey(page.request, 'admin');
  const info = (await (await page.request.get(NAV_INFO, { headers: { 'x-api-key': key } })).json()) as {
    data: { account_name: string; balance: number; teiko_category: string }[];
  };
  // A row the Consolidated NAV shows by docs/product.md#validation: a consolidate account with a balance.
  const shownAccount = info.data.find((a) => a.teiko_category === 'consolidate' && Number(a.balance) !== 0)!.account_name;
  const { alerts } = (await (await page.request.get('/api/alerts/infos', { headers: { 'x-api-key': key } })).json()) as {
    alerts: { message: string; datetime: number }[];
  };
  const newestAlert = [...alerts].sort((a, b) => b.datetime - a.datetime)[0]!.message;

  await signInAt(page, 'admin', '/nav');
  // Signed in before the reload (the worker can be ready before the sign-in answer is back).
  await expect(page.getByRole('heading', { name: 'Net Asset Value - Consolidated Portfolio' })).toBeVisible();
  await untilControlled(page);
  await expect(page.getByRole('heading', { name: 'Net Asset Value - Consolidated Portfolio' })).toBeVisible();
  await expect(page.getByText(shownAccount, { exact: true }).first()).toBeVisible();
  await page.getByRole('button', { name: /Notifications/ }).click();
  await expect(page.getByRole('dialog', { name: 'Notifications' })).toContainText(newestAlert);
  await page.keyboard.press('Escape');

  // Both offline layers hold the user's data: the persisted query cache, and the worker's responses
  // (the real-time NAV refetches every 5 s through the worker, even when restored from the cache).
  await expect.poll(async () => (await storedOnDevice(page)).queries).toBe(1);
  await expect.poll(async () => (await storedOnDevice(page)).responses, { timeout: 15_000 }).toBeGreaterThan(0);

  // Offline: every answer must come from the service worker or the device, none from the server.
  const fromNetwork: string[] = [];
  page.on('response', (response) => {
    if (!response.fromServiceWorker() && new URL(response.url()).host === new URL(page.url()).host) fromNetwork.push(response.url());
  });
  await context.setOffline(true);
  const navigation = await page.reload();
  expect(navigation?.fromServiceWorker()).toBe(true);
  await expect(page.getByRole('heading', { name: 'Net Asset Value - Consolidated Portfolio' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Offline — data from \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/ })).toBeVisible();
  await expect(page.getByText(shownAccount, { exact: true }).first()).toBeVisible();
  await page.getByRole('button', { name: /Notifications/ }).click();
  await expect(page.getByRole('dialog', { name: 'Notifications' })).toContainText(newestAlert);
  await page.keyboard.press('Escape');
  expect(fromNetwork).toEqual([]);
  // What the worker keeps answers the same key offline, from the device.
  const signedInKey = await page.evaluate(() => (JSON.parse(localStorage.getItem('user_data') ?? '{}') as { api_key?: string }).api_key);
  const replayed = await replayNav(page, signedInKey!);
  expect(replayed).toMatchObject({ status: 200, stored: true });
  expect(replayed !== 'no data' && replayed.rows).toBe(info.data.length);

  // To Summary, still offline: its live feed cannot connect; back online it goes live without a reload.
  await openMenu(page);
  await page.getByRole('link', { name: 'Summary' }).click();
  await expect(page.locator('[data-connection]')).toHaveAttribute('data-connection', 'offline');
  await context.setOffline(false);
  await expect(page.locator('[data-connection]')).toHaveAttribute('data-connection', 'live', { timeout: 20_000 });
  await expect(page.getByRole('status').filter({ hasText: /^Offline/ })).toHaveCount(0);

  // Logout, then offline: nothing of the last user can be read, not even with the old key.
  const oldKey = await page.evaluate(() => (JSON.parse(localStorage.getItem('user_data') ?? '{}') as { api_key?: string }).api_key);
  expect(oldKey).toBeTruthy();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible();
  expect(await storedOnDevice(page)).toEqual({ responses: 0, queries: 0, local: [] });
  await context.setOffline(true);
  expect(await replayNav(page, oldKey!)).toBe('no data');
  await page.goto('/nav');
  await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible();
  await expect(page.getByText(shownAccount, { exact: true })).toHaveCount(0);
  await context.setOffline(false);
});
