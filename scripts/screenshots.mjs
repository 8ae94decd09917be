// Screenshots of the running product at phone and desktop sizes, to look at what we built:
//   node scripts/screenshots.mjs [baseUrl] [outDir]   (the server must be running; signs in as admin)
import fs from 'node:fs';
import { chromium } from '@playwright/test';

const base = process.argv[2] ?? 'http://127.0.0.1:8080';
const out = process.argv[3] ?? '/tmp/screens';
const user = process.env.SCREEN_USER ?? 'admin';
fs.mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
for (const [name, viewport] of [['phone', { width: 390, height: 844 }], ['desktop', { width: 1440, height: 900 }]]) {
  const page = await browser.newPage({ viewport, deviceScaleFactor: 1 });
  await page.goto(`${base}/login`);
  await page.screenshot({ path: `${out}/${name}-login.png` });
  await page.getByLabel('Username').fill(user);
  await page.getByLabel('Password').fill(`${user}-demo`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  for (const route of (process.env.SCREEN_ROUTES ?? '/,/rebates').split(',')) {
    await page.goto(`${base}${route}`);
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `${out}/${name}${route.replace(/\W+/g, '-')}.png`, fullPage: true });
  }
  await page.close();
}
await browser.close();
console.log(`screenshots in ${out}`);
