import { expect, test, type Page, type Route } from '@playwright/test';

// docs/product.md#errors: the runtime configuration (/config.json) loads before the app, with its two messages.
const LOADING = 'Loading configuration...';
const ERROR = 'Error loading configuration. Please try again later.';

const signInHeading = (page: Page) => page.getByRole('heading', { name: 'Sign in to your account' });

test('the splash says Loading configuration... until /config.json answers, then the sign-in page appears', async ({ page }) => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked = 0;
  await page.route('**/config.json', async (route: Route) => {
    asked += 1;
    await released;
    await route.continue();
  });

  await page.goto('/login', { waitUntil: 'commit' });
  await expect(page.getByText(LOADING)).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(LOADING);
  await expect.poll(() => asked).toBe(1);
  // The app's chunks have had their time: without a configuration it does not start.
  await page.waitForTimeout(1_000);
  await expect(page.getByText(LOADING)).toBeVisible();
  await expect(signInHeading(page)).toHaveCount(0);

  release();
  await expect(signInHeading(page)).toBeVisible();
  await expect(page.getByText(LOADING)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
});

test('a failing /config.json shows the error with Retry and keeps the app from starting; Retry starts it once the server answers', async ({
  page,
}) => {
  let failing = true;
  let asked = 0;
  await page.route('**/config.json', async (route: Route) => {
    asked += 1;
    if (failing) await route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Internal server error."}' });
    else await route.continue();
  });

  await page.goto('/login');
  await expect(page.getByText(ERROR)).toBeVisible();
  await expect(page.getByText(LOADING)).toHaveCount(0);
  const retry = page.getByRole('button', { name: 'Retry' });
  await expect(retry).toBeVisible();
  await page.waitForTimeout(1_000);
  await expect(signInHeading(page)).toHaveCount(0);
  await expect(page.getByLabel('Username')).toHaveCount(0);
  expect(asked).toBe(1);

  // Still failing: the error comes back after the new attempt.
  await retry.click();
  await expect.poll(() => asked).toBe(2);
  await expect(page.getByText(ERROR)).toBeVisible();
  await expect(signInHeading(page)).toHaveCount(0);

  failing = false;
  await retry.click();
  await expect(signInHeading(page)).toBeVisible();
  await expect(page.getByLabel('Username')).toBeVisible();
  await expect(page.getByText(ERROR)).toHaveCount(0);
  expect(asked).toBe(3);
});

test('a /config.json that is not JSON, or does not match the contract, is an error too', async ({ page }) => {
  const answers = [
    { status: 200, contentType: 'text/html', body: '<!doctype html><title>proxy error page</title>' },
    { status: 200, contentType: 'application/json', body: JSON.stringify({ api_base_url: 42, ws_base_url: '', version: '1.0.9' }) },
  ];
  await page.route('**/config.json', async (route: Route) => {
    const answer = answers.shift();
    if (answer) await route.fulfill(answer);
    else await route.continue();
  });

  await page.goto('/login');
  await expect(page.getByText(ERROR)).toBeVisible();
  await page.getByRole('button', { name: 'Retry' }).click();
  // The second answer is JSON, checked against the contract once the app's code is there.
  await expect(page.getByText(ERROR)).toBeVisible();
  await expect(signInHeading(page)).toHaveCount(0);
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(signInHeading(page)).toBeVisible();
});

test.describe('with the service worker', () => {
  test.use({ serviceWorkers: 'allow' });

  test('an installed app starts offline with the last configuration; online, the network answer wins', async ({ page, context }) => {
    await page.goto('/login');
    await expect(signInHeading(page)).toBeVisible();
    // The worker keeps a copy when it installs; the next load goes through it.
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await page.reload();
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    await expect(signInHeading(page)).toBeVisible();

    const configAnswers: { fromWorker: boolean; status: number; kept: boolean }[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname !== '/config.json') return;
      configAnswers.push({ fromWorker: response.fromServiceWorker(), status: response.status(), kept: 'x-offline-data-from' in response.headers() });
    });

    await context.setOffline(true);
    await page.reload();
    await expect(signInHeading(page)).toBeVisible();
    await expect(page.getByText(ERROR)).toHaveCount(0);
    expect(configAnswers).toEqual([{ fromWorker: true, status: 200, kept: true }]);

    await context.setOffline(false);
    configAnswers.length = 0;
    await page.reload();
    await expect(signInHeading(page)).toBeVisible();
    expect(configAnswers).toEqual([{ fromWorker: true, status: 200, kept: false }]);
  });
});
