import { expect, test, type Locator, type Page } from '@playwright/test';
import { signIn, swipeLeft, withSharedStateLock } from './fixtures.ts';

// Edits made offline (docs/client.md, "Edits made offline"): a TP/SL edit or a pairs change made
// without a connection is kept on the device, offered again once the server answers, checked
// against the server's state now, and sent only when the user confirms. A close is never kept.
// The AMC portfolio is this spec's own: no other spec edits its positions or its master's pairs.

const PORTFOLIO = 'AMC';
const MASTER = 'AMC FX Master';
const PENDING = 'Pending — will be sent when you are back online';
const KEPT = `No connection: your change is kept on this device. ${PENDING}.`;
const CLOSE_NEEDS_CONNECTION = 'Closing needs a connection: a close is never sent later';
const TPSL_PATH = '/api/positions/set-tp-sl-by-symbol';
const PAIRS_PATH = '/api/copy-rules/allowed-pairs';

interface StoredChange {
  kind: 'tp-sl' | 'allowed-pairs';
  key: string;
  created_at: number;
  expires_at: number;
  request: Record<string, unknown>;
}

const fxPanel = (page: Page) => page.locator('[data-panel="summary-fx"]');
const outboxBar = (page: Page) => page.getByRole('status').filter({ hasText: /changes? made offline/ });
const reviewDialog = (page: Page) => page.getByRole('dialog', { name: 'Changes made offline' });
const price5 = (n: number) => n.toFixed(5);
const apiKeyOf = (page: Page) =>
  page.evaluate(() => (JSON.parse(localStorage.getItem('user_data') ?? '{}') as { api_key?: string }).api_key ?? '');

/** The server out of reach: every API call of the page fails as a dead network would (an open live feed stays). */
const cutApi = (page: Page) => page.route('**/api/**', (route) => route.abort('internetdisconnected'));
const restoreApi = (page: Page) => page.unroute('**/api/**');

/** The Idempotency-Keys of the calls to `path` that reached the server (an aborted call has no response). */
function reachedServer(page: Page, path: string): string[] {
  const keys: string[] = [];
  page.on('response', (response) => {
    if (response.request().method() === 'POST' && new URL(response.url()).pathname === path) keys.push(response.request().headers()['idempotency-key'] ?? '');
  });
  return keys;
}

/** The changes kept in the device's outbox (IndexedDB), all users' (one is signed in). */
function storedChanges(page: Page): Promise<StoredChange[]> {
  return page.evaluate(async () => {
    // Never create the database here: an empty one would stand in the app's way.
    if (!(await indexedDB.databases()).some((d) => d.name === 'copy-monitor-outbox')) return [];
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('copy-monitor-outbox');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(new Error(String(open.error)));
    });
    try {
      if (!db.objectStoreNames.contains('changes')) return [];
      const values = await new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction('changes').objectStore('changes').getAll();
        request.onsuccess = () => resolve(request.result as unknown[]);
        request.onerror = () => reject(new Error(String(request.error)));
      });
      return values.flat() as StoredChange[];
    } finally {
      db.close();
    }
  });
}

/** The test's seam for expiry: the stored changes are made 16 minutes ago and expired a minute ago. */
function expireStoredChanges(page: Page): Promise<void> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('copy-monitor-outbox');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(new Error(String(open.error)));
    });
    const store = db.transaction('changes', 'readwrite').objectStore('changes');
    await new Promise<void>((resolve, reject) => {
      const cursor = store.openCursor();
      cursor.onsuccess = () => {
        const at = cursor.result;
        if (!at) return resolve();
        const changes = (at.value as { created_at: number; expires_at: number }[]).map((c) => ({
          ...c,
          created_at: Date.now() - 16 * 60_000,
          expires_at: Date.now() - 60_000,
        }));
        at.update(changes);
        at.continue();
      };
      cursor.onerror = () => reject(new Error(String(cursor.error)));
    });
    db.close();
  });
}

