import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page, type Route } from '@playwright/test';
import { signIn } from './fixtures.ts';
import { pageOverflow } from './accounts-helpers.ts';
import { pick } from './navreb-helpers.ts';

/**
 * Accounts fed by their broker's statements (an Interactive Brokers account and its Flex fetch). The
 * demo has none, so each test lays the new fields over the server's real answers (an account's
 * `feed`, a live row's `as_of`, a NAV row's broker NAV) or answers the Flex routes the way
 * src/server/broker/ibkr/flex-routes.ts does; nothing here changes what other tests read.
 */

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
const TOKEN = 'AbC123def456GhI789';
// 27 November 2026, the day a statement marked a position (the start of its UTC day).
const AS_OF = Date.UTC(2026, 10, 27) / 1000;

/** Every account as one fed by statements. */
async function statementFedAccounts(page: Page): Promise<void> {
  await page.route('**/api/brokers/accounts/info*', async (route) => {
    if (new URL(route.request().url()).searchParams.get('only_broker_name') === 'true') return route.fallback();
    const response = await route.fetch();
    const body = (await response.json()) as { data: { feed: string }[] };
    for (const account of body.data) account.feed = 'statement';
    await route.fulfill({ response, json: body });
  });
}

/** The Flex routes of one account: the status, a PUT that sets it, and a fetch that books a statement. */
async function flexRoutes(page: Page, sent: { method: string; body: unknown }[]): Promise<void> {
  let status = { token_set: false, query_id: null as string | null, token_expires: null as string | null, last_status: null, last_error: null, last_fetch_at: null, next_fetch_at: null };
  await page.route(/\/api\/accounts\/[^/]+\/flex(\/fetch)?$/, async (route: Route) => {
    const request = route.request();
    const account = decodeURIComponent(new URL(request.url()).pathname.split('/')[3] ?? '');
    sent.push({ method: request.method(), body: request.postDataJSON() as unknown });
    if (request.method() === 'PUT') {
      const body = request.postDataJSON() as { query_id: string; token_expires: string | null };
      status = { ...status, token_set: true, query_id: body.query_id, token_expires: body.token_expires };
    }
    if (request.method() === 'POST') {
      return route.fulfill({
        json: {
          message: 'Imported: 3 added, 0 updated, 0 skipped.',
          format: 'ibkr-flex',
          added: 3,
          updated: 0,
          skipped: 0,
          statements: [
            {
              account,
              booked: true,
              reason: null,
              base_currency: 'EUR',
              base_rule: 'AccountInformation@currency',
              trades: 3,
              cash: [
                { currency: 'EUR', cash_start: 10_000, cash_end: 8_512.5, realized: 0, commissions: 0 },
                { currency: 'USD', cash_start: 0, cash_end: -1_751, realized: 345, commissions: -1.95 },
              ],
            },
            { account: 'U7654321', booked: false, reason: 'No account U7654321 is registered in your portfolios: its statement is not booked.', base_currency: null, base_rule: null, trades: 0, cash: [] },
          ],
          warnings: [],
        },
      });
    }
    return route.fulfill({ json: { data: { account_id: account, ...status } } });
  });
}

