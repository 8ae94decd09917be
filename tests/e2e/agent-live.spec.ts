import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { swipeLeft } from './fixtures.ts';

/**
 * A real installation, set up as the README says (the admin CLI, then DEMO=0), with a fake MT5
 * terminal: its position reaches a signed-in screen within 2 s, and a TP edit there becomes a
 * command the terminal answers; the user sees the terminal's answer.
 */
const run = promisify(execFile);
const ENTRY = 1.0812;

test('an agent opens a position, the screen shows it within 2 s, and a TP edit goes to the terminal and back', async ({ page, isMobile }, info) => {
  test.setTimeout(120_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'copy-monitor-agent-'));
  const port = 4600 + info.parallelIndex * 10 + (isMobile ? 1 : 2);
  const env = { ...process.env, DATA_DIR: dataDir, NEW_PASSWORD: 'ops-password-1' };
  const admin = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'src/server/admin/cli.ts', ...args], { env });
  await admin('user', 'create', 'ops', '--roles', 'write,read_rebate', '--portfolios', 'all');
  await admin('broker', 'add', 'Pepperstone');
  await admin('account', 'add', '--broker', 'Pepperstone', '--login', '51234567', '--server', 'Pepperstone-Live01', '--name', 'Live FX Master', '--currency', 'EUR', '--category', 'global forex');
  await admin('symbol', 'map', '--broker', 'Pepperstone', 'EURUSD.m', 'EURUSD');
  const created = await admin('agent', 'create', 'vps-1', '--account', '51234567@Pepperstone-Live01:trade');
  const key = created.stdout.trim().split('\n').at(-1)!.trim();
  expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);

  let server: ChildProcess | undefined;
  try {
    server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '0', STATIC_DIR: process.env.E2E_STATIC_DIR ?? 'dist', LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    const base = `http://127.0.0.1:${port}`;
    await expect.poll(() => fetch(`${base}/ready`).then((r) => r.status, () => 0), { timeout: 30_000 }).toBe(200);

    // The terminal's session: batch 1 is its account state and (empty) positions.
    const session = randomUUID();
    let seq = 0;
    const report = async (open: object[]) => {
      const res = await fetch(`${base}/api/ingest/v1/batches`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-agent-key': key },
        body: JSON.stringify({
          session, seq: ++seq, batch_id: randomUUID(), utc_offset_minutes: 120, sent_at: Date.now(),
          accounts: [{
            login: '51234567', server: 'Pepperstone-Live01',
            state: { balance: 25_000, equity: 25_120, margin: 1_100, free_margin: 24_020, leverage: 100, currency: 'EUR' },
            positions: { full: true, open, closed: [] },
            quotes: [{ symbol: 'EURUSD', bid: 1.0824, ask: 1.0826 }],
          }],
        }),
      });
      expect(res.status).toBe(200);
    };
    const position = (tp: number) => ({
      identifier: 900, symbol: 'EURUSD.m', type: 'buy', volume: 1.5, price_open: ENTRY, price_current: 1.0824, sl: 0, tp,
      profit: 166.2, swap: 0, time: Math.floor(Date.now() / 1000) + 7_200,
    });
    await report([]);

    await page.goto(`${base}/login`);
    await page.getByLabel('Username').fill('ops');
    await page.getByLabel('Password').fill('ops-password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Summary', level: 1 })).toBeVisible();

    await report([position(0)]);
    const reported = Date.now();
    const row = page.locator('[data-panel="summary-fx"] [data-position^="Live FX Master|EURUSD|Buy"]');
    await expect(row).toBeVisible({ timeout: 2_000 });
    expect(Date.now() - reported).toBeLessThan(2_000);

    // The edit waits for the terminal: it polls, finds the command, runs it and answers done.
    if (isMobile) await swipeLeft(page, row.locator('.summary-swipe-front'));
    await row.getByRole('button', { name: 'Edit EURUSD Buy of Live FX Master' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Position' });
    await dialog.getByLabel('Take profit (TP)').fill('1.09');
    await dialog.getByLabel('Stop loss (SL)').fill('1.07');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const poll = await fetch(`${base}/api/ingest/v1/commands?wait=10`, { headers: { 'x-agent-key': key } });
    const { commands } = (await poll.json()) as { commands: { id: string; kind: string; payload: { identifier: number; tp: number; sl: number } }[] };
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatchObject({ kind: 'modify', payload: { identifier: 900, tp: 1.09, sl: 1.07 } });
    const ack = await fetch(`${base}/api/ingest/v1/commands/${commands[0]!.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-agent-key': key },
      body: JSON.stringify({ state: 'done' }),
    });
    expect(ack.status).toBe(200);
    await expect(page.getByRole('status').filter({ hasText: /Take profit 1\.09000 and stop loss 1\.07000 set on EURUSD (Buy|Sell) in / })).toBeVisible();
  } finally {
    server?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
