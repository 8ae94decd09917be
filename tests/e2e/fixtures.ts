import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

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
  // The top bar comes a moment after the screen (AppLayout): wait for it, then open the menu if
  // this is a phone.
  await page.locator('#main-nav').waitFor({ state: 'attached' });
  const toggle = page.getByRole('button', { name: 'Menu' });
  if (await toggle.isVisible()) await toggle.click();
}

/**
 * The phone and desktop runs share one server: a test that changes what the other reads (the bridge
 * switch, the open positions of a portfolio) takes turns with it through a directory lock.
 */
export async function withSharedStateLock<T>(name: string, work: () => Promise<T>): Promise<T> {
  const lock = path.join(os.tmpdir(), `copy-monitor-e2e-${name}-${path.basename(process.env.E2E_DATA_DIR ?? 'default')}`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await fs.mkdir(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${name} lock not released`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await work();
  } finally {
    await fs.rmdir(lock);
  }
}

/** Drags a card from its right edge to the left, as a finger would (it is brought into view first). */
export async function swipeLeft(page: Page, card: Locator): Promise<void> {
  await card.scrollIntoViewIfNeeded();
  const box = await card.boundingBox();
  if (!box) throw new Error('card not visible');
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width - 20, y);
  await page.mouse.down();
  for (let i = 1; i <= 10; i += 1) await page.mouse.move(box.x + box.width - 20 - i * 24, y);
  await page.mouse.up();
}
