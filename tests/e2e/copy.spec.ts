import { expect, test } from '@playwright/test';
import { openMenu, signIn, withSharedStateLock } from './fixtures.ts';

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

  const followers = isMobile ? page.getByRole('list', { name: 'Followers', exact: true }) : page.getByRole('table', { name: 'Followers' });
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
  // A manager (no write) sees who copies whom, but no form to change it.
  await expect(page.getByRole('button', { name: 'Save thresholds' })).toHaveCount(0);
  const relations = page.getByRole('region', { name: 'Copy relations' });
  await expect(relations.getByRole('article').first()).toBeVisible();
  await expect(relations.getByRole('button')).toHaveCount(0);
});

test('a write user moves a follower to a fixed lot through the form, and sets its master’s pairs', async ({ page }) => {
  // The other size's run may hold the shared state a while.
  test.setTimeout(150_000);
  await page.goto('/login');
  await signIn(page, 'admin');
  await expect(page.getByRole('heading', { name: 'Summary', level: 1 })).toBeVisible();
  await page.goto('/copy?portfolio=SMA');
  const relations = page.getByRole('region', { name: 'Copy relations' });
  const master = relations.getByRole('article', { name: 'Master SMA FX Master' });
  await expect(master).toBeVisible();
  // The phone and desktop runs share the server: one of them changes these relations at a time.
  await withSharedStateLock('copy-relations', async () => {
    // What the other run left: read afresh.
    await page.reload();
    await expect(master.getByRole('button', { name: 'Add a follower to SMA FX Master' })).toBeVisible();
    // End the relation of SMA FX Follower 03 (the other run set it up again, if it ran first).
    await master.getByRole('button', { name: 'Edit SMA FX Follower 03' }).click();
    const edit = page.getByRole('dialog', { name: 'Copying of SMA FX Follower 03' });
    await edit.getByRole('button', { name: 'End…' }).click();
    await edit.getByRole('button', { name: 'End relation' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'SMA FX Follower 03 no longer copies SMA FX Master.' })).toBeVisible();
    await expect(master.getByText('SMA FX Follower 03')).toHaveCount(0);

    // Add it back: a fixed lot, capped, with an equity stop; a refusal first shows the server's words.
    await master.getByRole('button', { name: 'Add a follower to SMA FX Master' }).click();
    const add = page.getByRole('dialog', { name: 'Add a follower to SMA FX Master' });
    const option = (await add.getByRole('option', { name: /^SMA FX Follower 03 / }).textContent())!;
    await add.getByLabel('Follower').selectOption({ label: option });
    await add.getByRole('radio', { name: 'Fixed lot' }).click();
    await add.getByLabel('Lots of every copy').fill('0');
    await add.getByRole('button', { name: 'Start copying' }).click();
    await expect(add.getByRole('alert')).toHaveText('sizing.lot must be at least 0.01');
    await add.getByLabel('Lots of every copy').fill('0.05');
    await add.getByLabel('Max lots').fill('1');
    await add.getByLabel(/^Equity stop \(/).fill('1000');
    await expect(add.getByText('A 1-lot master trade is copied at 0,05 lot.')).toBeVisible();
    await add.getByRole('button', { name: 'Start copying' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'SMA FX Follower 03 now copies SMA FX Master (fixed 0.05, at most 1).' })).toBeVisible();
    await expect(master.getByRole('listitem').filter({ hasText: 'SMA FX Follower 03' })).toContainText('fixed 0,05 lot, at most 1 lot');
    await expect(master.getByRole('listitem').filter({ hasText: 'SMA FX Follower 03' })).toContainText(/stop 1\s000,00/);

    // The API holds what the form set.
    const login = await page.request.post('/api/login', { data: { username: 'admin', password: 'admin-demo' } });
    const key = ((await login.json()) as { data: { api_key: string } }).data.api_key;
    const listed = await page.request.get('/api/copy/relations?portfolio=SMA', { headers: { 'x-api-key': key } });
    const { data } = (await listed.json()) as { data: { follower: { account_name: string }; sizing: unknown; max_lot: number | null; equity_stop: number | null }[] };
    expect(data.find((r) => r.follower.account_name === 'SMA FX Follower 03')).toMatchObject({ sizing: { mode: 'fixed', lot: 0.05 }, max_lot: 1, equity_stop: 1000 });

    // The master's pairs: allow AUDJPY, then take it back.
    for (const checked of [true, false]) {
      await master.getByRole('button', { name: 'Pairs of SMA FX Master' }).click();
      const pairs = page.getByRole('dialog', { name: 'Pairs copied from SMA FX Master' });
      await pairs.getByRole('checkbox', { name: 'AUDJPY' }).setChecked(checked);
      await pairs.getByRole('button', { name: 'Save pairs' }).click();
      await expect(pairs).toBeHidden();
      if (checked) await expect(master).toContainText('AUDJPY');
      else await expect(master).not.toContainText('AUDJPY');
    }
  });
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
