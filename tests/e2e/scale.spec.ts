import { expect, test } from '@playwright/test';
import {
  CLUSTER_DB,
  CLUSTER_REDIS,
  freePort,
  freshSchema,
  hasHaproxy,
  startBalancer,
  startInstance,
  stopInstance,
  type Balancer,
  type Instance,
} from '../integration/helpers/cluster.ts';

/**
 * Several instances behind the checked-in HAProxy configuration (issue 19): the page's live feed is
 * on the instance that is killed; the client reconnects with its backoff, through the balancer, to
 * the survivor (which takes the market over), without a page reload. Runs when TEST_DATABASE_URL and
 * TEST_REDIS_URL are set and HAProxy is installed (.ci/run sees to all three).
 */
test.describe('behind the load balancer', () => {
  test.skip(!CLUSTER_DB || !CLUSTER_REDIS || !hasHaproxy(), 'needs TEST_DATABASE_URL, TEST_REDIS_URL and haproxy');

  test('the live feed survives the death of its instance without a reload', async ({ page }) => {
    test.setTimeout(180_000);
    const { schema, drop } = await freshSchema('e2e_scale');
    const env = { DATABASE_URL: CLUSTER_DB!, DATABASE_SCHEMA: schema, REDIS_URL: CLUSTER_REDIS!, DEMO: '1', STATIC_DIR: process.env.E2E_STATIC_DIR ?? 'dist', TRUST_PROXY: 'loopback' };
    const instances: Instance[] = [];
    let balancer: Balancer | undefined;
    try {
      // The first leads; the second is the balancer's backup, so the page's socket is on the first.
      instances.push(await startInstance(env, await freePort()));
      instances.push(await startInstance(env, await freePort()));
      const [first, second] = instances as [Instance, Instance];
      balancer = await startBalancer([first.port, second.port], { backup: true });

      const sockets: string[] = [];
      const ticksAfter = (t: number) => frames.filter((f) => f.timestamp > t).length;
      const frames: { timestamp: number }[] = [];
      page.on('websocket', (ws) => {
        sockets.push(ws.url());
        ws.on('framereceived', (frame) => {
          try {
            const m = JSON.parse(String(frame.payload)) as { type?: string; timestamp?: number };
            // A snapshot, or a delta of one (the page takes deltas): either is a tick of a running market.
            if ((m.type === 'snapshot' || m.type === 'delta') && typeof m.timestamp === 'number') frames.push({ timestamp: m.timestamp });
          } catch {
            /* not JSON */
          }
        });
      });

      await page.goto(`${balancer.url}/login`);
      await page.getByLabel('Username').fill('admin');
      await page.getByLabel('Password').fill('admin-demo');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('heading', { name: 'Summary', level: 1 })).toBeVisible();
      await expect(page.locator('[data-connection="live"]').first()).toBeVisible({ timeout: 15_000 });
      await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
      const opened = sockets.length;

      const killedAt = Date.now();
      await stopInstance(first, 'SIGKILL');
      // The client notices, reconnects through the balancer to the survivor, and ticks flow again
      // from the market the survivor now runs (counting snapshots alone raced: a reconnect after the
      // takeover gets one snapshot, then deltas).
      await expect.poll(() => sockets.length, { timeout: 30_000 }).toBeGreaterThan(opened);
      await expect.poll(() => ticksAfter(killedAt), { timeout: 30_000 }).toBeGreaterThan(1);
      await expect(page.locator('[data-connection="live"]').first()).toBeVisible({ timeout: 15_000 });
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
      const ready = (await (await fetch(`${second.url}/ready`)).json()) as { market: { running: boolean } };
      expect(ready.market.running).toBe(true);
    } finally {
      await balancer?.stop();
      await Promise.all(instances.map((i) => stopInstance(i)));
      await drop();
    }
  });
});
