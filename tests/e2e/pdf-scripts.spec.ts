import { expect, test } from '@playwright/test';
import { downloadFrom, freezeResponses, readPdf, signInAt } from './navreb-helpers.ts';

// The page's requests must reach page.route, not be answered by the service worker.
test.use({ serviceWorkers: 'block' });

/** Account names in Cyrillic, Arabic, Hebrew, Chinese, Korean and Greek (issue 39, item 7). */
const NAMES = ['Сметка Иванов', 'حساب', 'חשבון', '账户', '계좌', 'Λογαριασμός'];

test('the NAV report prints account names in every script, its fonts fetched only for the report', async ({ page }) => {
  const fonts: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('.woff')) fonts.push(new URL(request.url()).pathname);
  });
  await freezeResponses(page, '**/api/brokers/accounts/info*', (json) => {
    const accounts = (json as { data: { account_name: string; balance: number }[] }).data.filter((a) => a.balance !== 0);
    accounts.forEach((a, i) => (a.account_name = `${NAMES[i % NAMES.length]} ${i}`));
    return json;
  });
  await signInAt(page, '/nav', 'admin');
  const button = page.getByRole('button', { name: 'Download PDF' });
  await expect(button).toBeEnabled();
  expect(fonts).toEqual([]);

  const pdf = await readPdf(await downloadFrom(page, button));
  for (const name of NAMES) expect(pdf.all).toContain(name);
  // The Latin subset always; Cyrillic, Greek, Hebrew, Arabic and the Chinese and Korean subsets
  // of these names only, not all of Noto Sans SC's hundred.
  expect(fonts).toContainEqual(expect.stringMatching(/\/noto-sans-latin-400-normal-[\w-]+\.woff$/));
  expect(fonts).toContainEqual(expect.stringMatching(/\/noto-sans-arabic-arabic-400-normal-[\w-]+\.woff$/));
  expect(fonts.filter((f) => f.includes('/noto-sans-sc-')).length).toBeLessThanOrEqual(4);
});
