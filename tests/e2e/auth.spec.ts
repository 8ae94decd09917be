import { expect, test } from '@playwright/test';
import { openMenu, signIn } from './fixtures.ts';

test('admin signs in, lands on Summary, keeps the session on reload and logs out', async ({ page, isMobile }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, 'admin');
  await expect(page.getByRole('heading', { name: 'Summary' })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  // The version is in the bar on large screens and inside the menu on phones.
  if (isMobile) await openMenu(page);
  await expect(page.getByText(/^(Version )?1\.0\.9$/).filter({ visible: true })).toBeVisible();
  if (isMobile) await openMenu(page);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user_data') ?? '{}') as Record<string, unknown>);
  expect(stored.restrictions).toEqual(['write', 'read_rebate']);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Summary' })).toBeVisible();

  await openMenu(page);
  await expect(page.getByRole('link', { name: 'Rebates' })).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('user_data'))).toBeNull();
  // The key was revoked on the server too: the back button does not bring the session back.
  await page.goto('/accounts');
  await expect(page).toHaveURL(/\/login/);
});

test('an unauthenticated visit to /nav goes to sign-in and back to /nav after it', async ({ page }) => {
  await page.goto('/nav');
  await expect(page).toHaveURL(/\/login\?redirect=/);
  await signIn(page, 'manager');
  // The manager has no Consolidated Portfolio: the page opens on the first authorised one.
  await expect(page).toHaveURL(/\/nav\?portfolio=Global\+FX$/);
  await expect(page.getByRole('heading', { name: /^Net Asset Value - / })).toBeVisible();
  // Signed in, the sign-in page sends the user home.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/(\?portfolio=[^/]*)?$/);
});

test('the investor sees Access Denied on /rebates and no Rebates link', async ({ page }) => {
  await page.goto('/rebates');
  await signIn(page, 'investor');
  await expect(page).toHaveURL(/\/rebates(\?|$)/);
  await expect(
    page.getByText('Access Denied - You do not have the required permissions to view this page.'),
  ).toBeVisible();
  await openMenu(page);
  await expect(page.getByRole('link', { name: 'Nav' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Rebates' })).toHaveCount(0);
});

test('a wrong password shows the server message and keeps the user on sign-in', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid username or password.');
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText(/© \d{4}/)).toBeVisible();
});

test('the links collapse into a menu on a phone that closes after navigating, and stay shown on a desktop', async ({
  page,
  isMobile,
}) => {
  await page.goto('/login');
  await signIn(page, 'admin');
  await expect(page.getByRole('heading', { name: 'Summary' })).toBeVisible();
  // The top bar is drawn (it follows the screen by a moment), so what is hidden is hidden by design.
  await page.locator('#main-nav').waitFor({ state: 'attached' });
  if (!isMobile) {
    await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
    await page.getByRole('link', { name: 'Accounts' }).click();
    await expect(page.getByRole('heading', { name: 'Accounts' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Brokers' })).toBeVisible();
    return;
  }
  await expect(page.getByRole('link', { name: 'Accounts' })).toBeHidden();
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('link', { name: 'Accounts' }).click();
  await expect(page.getByRole('heading', { name: 'Accounts' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Brokers' })).toBeHidden();
});
