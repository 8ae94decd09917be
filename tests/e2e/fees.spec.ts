import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './fixtures.ts';
import { apiGet } from './accounts-helpers.ts';

// A write user sets a follower's fee terms in the app, and any user takes the statement of a period
// as a file (docs/fees.md). The terms start on the first day of next month: they change no figure
// another test reads today.

interface TermsBody {
  data: { account: { account_id: string; account_name: string }; versions: { effective_from: string; terms: { performance: { rate: number } | null; management: { annual_rate: number } | null } }[] };
}

const firstOfNextMonth = () => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
};

/** The Accounts screen with its first account's panels drawn, scrolled to the fees panel. */
async function openFeesPanel(page: Page, who: 'admin' | 'investor') {
  await page.goto('/accounts');
  await signIn(page, who);
  await expect(page.getByRole('heading', { name: 'Accounts', level: 1 })).toBeVisible();
  const panel = page.getByRole('region', { name: 'Fees & statement' });
  await panel.scrollIntoViewIfNeeded();
  await expect(panel.getByText('High-water mark')).toBeVisible();
  return panel;
}

test('a write user sets fee terms from next month, and the server holds exactly them', async ({ page }) => {
  const panel = await openFeesPanel(page, 'admin');
  const accountId = await page.locator('.account-panels').first().getAttribute('data-account');
  await panel.getByRole('button', { name: 'Set fee terms' }).click();
  const form = panel.getByRole('form', { name: /^Set fee terms of / });
  await expect(form.getByLabel('In force from')).toHaveValue(firstOfNextMonth());
  await form.getByLabel('Performance fee (% above the mark)').fill('30');
  await form.getByRole('checkbox', { name: 'Charge a management fee' }).check();
  await form.getByLabel('Management fee (% a year)').fill('1.5');
  await form.getByRole('button', { name: 'Save terms' }).click();
  await expect(panel.getByRole('status')).toContainText(`set from ${firstOfNextMonth().split('-').reverse().join('/')}`);
  await expect(panel.getByRole('list', { name: 'Terms to come' })).toContainText('30 % performance fee');

  const { body } = await apiGet<TermsBody>(page, `/api/fees/terms?account=${accountId}`);
  expect(body.data.versions.find((v) => v.effective_from === firstOfNextMonth())?.terms).toMatchObject({
    performance: { rate: 0.3 },
    management: { annual_rate: 0.015 },
  });
});

test('an investor sees no terms form, and downloads the statement of last month as CSV and PDF', async ({ page }) => {
  const panel = await openFeesPanel(page, 'investor');
  await expect(panel.getByRole('button', { name: 'Set fee terms' })).toHaveCount(0);
  await panel.getByRole('radio', { name: 'Last month' }).click();

  const [csv] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download CSV' }).click()]);
  expect(csv.suggestedFilename()).toMatch(/^statement_.+_\d{4}-\d{2}-01_\d{4}-\d{2}-\d{2}\.csv$/);
  const text = fs.readFileSync(await csv.path(), 'utf8').replace(/^\uFEFF/, '');
  expect(text.split('\r\n')[0]).toBe('Item,Amount,Currency');
  expect(text).toMatch(/\r\nClosing balance,-?\d+(\.\d+)?,[A-Z]{3}\r\n/);

  const [pdf] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download PDF' }).click()]);
  expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
  expect(fs.readFileSync(await pdf.path()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
});
