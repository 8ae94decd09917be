import { expect, type Page } from '@playwright/test';

export const USERS = {
  admin: { username: 'admin', password: 'admin-demo' },
  manager: { username: 'manager', password: 'manager-demo' },
  investor: { username: 'investor', password: 'investor-demo' },
} as const;

export type DemoUser = keyof typeof USERS;

/** Fills the sign-in form as a person would. */
export async function signIn(page: Page, who: DemoUser): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible();
  await page.getByLabel('Username').fill(USERS[who].username);
  await page.getByLabel('Password').fill(USERS[who].password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens the collapsed menu on a phone; a no-op on a desktop where the links are always shown. */
export async function openMenu(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: 'Menu' });
  if (await toggle.isVisible()) await toggle.click();
}