test('admin: an account fed by statements has its Interactive Brokers Flex panel: set a token, fetch now, read the summary', async ({ page }) => {
  const sent: { method: string; body: unknown }[] = [];
  await statementFedAccounts(page);
  await flexRoutes(page, sent);
  await page.goto('/accounts');
  await signIn(page, 'admin');
  await expect(page.locator('header.account-heading').getByText('Statements', { exact: true })).toBeVisible();
  const panel = page.getByRole('region', { name: 'Interactive Brokers Flex' });
  await expect(panel).toBeVisible();
  await expect(panel.locator('[data-figure="Token"] dd')).toHaveText('Not set');
  await expect(panel.getByRole('button', { name: 'Fetch now' })).toBeDisabled();

  const token = panel.getByLabel('Flex Web Service token');
  await expect(token).toHaveAttribute('type', 'password');
  await expect(token).toHaveAttribute('autocomplete', 'off');
  await token.fill(TOKEN);
  await panel.getByLabel('Query ID').fill('912345');
  await panel.getByLabel('Token expires (optional)').fill('2027-05-27');
  await panel.getByRole('button', { name: 'Save Flex settings' }).click();
  await expect(panel.getByRole('status').filter({ hasText: 'Flex settings saved' })).toBeVisible();
  expect(sent.find((s) => s.method === 'PUT')?.body).toEqual({ token: TOKEN, query_id: '912345', token_expires: '2027-05-27' });
  await expect(panel.locator('[data-figure="Token"] dd')).toHaveText('Set');
  await expect(token).toHaveValue('');
  expect(await page.locator('body').innerText()).not.toContain(TOKEN);

  await panel.getByRole('button', { name: 'Fetch now' }).click();
  const statements = panel.getByRole('list', { name: 'Statements in the file' });
  await expect(statements).toBeVisible();
  await expect(statements.getByRole('listitem').filter({ hasText: 'Not booked' })).toContainText('No account U7654321 is registered');
  await expect(statements.locator('[data-currency="USD"]')).toContainText('Commissions');

  // Readable at this size: nothing sticks out, every control is a finger's height, and axe passes.
  expect(await pageOverflow(page)).toBe(0);
  for (const button of await panel.getByRole('button').all()) expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  const axe = await new AxeBuilder({ page }).include('.ibflex-panel').withTags(AXE_TAGS).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 100)).join(' | ')}`)).toEqual([]);
});

test('investor: an account fed by statements says so, without the Flex panel (write users only)', async ({ page }) => {
  const sent: { method: string; body: unknown }[] = [];
  await statementFedAccounts(page);
  await flexRoutes(page, sent);
  await page.goto('/accounts');
  await signIn(page, 'investor');
  await expect(page.locator('header.account-heading').getByText('Statements', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Information', exact: true })).toBeVisible();
  await page.waitForTimeout(1000);
  await expect(page.getByRole('region', { name: 'Interactive Brokers Flex' })).toHaveCount(0);
  expect(sent).toEqual([]);
});

/**
 * The live feeds as if every Forex buy were a statement's position: the route keeps each feed's rows
 * (a snapshot, then its deltas applied) and hands the page a snapshot of them at every message, the
 * marked rows carrying as_of (a delta could add the field but never take it away).
 */
async function statementBuys(page: Page): Promise<void> {
  await page.routeWebSocket(/\/ws\//, (ws) => {
    const server = ws.connectToServer();
    let rows: Record<string, unknown>[] = [];
    ws.onMessage((message) => server.send(message));
    server.onMessage((message) => {
      const m = typeof message === 'string' ? (JSON.parse(message) as Record<string, unknown>) : null;
      if (m?.type === 'snapshot') rows = m.positionsAggregate as Record<string, unknown>[];
      else if (m?.type === 'delta') {
        rows = rows.slice(0, m.length as number);
        for (const [i, change] of m.changes as [number, Record<string, unknown>][]) rows[i] = { ...rows[i], ...change };
      } else return ws.send(message);
      const marked = rows.map((r) => (r.category === 'Forex' && r.type === 'Buy' ? { ...r, as_of: AS_OF } : r));
      ws.send(JSON.stringify({ type: 'snapshot', timestamp: m.timestamp, version: m.version, positionsAggregate: marked }));
    });
  });
}

test("admin: a statement's position reads 'as of' its day and offers no Edit or Close", async ({ page, isMobile }) => {
  await statementBuys(page);
  await page.goto('/');
  await signIn(page, 'admin');
  const fx = page.locator('[data-panel="summary-fx"]');
  const asOf = page.locator('.ui-as-of');
  const statementRow = fx.locator('[data-position]').filter({ has: asOf }).first();
  await expect(statementRow.locator('.ui-as-of')).toHaveText('as of 27/11/2026');
  await expect(statementRow.getByRole('button', { name: /^(Edit|Close) /, includeHidden: true })).toHaveCount(0);
  if (isMobile) {
    // Its details say the day too, and still offer no order.
    await statementRow.getByRole('button', { expanded: false }).click();
    await expect(statementRow.locator('.ui-trade-field').filter({ hasText: 'Figures as of' })).toContainText('27/11/2026 (statement)');
    await expect(statementRow.getByRole('button', { name: /^(Edit|Close) /, includeHidden: true })).toHaveCount(0);
  } else {
    await expect(statementRow).toContainText('No orders');
  }
  // A live row, where the feeds hold one, keeps both.
  const live = page.locator('[data-position]').filter({ hasNot: asOf }).first();
  if ((await live.count()) > 0) await expect(live.getByRole('button', { name: /^(Edit|Close) /, includeHidden: true })).toHaveCount(2);
  expect(await pageOverflow(page)).toBe(0);
  const axe = await new AxeBuilder({ page }).include('[data-panel="summary-fx"]').withTags(AXE_TAGS).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 100)).join(' | ')}`)).toEqual([]);
});

test("NAV: a day whose rows carry the broker's own NAV shows it and the difference", async ({ page, isMobile }) => {
  // One row of each day: the broker's NAV 12,40 above the books' equity.
  await page.route('**/api/brokers/accounts/historical_infos*', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: { account_name: string; equity: number; broker_equity: number | null; broker_difference: number | null }[] };
    const firstName = body.data[0]?.account_name;
    for (const row of body.data) {
      if (row.account_name !== firstName) continue;
      row.broker_equity = Math.round((row.equity + 12.4) * 100) / 100;
      row.broker_difference = -12.4;
    }
    await route.fulfill({ response, json: body });
  });
  await page.goto('/nav');
  await signIn(page, 'admin');
  await expect(page.getByRole('heading', { name: /^Net Asset Value/, level: 1 })).toBeVisible();
  // Real time: the accounts' live figures, no broker NAV.
  await expect(page.getByText('Broker NAV')).toHaveCount(0);

  await page.getByRole('button', { name: /^NAV data/ }).click();
  const month = page.getByRole('group', { name: 'Historical NAV' }).getByRole('option').first();
  const name = (await month.textContent()) ?? '';
  expect(name).toMatch(/\d{4}$/);
  await month.click();
  const accounts = page.getByRole('region', { name: 'Accounts' });
  if (isMobile) {
    const line = accounts.locator('.ui-card-row').filter({ has: page.getByText('Broker NAV', { exact: true }) });
    await expect(line.first()).toContainText('Difference');
    await expect(line.first()).toContainText('-12,40');
  } else {
    await expect(accounts.getByRole('columnheader', { name: /^Broker NAV/ })).toBeVisible();
    await expect(accounts.getByRole('columnheader', { name: /^Difference/ })).toBeVisible();
    await expect(accounts.getByRole('cell', { name: /^-12,40/ }).first()).toBeVisible();
  }
  expect(await pageOverflow(page)).toBe(0);
  const axe = await new AxeBuilder({ page }).include('.nav-page').withTags(AXE_TAGS).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 100)).join(' | ')}`)).toEqual([]);
  await pick(page, /^NAV data/, 'Real-Time Data');
  await expect(page.getByText('Broker NAV')).toHaveCount(0);
});
