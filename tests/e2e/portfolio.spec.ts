import { expect, test, type Page } from '@playwright/test';
import { openMenu, signIn } from './fixtures.ts';

const search = (page: Page) => new URL(page.url()).searchParams.get('portfolio');

test('the portfolio parameter: added on choice, removed for Consolidated, kept across pages', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, 'admin');
  await expect(page.getByRole('heading', { name: 'Summary' })).toBeVisible();
  expect(search(page)).toBeNull();

  await page.goto('/nav?portfolio=SMA');
  await expect(page.getByRole('heading', { name: 'Net Asset Value - SMA' })).toBeVisible();
  await openMenu(page);
  await page.getByRole('link', { name: 'Brokers' }).click();
  await expect(page.getByRole('heading', { name: 'Brokers' })).toBeVisible();
  expect(search(page)).toBe('SMA');

  // Choosing a portfolio in the dropdown puts it in the URL; Consolidated removes the parameter.
  await page.goto('/nav?portfolio=SMA');
  await page.getByRole('button', { name: /Select Portfolio/ }).click();
  const options = page.getByRole('option');
  await expect(options).toHaveText([/Consolidated Portfolio$/, /Global FX$/, /Global Equity$/, /SMA$/, /AMC$/]);
  await page.getByRole('option', { name: 'Global Equity' }).click();
  await expect(page.getByRole('heading', { name: 'Net Asset Value - Global Equity' })).toBeVisible();
  expect(search(page)).toBe('Global Equity');
  await page.getByRole('button', { name: /Select Portfolio/ }).click();
  await page.getByRole('option', { name: 'Consolidated Portfolio' }).click();
  await expect(page.getByRole('heading', { name: 'Net Asset Value - Consolidated Portfolio' })).toBeVisible();
  expect(search(page)).toBeNull();

  // All is allowed on rebates only.
  await page.goto('/rebates?portfolio=All');
  await expect(page.getByRole('heading', { name: 'Rebates - All' })).toBeVisible();
  await page.goto('/nav?portfolio=All');
  await expect(page.getByRole('heading', { name: 'Net Asset Value - Consolidated Portfolio' })).toBeVisible();
  expect(search(page)).toBeNull();
});

test('an unauthorised portfolio switches to the first authorised one, and the dropdown lists only those', async ({ page }) => {
  await page.goto('/nav?portfolio=AMC');
  await signIn(page, 'investor');
  await expect(page.getByRole('heading', { name: 'Net Asset Value - Global FX' })).toBeVisible();
  expect(search(page)).toBe('Global FX');
  await page.getByRole('button', { name: /Select Portfolio/ }).click();
  await expect(page.getByRole('option')).toHaveText([/Global FX$/]);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('option')).toHaveCount(0);
  // The page never overflows the phone's width.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
