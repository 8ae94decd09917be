import { expect, test } from '@playwright/test';
import { openMenu, signIn } from './fixtures.ts';

// Issue 40 item 8: the statement is one tap away, from Accounts and from the menu.
test('Statements is one tap from Accounts and from the menu', async ({ page }) => {
  await page.goto('/');
  await signIn(page, 'admin');
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));

  await openMenu(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Statements' }).click();
  await expect(page).toHaveURL(/\/accounts.*#statements$/);
  const panel = page.getByRole('region', { name: 'Fees & statement' });
  await expect(panel).toBeInViewport({ timeout: 20_000 });

  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('#main').getByRole('link', { name: 'Statements' }).click();
  await expect(panel).toBeInViewport();
});
