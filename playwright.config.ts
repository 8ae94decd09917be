import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/chromium.ts';

const port = Number(process.env.E2E_PORT ?? 4319);
// A fresh data directory per run: the demo users and market are seeded anew.
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'copy-monitor-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

const chromium = { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS };

export default defineConfig({
  testDir: 'tests/e2e',
  forbidOnly: true,
  retries: 0,
  workers: 2,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: chromium,
    trace: 'off',
    screenshot: 'only-on-failure',
    // The service worker is tested in shell.spec.ts; elsewhere it would hide API calls from page.route.
    serviceWorkers: 'block',
  },
  projects: [
    {
      name: 'phone',
      use: { browserName: 'chromium', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
    },
    { name: 'desktop', use: { browserName: 'chromium', viewport: { width: 1440, height: 900 } } },
  ],
  webServer: {
    command: 'node --import tsx src/server/main.ts',
    url: `http://127.0.0.1:${port}/login`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: '1',
      STATIC_DIR: process.env.E2E_STATIC_DIR ?? 'dist',
      LOG_LEVEL: 'warn',
      // Every test signs in from 127.0.0.1: more than the default 100 attempts per 15 minutes.
      LOGIN_ATTEMPTS_PER_ADDRESS: '5000',
    },
  },
});
