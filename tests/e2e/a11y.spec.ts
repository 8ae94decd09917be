import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './fixtures.ts';

// Every screen at both sizes passes axe's WCAG 2.1 A and AA rules and its best practices (the
// engine behind Lighthouse's accessibility score), once its data is on screen.

const SCREENS = [
  { path: '/', ready: (page: Page) => page.locator('[data-panel="summary-fx"] [data-position]').first() },
  { path: '/accounts', ready: (page: Page) => page.getByRole('heading', { name: 'Information', exact: true }) },
  { path: '/brokers', ready: (page: Page) => page.getByRole('heading', { name: 'Broker Summary' }) },
  { path: '/nav', ready: (page: Page) => page.getByRole('heading', { name: /^Net Asset Value/, level: 1 }) },
  { path: '/rebates', ready: (page: Page) => page.getByRole('heading', { name: /^Rebates - /, level: 1 }) },
  { path: '/copy', ready: (page: Page) => page.getByRole('heading', { name: /^Copy quality - /, level: 1 }) },
] as const;

async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations.map((v) => `${page.url()} ${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => `${n.target.join(" ")} ${n.html.slice(0, 120)}`).slice(0, 3).join(" | ")}`);
}

test('the sign-in page has no accessibility violation', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible();
  expect(await violations(page)).toEqual([]);
});

test('every signed-in screen has no accessibility violation', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/');
  await signIn(page, 'admin');
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  for (const screen of SCREENS) {
    await page.goto(screen.path);
    await expect(screen.ready(page)).toBeVisible({ timeout: 20_000 });
    // Let the staged panels and lazy charts settle.
    await page.waitForTimeout(1500);
    expect({ screen: screen.path, violations: await violations(page) }).toEqual({ screen: screen.path, violations: [] });
  }
});
