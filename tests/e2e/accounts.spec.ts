import { expect, test, type Locator, type Page } from '@playwright/test';
import { signIn } from './fixtures.ts';
import { alphabetical, apiGet, captureResponses, pageOverflow, type Captured } from './accounts-helpers.ts';

interface AccountRow {
  account_id: string;
  account: string;
  account_name: string;
  broker_name: string;
  teiko_category: string;
}
interface Point {
  timestamp: number;
  value: number;
}
type SeriesKey = 'growth' | 'balance' | 'profit' | 'drawdown';
interface DealsBody {
  dealsStats: { account: string; deals: { rebate: number | null }[]; all: Record<SeriesKey, Point[]> }[];
}

const CHART_TYPES: [string, SeriesKey][] = [
  ['Growth', 'growth'],
  ['Balance', 'balance'],
  ['Profit', 'profit'],
  ['Drawdown', 'drawdown'],
];
const PERIODS = ['Last Month', 'Last 3 Months', 'All Time'] as const;

/** The accounts the sidebar should list, in its order: by broker name, then account name. */
async function expectedAccounts(page: Page, portfolio: string): Promise<AccountRow[]> {
  const { body } = await apiGet<{ data: AccountRow[] }>(page, `/api/brokers/accounts/info?portfolio=${encodeURIComponent(portfolio)}`);
  return body.data.toSorted((a, b) => alphabetical(a.broker_name, b.broker_name) || alphabetical(a.account_name, b.account_name));
}

async function chooseAccount(page: Page, isMobile: boolean, name: string): Promise<void> {
  if (isMobile) {
    await page.getByRole('button', { name: /Select an Account/ }).click();
    await page.getByRole('option', { name, exact: true }).click();
  } else {
    await page.getByRole('navigation', { name: 'Select an Account' }).getByRole('button', { name: new RegExp(`^${name}\\b`) }).click();
  }
}

function panel(page: Page, title: string): Locator {
  return page.locator('section').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
}

/** The chart shows exactly the series of the historical-deals response it asked for (same start_date, same account). */
async function expectChartMatchesResponse(
  page: Page,
  responses: Captured<DealsBody>[],
  accountId: string,
  series: SeriesKey,
): Promise<void> {
  const chart = page.getByTestId('performance-chart');
  const compare = async () => {
    const shown = await chart.evaluate((el) => ({ ...(el as HTMLElement).dataset }));
    const match = responses.findLast(
      (r) => r.url.searchParams.get('account') === accountId && (r.url.searchParams.get('start_date') ?? '') === (shown.startDate ?? ''),
    );
    const points = match?.body.dealsStats[0]?.all[series];
    return {
      shown: [Number(shown.points), Number(shown.first), Number(shown.last), Number(shown.firstTs), Number(shown.lastTs)],
      expected: points
        ? [points.length, points[0]?.value, points.at(-1)?.value, points[0]?.timestamp, points.at(-1)?.timestamp]
        : 'no response for this start_date',
    };
  };
  // Wait until the chart and a response agree (the response may still be in flight), then assert.
  await expect.poll(async () => {
    const { shown, expected } = await compare();
    return JSON.stringify(shown) === JSON.stringify(expected);
  }).toBe(true).catch(async () => undefined);
  const { shown, expected } = await compare();
  expect(shown).toEqual(expected);
  expect(shown[0]).toBeGreaterThan(0);
}

