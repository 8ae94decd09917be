import { expect, test, type Page } from '@playwright/test';
import { signIn } from './fixtures.ts';

// Issue 40, item 3: the most common Android width (360×780) keeps every figure whole. Each screen is
// walked to its end; a figure (text with a digit) cut by an ellipsis, or wider than its own box or
// the screen, fails with its text and where it is.

const SCREENS = [
  { path: '/', heading: 'Summary' },
  { path: '/accounts', heading: 'Accounts' },
  { path: '/brokers', heading: 'Brokers' },
  { path: '/copy', heading: 'Copy' },
] as const;

interface Cut {
  text: string;
  why: string;
  where: string;
}

/** Figures cut by an ellipsis or spilling out of their box or the screen, on the whole page. */
function cutFigures(page: Page): Promise<Cut[]> {
  return page.evaluate(() => {
    const cuts: Cut[] = [];
    const width = document.documentElement.clientWidth;
    const where = (el: Element) => {
      const parts: string[] = [];
      for (let e: Element | null = el; e && parts.length < 4; e = e.parentElement) {
        parts.unshift(e.className && typeof e.className === 'string' ? `${e.tagName.toLowerCase()}.${e.className.split(' ')[0]}` : e.tagName.toLowerCase());
      }
      return parts.join(' > ');
    };
    const ownText = (el: Element) =>
      [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent ?? '').join('').trim();
    for (const el of document.querySelectorAll('main *, header *')) {
      if (!(el instanceof HTMLElement) || !el.checkVisibility()) continue;
      if (el.closest('[hidden], [aria-hidden="true"], .ui-visually-hidden, .recharts-wrapper, svg, .ui-table-scroll')) continue;
      const text = (el.innerText || '').trim();
      if (!/\d/.test(text)) continue;
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (style.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1) {
        cuts.push({ text: text.slice(0, 80), why: `ellipsis (${el.scrollWidth} > ${el.clientWidth})`, where: where(el) });
        continue;
      }
      // A figure's own text: wider than the element that holds it, or past the screen's edge.
      if (!/\d/.test(ownText(el))) continue;
      if (box.right > width + 1 || box.left < -1) {
        cuts.push({ text: text.slice(0, 80), why: `off screen (${Math.round(box.left)}–${Math.round(box.right)} of ${width})`, where: where(el) });
        continue;
      }
      if (style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1) {
        cuts.push({ text: text.slice(0, 80), why: `clipped (${el.scrollWidth} > ${el.clientWidth})`, where: where(el) });
        continue;
      }
      // The figure's text past the edge of the box that holds it (a key figure spilling out of its tile).
      let box2: Element | null = el.parentElement;
      while (box2 && getComputedStyle(box2).display.startsWith('inline')) box2 = box2.parentElement;
      if (box2) {
        const outer = box2.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(el);
        const inner = range.getBoundingClientRect();
        if (inner.width > 0 && (inner.right > outer.right + 1 || inner.left < outer.left - 1)) {
          cuts.push({ text: text.slice(0, 80), why: `wider than its box (${Math.round(inner.left)}–${Math.round(inner.right)} in ${Math.round(outer.left)}–${Math.round(outer.right)})`, where: where(el) });
        }
      }
    }
    return cuts;
  });
}

async function walk(page: Page, path: string, heading: string, shot: string | null) {
  await page.goto(path);
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible({ timeout: 15_000 });
  // Room for the feeds and queries to fill the screen, then to its end so every panel is drawn.
  await page.waitForTimeout(2500);
  for (let y = 0; y < 20; y += 1) {
    const done = await page.evaluate(() => {
      window.scrollBy(0, window.innerHeight);
      return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
    });
    await page.waitForTimeout(250);
    if (done) break;
  }
  await page.waitForTimeout(800);
  if (shot) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: shot, fullPage: true, clip: { x: 0, y: 0, width: page.viewportSize()!.width, height: 1400 } });
  }
  return cutFigures(page);
}

for (const size of [
  { width: 360, height: 780 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.skip(({ isMobile }) => !isMobile, 'phone layout only');
    test.use({ viewport: size });

    for (const who of ['admin', 'investor'] as const) {
      test(`no figure is cut or spills out of its box, as ${who}`, async ({ page }) => {
        await page.goto('/');
        await signIn(page, who);
        await expect(page.getByRole('heading', { name: 'Summary', level: 1 })).toBeVisible({ timeout: 15_000 });
        const found: Record<string, Cut[]> = {};
        for (const s of SCREENS) {
          const dir = process.env.FIT_SHOTS;
          const cuts = await walk(page, s.path, s.heading, dir ? `${dir}/${who}-${size.width}-${s.heading}.png` : null);
          if (cuts.length > 0) found[s.heading] = cuts;
        }
        // The portfolio's name in the top bar is whole too ('Conso…' was the audit's finding).
        const name = page.locator('.portfolio-select .ui-dropdown-value');
        expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
        expect(found).toEqual({});
      });
    }
  });
}
