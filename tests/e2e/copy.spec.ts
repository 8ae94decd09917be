import { expect, test } from '@playwright/test';
import { openMenu, signIn } from './fixtures.ts';

interface Follower {
  account_id: string;
  account_name: string;
  is_copy: boolean;
  master: { account_name: string } | null;
  copied: number;
  missed: number;
  tracking_difference: number | null;
}

const points = (x: number) => `${x > 0 ? '+' : ''}${x.toFixed(2).replace('.', ',').replace('-', '-')} pts`;

test('the Copy screen shows each follower against its master, on a phone and on a desktop', async ({ page, isMobile }) => {
  await page.goto('/login');
  await signIn(page, 'manager');
  await expect(page.getByRole('heading', { name: 'Summary', level: 1 })).toBeVisible();
  // Summary's strip of the bridge's health links to the screen.
  await expect(page.getByRole('status', { name: 'Bridge health' })).toContainText(/Bridge: /);

  await openMenu(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Copy', exact: true }).click();
  await expect(page.getByRole('heading', { name: /^Copy quality - / })).toBeVisible();
  await expect(page).toHaveURL(/\/copy/);

  // The figures on screen are the API's, for the same portfolio and period.
  const login = await page.request.post('/api/login', { data: { username: 'manager', password: 'manager-demo' } });
  const key = ((await login.json()) as { data: { api_key: string } }).data.api_key;
  const portfolio = (await page.getByRole('heading', { name: /^Copy quality - / }).textContent())!.replace('Copy quality - ', '');
  const res = await page.request.get(`/api/copy/report?portfolio=${encodeURIComponent(portfolio)}&period=1m`, { headers: { 'x-api-key': key } });
  expect(res.status()).toBe(200);
  const { data } = (await res.json()) as { data: { followers: Follower[] } };
  const follower = data.followers.find((f) => f.is_copy && f.tracking_difference !== null)!;
  expect(follower).toBeDefined();

  const followers = isMobile ? page.getByRole('list', { name: 'Followers' }) : page.getByRole('table', { name: 'Followers' });
  await expect(followers).toBeVisible();
  const row = isMobile ? followers.getByRole('listitem').filter({ hasText: follower.account_name }) : followers.getByRole('row').filter({ hasText: follower.account_name });
  await expect(row.first()).toContainText(follower.master!.account_name);
  await expect(row.first()).toContainText(points(follower.tracking_difference!));
  await expect(row.first()).toContainText(String(follower.copied));

  // The chart of a follower against its master, its copies and misses.
  await expect(page.getByRole('figure', { name: /^Growth of .+ against .+/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Recent copies' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Brokers by copy quality' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Net currency exposure' })).toBeVisible();
  // A manager (no write) sees the equity stop but no form to change it.
  await expect(page.getByRole('button', { name: 'Save thresholds' })).toHaveCount(0);
});

test('a write user saves risk thresholds and gets a clear refusal for one out of range', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, 'admin');
  await expect(page.getByRole('heading', { name: 'Summary', level: 1 })).toBeVisible();
  await page.goto('/copy');
  await expect(page.getByRole('heading', { name: /^Copy quality - / })).toBeVisible();
  await page.getByLabel('Min margin level (%)').fill('-5');
  await page.getByRole('button', { name: 'Save thresholds' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'min_margin_level_pct must not be under 0' })).toBeVisible();
});