test('admin: first account selected, every chart type and period plots the series the server returned', async ({ page, isMobile }) => {
  const deals = captureResponses<DealsBody>(page, '/api/brokers/historical-deals');
  await page.goto('/accounts');
  await signIn(page, 'admin');
  await expect(page.getByRole('heading', { name: 'Accounts', level: 1 })).toBeVisible();

  const accounts = await expectedAccounts(page, 'Consolidated Portfolio');
  const first = accounts[0]!;
  await expect(page.getByRole('heading', { name: first.account_name, level: 2 })).toBeVisible();
  if (isMobile) await expect(page.getByRole('button', { name: /Select an Account/ })).toContainText(first.account_name);
  else await expect(page.getByRole('navigation', { name: 'Select an Account' }).locator('[aria-current="true"]')).toContainText(first.account_name);

  // Defaults: Balance and Last Month, start_date one month before now (in seconds).
  await expect(page.getByRole('radio', { name: 'Balance' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByRole('button', { name: /^Period/ })).toContainText('Last Month');
  const chart = page.getByTestId('performance-chart');
  await expect(chart).toHaveAttribute('data-chart-type', 'Balance');
  const start = Number(await chart.getAttribute('data-start-date'));
  const daysBack = (Date.now() / 1000 - start) / 86_400;
  expect(daysBack).toBeGreaterThanOrEqual(27.9);
  expect(daysBack).toBeLessThanOrEqual(31.1);

  for (const period of PERIODS) {
    if (period !== 'Last Month') {
      await page.getByRole('button', { name: /^Period/ }).click();
      await page.getByRole('option', { name: period, exact: true }).click();
    }
    for (const [type, series] of CHART_TYPES) {
      await page.getByRole('radio', { name: type }).click();
      await expect(chart).toHaveAttribute('data-chart-type', type);
      if (period === 'All Time') await expect(chart).toHaveAttribute('data-start-date', '');
      else await expect(chart).not.toHaveAttribute('data-start-date', '');
      await expectChartMatchesResponse(page, deals, first.account_id, series);
    }
  }
  // The x axis carries en-US short dates, e.g. 'Nov 15'.
  await expect(chart.locator('svg text').filter({ hasText: /^[A-Z][a-z]{2} \d{1,2}$/ }).first()).toBeVisible();

  // Historical trades show a Rebate column (table) or field (cards) for read_rebate.
  const history = panel(page, 'Historical trades');
  await expect(history.getByText('Rebate', { exact: true }).first()).toBeVisible();
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
});

test('admin: switching account resets live positions and loads that account', async ({ page, isMobile }) => {
  const deals = captureResponses<DealsBody>(page, '/api/brokers/historical-deals');
  await page.goto('/accounts');
  await signIn(page, 'admin');
  await expect(page.getByRole('heading', { name: 'Accounts', level: 1 })).toBeVisible();
  const accounts = await expectedAccounts(page, 'Consolidated Portfolio');
  const first = accounts[0]!;
  const other = accounts.find((a) => a.broker_name !== first.broker_name)!;
  const live = page.getByTestId('live-trades');
  await expect(page.getByRole('heading', { name: first.account_name, level: 2 })).toBeVisible();
  await expect(live).toHaveAttribute('data-state', 'live');
  const firstLogins = (await live.getAttribute('data-logins')) ?? '';
  for (const login of firstLogins.split(',').filter(Boolean)) expect(login).toBe(first.account);

  await chooseAccount(page, isMobile, other.account_name);
  await expect(page.getByRole('heading', { name: other.account_name, level: 2 })).toBeVisible();
  // The previous account's rows are gone at once; the new feed's rows all belong to the new account.
  expect((await live.getAttribute('data-logins')) ?? '').not.toContain(first.account);
  await expect(live).toHaveAttribute('data-state', 'live');
  const logins = ((await live.getAttribute('data-logins')) ?? '').split(',').filter(Boolean);
  for (const login of logins) expect(login).toBe(other.account);
  if (logins.length === 0) await expect(live).toContainText('No live trades.');

  // Its own deals are requested and charted.
  await expect.poll(() => deals.some((r) => r.url.searchParams.get('account') === other.account_id)).toBe(true);
  await expectChartMatchesResponse(page, deals, other.account_id, 'balance');
  await expect(page.getByRole('radio', { name: 'Balance' })).toHaveAttribute('aria-checked', 'true');
});

test('investor: no rebate column, and the server refuses the investor rebate figures', async ({ page, isMobile }) => {
  const deals = captureResponses<DealsBody>(page, '/api/brokers/historical-deals');
  await page.goto('/accounts');
  await signIn(page, 'investor');
  await expect(page.getByRole('heading', { name: 'Accounts', level: 1 })).toBeVisible();
  const accounts = await expectedAccounts(page, 'Global FX');
  for (const a of accounts) expect(a.teiko_category).toBe('global forex');
  await expect(page.getByRole('heading', { name: accounts[0]!.account_name, level: 2 })).toBeVisible();

  const history = panel(page, 'Historical trades');
  if (isMobile) await expect(history.getByRole('listitem').first()).toBeVisible();
  else await expect(history.getByRole('columnheader', { name: /Profit/ })).toBeVisible();
  await expect(history.getByText('Rebate', { exact: true })).toHaveCount(0);

  // The server hides deal rebates from the investor and refuses the rebate statistics.
  await expect.poll(() => deals.length).toBeGreaterThan(0);
  for (const response of deals) for (const deal of response.body.dealsStats[0]?.deals ?? []) expect(deal.rebate).toBeNull();
  const rebates = await apiGet<{ message: string }>(page, '/api/stats/rebates?group_by=account&portfolio=Global%20FX');
  expect(rebates.status).toBe(403);
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
});

const RISK_FIGURES = [
  ['Sharpe ratio', 'sharpe_ratio', /√252/],
  ['Sortino ratio', 'sortino_ratio', /downside deviation = √\(Σ min\(r, 0\)² ÷ n\)/],
  ['Expectancy', 'expectancy', /Average net result per closed trade/],
  ['Recovery factor', 'recovery_factor', /Net profit ÷ maximum balance drawdown in money/],
  ['Balance drawdown', 'max_drawdown', /time-weighted growth index/],
  ['Equity drawdown', 'equity_drawdown', /end-of-day equity \(NAV\)/],
] as const;
type RiskKey = (typeof RISK_FIGURES)[number][1];
type StatsBody = { dealsStats: { all: { stats: Record<RiskKey | 'return_days', number | null> } }[] };

/** Shows a label's tooltip as a person would: hover with a mouse, keyboard focus on a phone (no hover there). */
async function openTooltip(page: Page, label: Locator, isMobile: boolean): Promise<Locator> {
  if (isMobile) await label.focus();
  else await label.hover();
  const id = await label.getAttribute('aria-describedby');
  const tip = page.locator(`[id="${id}"]`);
  await expect(tip).toHaveRole('tooltip');
  await expect(tip).toBeVisible();
  return tip;
}

test('admin: the Stats panel shows the risk figures of the server, each label explaining its formula in a tooltip', async ({ page, isMobile }) => {
  const deals = captureResponses<StatsBody>(page, '/api/brokers/historical-deals');
  await page.goto('/accounts');
  await signIn(page, 'admin');
  const figures = panel(page, 'Stats').getByLabel('Risk statistics');
  await expect(figures).toBeVisible();
  // The panel asks for all time (no start_date); its figures are the server's.
  await expect.poll(() => deals.some((r) => !r.url.searchParams.has('start_date'))).toBe(true);
  const body = deals.find((r) => !r.url.searchParams.has('start_date'))!.body.dealsStats[0]!.all.stats;
  expect(body.return_days).toBeGreaterThan(1);
  for (const [label, key] of RISK_FIGURES) {
    const figure = figures.locator(`[data-figure="${label}"]`);
    await expect(figure.getByRole('term')).toHaveText(label);
    const value = body[key];
    if (value === null) await expect(figure.getByRole('definition')).toHaveText('—');
    else await expect(figure).toHaveAttribute('data-value', String(value));
  }

  // Every label is described by its tooltip (aria-describedby), which names the formula.
  for (const [label, , formula] of RISK_FIGURES) {
    await expect(figures.getByText(label, { exact: true })).toHaveAccessibleDescription(formula);
  }
  const tip = await openTooltip(page, figures.getByText('Sharpe ratio', { exact: true }), isMobile);
  await expect(tip).toContainText('Mean daily return ÷ standard deviation of the daily returns (n − 1) × √252, risk-free rate 0');
  await expect(tip).toContainText(`On ${body.return_days} daily returns.`);
  await page.keyboard.press('Escape');
  await expect(tip).toBeHidden();
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
});

test('admin: a risk figure the server cannot compute shows — and its tooltip says why', async ({ page, isMobile }) => {
  // The real answer, with the NAV-based figures as the server sends them for an account without NAV history.
  await page.route(
    (url) => url.pathname === '/api/brokers/historical-deals',
    async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as StatsBody;
      for (const account of body.dealsStats) {
        Object.assign(account.all.stats, { sharpe_ratio: null, sortino_ratio: null, equity_drawdown: null, return_days: 0 });
      }
      await route.fulfill({ response, json: body });
    },
  );
  await page.goto('/accounts');
  await signIn(page, 'admin');
  const figures = page.getByLabel('Risk statistics');
  await expect(figures).toBeVisible();
  for (const label of ['Sharpe ratio', 'Sortino ratio', 'Equity drawdown']) {
    await expect(figures.locator(`[data-figure="${label}"]`).getByRole('definition')).toHaveText('—');
  }
  const tip = await openTooltip(page, figures.getByText('Sharpe ratio', { exact: true }), isMobile);
  await expect(tip).toContainText('√252');
  await expect(tip).toContainText('Needs 2 or more daily returns that vary (0 daily returns).');
  await expect(figures.getByText('Equity drawdown', { exact: true })).toHaveAccessibleDescription(/Needs 2 or more end-of-day NAV snapshots/);
});
