import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signIn, USERS } from './fixtures.ts';

/*
 * Copy guards on the Copy screen (issue 38, docs/copying.md 'Guards'): a write user sets one through
 * the form, sees its badge move to close-only, re-arms it and removes it; an investor sees the badges
 * and no control. The phone and desktop runs share one server: each works on its own relations.
 */

interface Relation {
  id: number;
  follower: { account_id: string; account_name: string };
}

async function apiKey(request: APIRequestContext): Promise<string> {
  const login = await request.post('/api/login', { data: USERS.admin });
  return ((await login.json()) as { data: { api_key: string } }).data.api_key;
}

async function relationOf(request: APIRequestContext, key: string, follower: string): Promise<Relation> {
  const res = await request.get('/api/copy/relations?portfolio=Global%20FX', { headers: { 'x-api-key': key } });
  const relation = ((await res.json()) as { data: Relation[] }).data.find((r) => r.follower.account_name === follower);
  if (!relation) throw new Error(`no relation into ${follower}`);
  return relation;
}

/** Removes every guard of the follower's account (what a failed run may have left). */
async function removeGuards(request: APIRequestContext, key: string, relation: Relation): Promise<void> {
  const res = await request.get(`/api/copy/guards?account=${relation.follower.account_id}`, { headers: { 'x-api-key': key } });
  for (const g of ((await res.json()) as { data: { id: number; relation: { id: number } | null }[] }).data) {
    if (g.relation?.id !== relation.id) continue;
    await request.delete(`/api/copy/guards/${g.id}`, { headers: { 'x-api-key': key, 'Idempotency-Key': crypto.randomUUID() } });
  }
}

async function openCopy(page: Page, who: 'admin' | 'investor') {
  await page.goto('/login');
  await signIn(page, who);
  await expect(page.getByRole('heading', { name: 'Summary', level: 1 })).toBeVisible();
  await page.goto('/copy?portfolio=Global%20FX');
  const relations = page.getByRole('region', { name: 'Copy relations' });
  await expect(relations.getByRole('article', { name: 'Master GFX Alpha Master' })).toBeVisible();
  return relations;
}

test('a write user sets a guard through the form, sees its badge, re-arms it and removes it', async ({ page, isMobile }) => {
  const follower = isMobile ? 'GFX Follower 05' : 'GFX Follower 06';
  const key = await apiKey(page.request);
  const relation = await relationOf(page.request, key, follower);
  await removeGuards(page.request, key, relation);
  try {
    const relations = await openCopy(page, 'admin');
    const row = relations.getByRole('listitem').filter({ has: page.getByText(follower, { exact: true }) });
    await row.getByRole('button', { name: `Add a guard to ${follower}` }).click();
    const form = page.getByRole('dialog', { name: `Guard on ${follower}` });
    await expect(form.getByText(`Copies of GFX Alpha Master into ${follower}, measured on the follower's equity.`)).toBeVisible();
    // An equity floor far above the follower's equity: it reaches close-only at its next measure.
    await form.getByLabel('Measure').selectOption('equity_floor');
    await expect(form.getByText('The equity itself, in money: a level is reached when the equity falls to it.')).toBeVisible();
    // Levels out of order are refused before anything is sent, in the screen's words.
    await form.getByRole('textbox', { name: /^Warn/ }).fill('900000000');
    await form.getByRole('textbox', { name: /^Close-only/ }).fill('1000000000');
    await form.getByRole('button', { name: 'Set guard' }).click();
    await expect(form.getByRole('alert')).toHaveText("An equity floor's levels must fall: warn > close-only > close-all.");
    await form.getByRole('textbox', { name: /^Warn/ }).fill('1000000000');
    await form.getByRole('textbox', { name: /^Close-only/ }).fill('900000000');
    await form.getByRole('button', { name: 'Set guard' }).click();
    await expect(page.getByRole('status').filter({ hasText: /Guard \d+ set: relation equity floor\./ })).toBeVisible();
    await expect(form).toBeHidden();

    const badge = row.getByRole('list', { name: `Guards of ${follower}` }).getByRole('listitem');
    await expect(badge).toHaveCount(1);
    await expect(badge).toContainText(/Equity floor 1\s000\s000\s000\/900\s000\s000\/—/u);
    // Measured on the next snapshot, read again within 15 s.
    await expect(badge).toHaveAttribute('data-state', 'close_only', { timeout: 40_000 });
    await expect(badge).toContainText('close-only');
    await expect(badge).toContainText(/equity \d/u);

    // Its details, then a re-arm from today's equity.
    await badge.getByRole('button').click();
    const details = page.getByRole('dialog', { name: 'Equity floor guard' });
    await expect(details).toContainText('Close-only: no new copies; the master’s closes and SL/TP changes are still copied.');
    await expect(details).toContainText(`Relation guard of ${follower} ← GFX Alpha Master.`);
    await details.getByRole('button', { name: 'Re-arm…' }).click();
    await expect(details.getByRole('button', { name: 'Re-arm guard' })).toBeDisabled();
    await details.getByRole('radio', { name: /^Start afresh from today’s equity/ }).check();
    await details.getByRole('button', { name: 'Re-arm guard' }).click();
    await expect(page.getByRole('status').filter({ hasText: /Guard \d+ re-armed from today's equity\./ })).toBeVisible();
    await expect(details).toBeHidden();

    // Removed after a confirmation: the badge goes.
    await badge.getByRole('button').click();
    await details.getByRole('button', { name: 'Remove…' }).click();
    await expect(details).toContainText('Remove this guard?');
    await details.getByRole('button', { name: 'Remove guard' }).click();
    await expect(page.getByRole('status').filter({ hasText: /Guard \d+ removed\./ })).toBeVisible();
    await expect(row.getByRole('list', { name: `Guards of ${follower}` })).toHaveCount(0);
  } finally {
    await removeGuards(page.request, key, relation);
  }
});

test('an investor sees each relation’s guard badge and its legend, and no control', async ({ page, isMobile }) => {
  const follower = isMobile ? 'GFX Follower 03' : 'GFX Follower 04';
  const key = await apiKey(page.request);
  const relation = await relationOf(page.request, key, follower);
  await removeGuards(page.request, key, relation);
  const set = await page.request.put('/api/copy/guards', {
    headers: { 'x-api-key': key, 'Idempotency-Key': crypto.randomUUID() },
    data: { scope: 'relation', target: relation.id, basis: 'trailing_from_peak', warn: 15, close_only: 20, close_all: 25 },
  });
  expect(set.status()).toBe(200);
  try {
    const relations = await openCopy(page, 'investor');
    const row = relations.getByRole('listitem').filter({ has: page.getByText(follower, { exact: true }) });
    const badge = row.getByRole('list', { name: `Guards of ${follower}` }).getByRole('listitem');
    await expect(badge).toContainText(/^armed Trailing 15\/20\/25\s%/u);
    await expect(badge).toHaveAttribute('data-state', 'armed');
    await expect(relations.getByTestId('guard-legend')).toContainText('A guard never resumes by itself.');
    // No control anywhere on the panel: no badge to open, no '+ Guard', no Edit.
    await expect(relations.getByRole('button')).toHaveCount(0);
  } finally {
    await removeGuards(page.request, key, relation);
  }
});
