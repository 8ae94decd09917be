import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './fixtures.ts';
import { apiGet, pageOverflow } from './accounts-helpers.ts';

/**
 * Statement import on the Accounts screen (issue 18 item 4). Nothing here changes what other tests
 * read: the files are refused, or hold no deal the books would take.
 */

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]);

/** An MT5 Trade History Report of this account whose five deal rows are of a type the reader skips, each with a warning. */
function reportWithSkippedRows(login: string, currency: string): Buffer {
  const header = ['Time', 'Deal', 'Symbol', 'Type', 'Direction', 'Volume', 'Price', 'Order', 'Commission', 'Fee', 'Swap', 'Profit', 'Balance', 'Comment'];
  const rows = [1, 2, 3, 4, 5].map(
    (i) => `<tr><td>2024.01.0${i} 10:00:00</td><td>${900 + i}</td><td>EURUSD</td><td>rollover fix</td><td>in</td><td>1</td><td>1.1</td><td>${800 + i}</td><td>0</td><td>0</td><td>0</td><td>0</td><td>0</td><td></td></tr>`,
  );
  return Buffer.from(
    `<html><head><title>${login}: Trade History Report</title></head><body><table>
<tr><th colspan="14">Trade History Report</th></tr>
<tr><th>Account:</th><th>${login} (${currency}, Demo-Server, demo, Hedge)</th></tr>
<tr><th colspan="14">Deals</th></tr>
<tr>${header.map((h) => `<td>${h}</td>`).join('')}</tr>
${rows.join('\n')}
<tr><td>Balance:</td><td>0.00</td><td>Free Margin:</td><td>0.00</td></tr>
<tr><td>Credit Facility:</td><td>0.00</td><td>Margin:</td><td>0.00</td></tr>
<tr><td>Floating P/L:</td><td>0.00</td><td>Margin Level:</td><td>0.00%</td></tr>
<tr><td>Equity:</td><td>0.00</td></tr>
</table></body></html>`,
  );
}

/** The account the screen selected, as the API describes it. */
async function selectedAccount(page: Page): Promise<{ account_id: string; account: string; currency: string; account_name: string }> {
  const name = await page.locator('header.account-heading').getByRole('heading').textContent();
  const { body } = await apiGet<{ data: { account_id: string; account: string; currency: string; account_name: string }[] }>(page, '/api/brokers/accounts/info');
  const account = body.data.find((a) => a.account_name === name);
  if (!account) throw new Error(`no account named ${name}`);
  return account;
}

test('admin: imports into the selected account, with the server\'s message for a file that is not its report', async ({ page }) => {
  await page.goto('/accounts');
  await signIn(page, 'admin');
  const trigger = page.getByRole('button', { name: 'Import statement' });
  await expect(trigger).toBeVisible();
  expect((await trigger.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  const account = await selectedAccount(page);

  await trigger.click();
  const dialog = page.getByRole('dialog', { name: 'Import statement' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(account.account_name);
  const file = dialog.getByLabel('Report file');
  await expect(file).toHaveAttribute('accept', '.htm,.html,.xlsx,.xml');
  const offset = dialog.getByLabel('Broker time offset (hours from UTC)');
  await expect(offset).toHaveValue('0');
  const importButton = page.getByRole('button', { name: 'Import', exact: true });
  // Once the dialog has finished scaling in.
  await expect.poll(async () => (await importButton.boundingBox())?.height).toBeGreaterThanOrEqual(44);
  expect(await pageOverflow(page)).toBe(0);

  // Nothing chosen: said so, nothing sent.
  await importButton.click();
  await expect(dialog.getByRole('alert')).toHaveText('Choose a report file to import.');

  // This account's own report, read at UTC+2, sent as the file's bytes. The demo's accounts are the
  // simulated market's: the server refuses before it reads the file, and the dialog shows its words.
  // (How files are read and refused is the integration tests', on accounts that take statements.)
  await file.setInputFiles({ name: `ReportHistory-${account.account}.html`, mimeType: 'text/html', buffer: reportWithSkippedRows(account.account, account.currency) });
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await offset.fill('2');
  const sent = page.waitForRequest((r) => r.url().includes('/api/accounts/import-statement'));
  await importButton.click();
  const request = await sent;
  expect(new URL(request.url()).searchParams.get('utc_offset_minutes')).toBe('120');
  expect(request.headers()['content-type']).toBe('application/octet-stream');
  await expect(dialog.getByRole('alert')).toHaveText(`The account ${account.account} is fed by the simulated market: statements import into real accounts only.`);

  // Any other file gets the same answer: the account, not the file, is what is refused.
  await file.setInputFiles({ name: 'holiday.png', mimeType: 'image/png', buffer: PNG });
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await importButton.click();
  await expect(dialog.getByRole('alert')).toHaveText(`The account ${account.account} is fed by the simulated market: statements import into real accounts only.`);
  expect(await pageOverflow(page)).toBe(0);
  // The shared Modal's own <header> (every dialog of the app has it) counts as a second banner: not this dialog's to fix.
  const axe = await new AxeBuilder({ page })
    .include('[role="dialog"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .disableRules(['landmark-no-duplicate-banner'])
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  // A bad offset is refused before anything is sent.
  await offset.fill('15');
  await importButton.click();
  await expect(dialog.getByRole('alert')).toHaveText("Enter the broker's offset in hours from UTC, from -12 to 14.");

  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  await expect(trigger).toBeFocused();
});

test('investor: no import button', async ({ page }) => {
  await page.goto('/accounts');
  await signIn(page, 'investor');
  await expect(page.locator('header.account-heading').getByRole('heading')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Import statement' })).toHaveCount(0);
});