/** The position row `id` (account|symbol|type) of a portfolio as the server sends it now: one snapshot of a fresh feed. */
function positionNow(page: Page, portfolio: string, id: string): Promise<{ sl: number | null; tp: number | null } | null> {
  return page.evaluate(
    async ({ portfolio, id }) => {
      const apiKey = (JSON.parse(localStorage.getItem('user_data') ?? '{}') as { api_key?: string }).api_key ?? '';
      const answer = await fetch('/api/ws-ticket', { method: 'POST', headers: { 'x-api-key': apiKey } });
      const ticket = ((await answer.json()) as { data: { ticket: string } }).data.ticket;
      const query = new URLSearchParams({ portfolio, aggregate_by: 'account', token: ticket });
      const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/brokers/live-positions-aggregate-by?${query}`);
      type Row = { account_name: string; u_symbol: string; type: string; sl: number | null; tp: number | null };
      return new Promise<{ sl: number | null; tp: number | null } | null>((resolve, reject) => {
        ws.onmessage = (event) => {
          const message = JSON.parse(String(event.data)) as { type: string; positionsAggregate?: Row[] };
          if (message.type !== 'snapshot') return;
          ws.close();
          const row = (message.positionsAggregate ?? []).find((p) => `${p.account_name}|${p.u_symbol}|${p.type}` === id);
          resolve(row ? { sl: row.sl, tp: row.tp } : null);
        };
        ws.onerror = () => reject(new Error('live feed failed'));
      });
    },
    { portfolio, id },
  );
}

async function openSummary(page: Page) {
  await page.goto(`/?portfolio=${PORTFOLIO}`);
  await signIn(page, 'admin');
  await expect(page.getByRole('heading', { name: 'Summary', level: 1 })).toBeVisible();
}

interface Picked {
  row: Locator;
  id: string;
  account: string;
  symbol: string;
  type: 'Buy' | 'Sell';
  /**
   * Levels a few per cent away from the entry (far beyond the test's move, so neither closes the
   * position meanwhile), never the same twice: an earlier run may have set the same position.
   */
  levels: () => { tp: string; sl: string };
}

/** A master position of the FX panel. */
async function pickPosition(page: Page): Promise<Picked> {
  const first = fxPanel(page).locator('[data-position]').first();
  await expect(first).toBeVisible();
  const id = (await first.getAttribute('data-position')) ?? '';
  const entry = Number(await first.getAttribute('data-entry'));
  expect(entry).toBeGreaterThan(0);
  const [account, symbol, type] = id.split('|') as [string, string, 'Buy' | 'Sell'];
  const levels = () => {
    const away = 0.03 + Math.random() * 0.05;
    return {
      tp: price5(type === 'Buy' ? entry * (1 + away) : entry * (1 - away)),
      sl: price5(type === 'Buy' ? entry * (1 - away) : entry * (1 + away)),
    };
  };
  return { row: fxPanel(page).locator(`[data-position="${id}"]`), id, account, symbol, type, levels };
}

/** A row's Edit or Close button, brought into reach (on a phone the card is swiped open first). */
async function rowButton(page: Page, isMobile: boolean, p: Picked, action: 'Edit' | 'Close'): Promise<Locator> {
  const button = p.row.getByRole('button', { name: `${action} ${p.symbol} ${p.type} of ${p.account}` });
  if (isMobile && !(await button.isVisible())) {
    await swipeLeft(page, p.row.locator('.summary-swipe-front'));
    await expect(button).toBeVisible();
  }
  return button;
}

/** Opens the row's Edit, sets the levels and saves. */
async function editLevels(page: Page, isMobile: boolean, p: Picked, levels: { tp: string; sl: string }) {
  await (await rowButton(page, isMobile, p, 'Edit')).click();
  await saveLevels(page, levels);
}

/** In the open Edit dialog: sets the levels and saves. */
async function saveLevels(page: Page, levels: { tp: string; sl: string }) {
  const dialog = page.getByRole('dialog', { name: 'Edit Position' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Take profit (TP)').fill(levels.tp);
  await dialog.getByLabel('Stop loss (SL)').fill(levels.sl);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

test('an edit made offline is kept across a reload, and reaches the server once, after the user confirms it on reconnect', async ({ page, isMobile }) => {
  test.setTimeout(120_000);
  await openSummary(page);
  // The other viewport's run edits AMC positions too: take turns, or one would change what the other saw.
  await withSharedStateLock('outbox-amc-positions', async () => {
    const p = await pickPosition(page);
    const levels = p.levels();
    await cutApi(page);
    await editLevels(page, isMobile, p, levels);
    // Online, no answer: the spec's network error, the change kept for a retry (never a success tick).
    await expect(page.getByText(/^Network error\. Please check your connection\. Your change is kept on this device/)).toBeVisible();
    await expect(p.row.getByText(PENDING, { exact: true })).toBeVisible();
    await expect(outboxBar(page)).toContainText(`1 change made offline · ${PENDING}`);
    const [kept] = await storedChanges(page);
    expect(kept).toMatchObject({
      kind: 'tp-sl',
      request: { symbol: p.symbol, direction: p.type === 'Buy' ? 'long' : 'short', portfolio: PORTFOLIO, take_profit: Number(levels.tp), stop_loss: Number(levels.sl) },
    });
    expect(kept!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(kept!.expires_at - kept!.created_at).toBe(15 * 60_000);

    // Still without the server, a reload: the change is still there, read from the device.
    await page.reload();
    await expect(outboxBar(page)).toContainText('1 change made offline');
    expect(await storedChanges(page)).toEqual([kept]);

    // The server is back: the change is shown against the position as it is now, and not sent yet.
    const reached = reachedServer(page, TPSL_PATH);
    await restoreApi(page);
    const review = reviewDialog(page);
    await expect(review).toBeVisible({ timeout: 30_000 });
    const item = review.getByRole('article', { name: `TP/SL of ${p.symbol} ${p.type} (${p.account})` });
    // The levels at the instrument's digits (docs/client.md): 5 decimals typed, 3 shown for a JPY pair.
    await expect(item.locator('[data-value="change"]')).toHaveText(/^SL \S+ · TP \S+$/);
    const [, shownSl, shownTp] = /^SL (\S+) · TP (\S+)$/.exec(await item.locator('[data-value="change"]').innerText()) ?? [];
    expect(Number(shownSl)).toBeCloseTo(Number(levels.sl), 1);
    expect(Number(shownTp)).toBeCloseTo(Number(levels.tp), 1);
    await expect(item.locator('[data-value="now"]')).toContainText('SL ');
    expect(reached).toEqual([]);

    await item.getByRole('button', { name: /^Send / }).click();
    await expect(page.getByRole('status').filter({ hasText: `Take profit ${Number(levels.tp)} and stop loss ${Number(levels.sl)} set on` })).toBeVisible();
    await expect(review).toBeHidden();
    await expect(outboxBar(page)).toHaveCount(0);
    expect(await storedChanges(page)).toEqual([]);
    // Sent once, with the key the change was kept with.
    expect(reached).toEqual([kept!.key]);

    // The server holds the new levels.
    await expect.poll(() => positionNow(page, PORTFOLIO, p.id), { timeout: 15_000 }).toEqual({ sl: Number(levels.sl), tp: Number(levels.tp) });
    // A second send of the same change (a double tap, a retry) is answered from the server's record, not applied again.
    const again = await page.request.post(TPSL_PATH, {
      headers: { 'x-api-key': await apiKeyOf(page), 'Idempotency-Key': kept!.key },
      data: kept!.request,
    });
    expect(again.status()).toBe(200);
    expect(again.headers()['idempotent-replay']).toBe('true');
    expect(reached).toHaveLength(1);
  });
});

test('an edit kept past its expiry is never sent, and the user is told why', async ({ page, isMobile }) => {
  await openSummary(page);
  const p = await pickPosition(page);
  await cutApi(page);
  await editLevels(page, isMobile, p, p.levels());
  await expect(outboxBar(page)).toContainText('1 change made offline');
  await expect.poll(async () => (await storedChanges(page)).length).toBe(1);

  await expireStoredChanges(page);
  const reached = reachedServer(page, TPSL_PATH);
  await page.reload();
  await restoreApi(page);
  const review = reviewDialog(page);
  await expect(review).toBeVisible({ timeout: 30_000 });
  await expect(review.getByRole('alert')).toHaveText(`TP/SL of ${p.symbol} ${p.type} (${p.account}) not sent: it expired (changes made offline are kept 15 min).`);
  await expect(review.getByRole('button', { name: /^Send / })).toHaveCount(0);
  await review.getByRole('button', { name: 'OK' }).click();
  await expect(outboxBar(page)).toHaveCount(0);
  expect(await storedChanges(page)).toEqual([]);
  // Whatever reconnects next, nothing goes.
  await page.waitForTimeout(2_000);
  expect(reached).toEqual([]);
});

test('a TP/SL edit whose position changed on the server meanwhile is dropped with the reason', async ({ page, isMobile }) => {
  test.setTimeout(120_000);
  await openSummary(page);
  await withSharedStateLock('outbox-amc-positions', async () => {
    const p = await pickPosition(page);
    const mine = p.levels();
    await cutApi(page);
    await editLevels(page, isMobile, p, mine);
    await expect(p.row.getByText(PENDING, { exact: true })).toBeVisible();

    // Meanwhile someone else sets other levels on the same positions.
    const theirs = p.levels();
    const set = await page.request.post(TPSL_PATH, {
      headers: { 'x-api-key': await apiKeyOf(page) },
      data: { category: 'Forex', symbol: p.symbol, direction: p.type === 'Buy' ? 'long' : 'short', currency: 'USD', portfolio: PORTFOLIO, take_profit: Number(theirs.tp), stop_loss: Number(theirs.sl) },
    });
    expect(set.status()).toBe(200);

    const reached = reachedServer(page, TPSL_PATH);
    await restoreApi(page);
    const review = reviewDialog(page);
    await expect(review).toBeVisible({ timeout: 30_000 });
    await expect(review.getByRole('alert')).toContainText(
      `TP/SL of ${p.symbol} ${p.type} (${p.account}) not sent: its SL/TP changed on the server since you edited it`,
    );
    await expect(review.getByRole('alert')).toContainText(`now SL ${theirs.sl} · TP ${theirs.tp}`);
    await review.getByRole('button', { name: 'OK' }).click();
    await expect(outboxBar(page)).toHaveCount(0);
    expect(reached).toEqual([]);
    await expect.poll(() => positionNow(page, PORTFOLIO, p.id), { timeout: 15_000 }).toEqual({ sl: Number(theirs.sl), tp: Number(theirs.tp) });
  });
});

test('a pairs change whose rule changed on the server meanwhile is dropped with the reason', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`/copy?portfolio=${PORTFOLIO}`);
  await signIn(page, 'admin');
  const master = page.getByRole('region', { name: 'Copy relations' }).getByRole('article', { name: `Master ${MASTER}` });
  await expect(master).toBeVisible();
  await withSharedStateLock('outbox-amc-pairs', async () => {
    // What the other run left: read afresh.
    await page.reload();
    await expect(master).toBeVisible();
    const headers = { 'x-api-key': await apiKeyOf(page) };
    const rules = (await (await page.request.get('/api/copy-rules/infos', { headers })).json()) as {
      copy_rules: { master_id: string; account_name: string; allowed_pairs: string[] }[];
    };
    const rule = rules.copy_rules.find((r) => r.account_name === MASTER)!;
    const [mine, theirs] = ['AUDJPY', 'CADJPY', 'EURCAD', 'AUDCAD'].filter((pair) => !rule.allowed_pairs.includes(pair));
    try {
      await cutApi(page);
      await master.getByRole('button', { name: `Pairs of ${MASTER}` }).click();
      const dialog = page.getByRole('dialog', { name: `Pairs copied from ${MASTER}` });
      await dialog.getByRole('checkbox', { name: mine! }).check();
      await dialog.getByRole('button', { name: 'Save pairs' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('status').filter({ hasText: KEPT })).toBeVisible();
      await expect(master.getByText(PENDING, { exact: true })).toBeVisible();
      const [kept] = await storedChanges(page);
      expect(kept).toMatchObject({ kind: 'allowed-pairs', request: { master_id: rule.master_id } });
      expect(kept!.request.new_allowed_pairs).toContain(mine);
      expect(kept!.expires_at - kept!.created_at).toBe(24 * 60 * 60_000);

      // Meanwhile someone else changes the master's pairs.
      const set = await page.request.post(PAIRS_PATH, { headers, data: { master_id: rule.master_id, new_allowed_pairs: [...rule.allowed_pairs, theirs] } });
      expect(set.status()).toBe(200);

      const reached = reachedServer(page, PAIRS_PATH);
      await restoreApi(page);
      const review = reviewDialog(page);
      await expect(review).toBeVisible({ timeout: 30_000 });
      await expect(review.getByRole('alert')).toContainText(`Pairs of ${MASTER} not sent: its allowed pairs changed since you edited them`);
      await review.getByRole('button', { name: 'OK' }).click();
      await expect(outboxBar(page)).toHaveCount(0);
      await expect(master.getByText(PENDING, { exact: true })).toHaveCount(0);
      expect(reached).toEqual([]);
    } finally {
      await restoreApi(page);
      const back = await page.request.post(PAIRS_PATH, { headers, data: { master_id: rule.master_id, new_allowed_pairs: rule.allowed_pairs } });
      expect(back.status()).toBe(200);
    }
  });
});

test('offline, Close is disabled and says why, an edit is kept without being tried, and the user may discard it', async ({ page, context, isMobile }) => {
  await openSummary(page);
  const p = await pickPosition(page);
  const close = await rowButton(page, isMobile, p, 'Close');
  await expect(close).toBeEnabled();
  const tried = reachedServer(page, TPSL_PATH);
  const attempts: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === TPSL_PATH) attempts.push(request.url());
  });

  // The Edit dialog is opened online: without the service worker (blocked in these tests) its chunk
  // is fetched on first use, where an installed app has it precached. The network goes, then Save.
  await (await rowButton(page, isMobile, p, 'Edit')).click();
  await context.setOffline(true);
  await expect(page.getByRole('dialog', { name: 'Edit Position' })).toContainText('No connection: Save keeps the change on this device');
  await saveLevels(page, p.levels());
  await expect(page.getByRole('status').filter({ hasText: KEPT })).toBeVisible();
  await expect(outboxBar(page)).toContainText('1 change made offline');
  expect(attempts).toEqual([]);

  await expect(close).toBeDisabled();
  await expect(close).toHaveAttribute('title', CLOSE_NEEDS_CONNECTION);
  await expect(fxPanel(page).getByText(`${CLOSE_NEEDS_CONNECTION}.`)).toBeVisible();

  // Back online: Close is back, and the kept edit is offered; the user discards it.
  await context.setOffline(false);
  await expect(close).toBeEnabled();
  const review = reviewDialog(page);
  await expect(review).toBeVisible({ timeout: 30_000 });
  await review.getByRole('button', { name: /^Discard / }).click();
  await expect(page.getByRole('status').filter({ hasText: `TP/SL of ${p.symbol} ${p.type} (${p.account}): discarded.` })).toBeVisible();
  await expect(review).toBeHidden();
  await expect(outboxBar(page)).toHaveCount(0);
  expect(await storedChanges(page)).toEqual([]);
  expect(tried).toEqual([]);

  // A close dialog open when the network goes cannot confirm either. Any position will do: the one
  // picked a minute ago may have been closed by the simulated trader meanwhile (it was once, in CI).
  await (await rowButton(page, isMobile, await pickPosition(page), 'Close')).click();
  const confirm = page.getByRole('dialog', { name: 'Close Position' });
  await expect(confirm.getByRole('button', { name: 'Confirm close' })).toBeEnabled();
  await context.setOffline(true);
  await expect(confirm.getByRole('button', { name: 'Confirm close' })).toBeDisabled();
  await expect(confirm.getByRole('button', { name: 'Confirm close' })).toHaveAttribute('title', CLOSE_NEEDS_CONNECTION);
  await expect(confirm).toContainText(`${CLOSE_NEEDS_CONNECTION}.`);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await context.setOffline(false);
});

test('sign-out removes the changes kept on the device', async ({ page, isMobile }) => {
  await openSummary(page);
  const p = await pickPosition(page);
  await cutApi(page);
  await editLevels(page, isMobile, p, p.levels());
  await expect(outboxBar(page)).toContainText('1 change made offline');
  await expect.poll(async () => (await storedChanges(page)).length).toBe(1);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible();
  expect(await storedChanges(page)).toEqual([]);
  await restoreApi(page);
  await signIn(page, 'admin');
  await expect(page.getByRole('heading', { name: 'Summary', level: 1 })).toBeVisible();
  await expect(outboxBar(page)).toHaveCount(0);
});
