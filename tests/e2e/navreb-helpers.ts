/**
 * Helpers of the NAV and rebates end-to-end tests: captured API responses, independent
 * formatting of the expected figures, and PDF text through Debian's poppler-utils.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Download, type Locator, type Page } from '@playwright/test';
import { signIn, type DemoUser } from './fixtures.ts';

/** Signs in through the form from `url` and returns the session's api key from local storage. */
export async function signInAt(page: Page, url: string, who: DemoUser): Promise<string> {
  await page.goto(url);
  await signIn(page, who);
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  const key = await page.evaluate(() => (JSON.parse(localStorage.getItem('user_data') ?? '{}') as { api_key?: string }).api_key);
  expect(key).toBeTruthy();
  return key ?? '';
}

/**
 * Serves every request matching `pattern` with the first real response the server gave for the
 * same URL, and hands that response to the test. The live market moves balances and equity each
 * second; replaying the first response keeps the page and the expected figures on the same data.
 */
export async function freezeResponses(
  page: Page,
  pattern: string,
  edit?: (json: unknown, url: URL) => unknown,
): Promise<(urlPart: string) => Promise<unknown>> {
  const captured = new Map<string, unknown>();
  await page.route(pattern, async (route) => {
    const url = new URL(route.request().url());
    const key = url.pathname + url.search;
    if (!captured.has(key)) {
      const response = await route.fetch();
      const json: unknown = await response.json();
      captured.set(key, response.ok() && edit ? edit(json, url) : json);
      if (!response.ok()) {
        await route.fulfill({ response });
        return;
      }
    }
    await route.fulfill({ json: captured.get(key) });
  });
  return async (urlPart: string) => {
    await expect.poll(() => [...captured.keys()].some((k) => k.includes(urlPart)), { timeout: 15_000 }).toBe(true);
    const entry = [...captured.entries()].find(([k]) => k.includes(urlPart));
    return entry?.[1];
  };
}

/** Collapses every kind of space (U+00A0, U+202F …) to one plain space. */
export function spaces(text: string): string {
  return text.replace(/[\s\u00a0\u202f\u2009]+/g, ' ').trim();
}

/** NAV money: the product's one money format (docs/client.md), the same as rebateMoney below. */
export function deMoney(value: number, currency: string): string {
  return rebateMoney(value, currency);
}

const SYMBOLS: Record<string, string> = { USD: '$', EUR: '€', GBP: '£', JPY: '¥', CAD: 'C$', AUD: 'A$', CHF: 'CHF' };

/** Money as every screen writes it: space for thousands, comma for decimals, then the currency's symbol (docs/client.md). */
export function rebateMoney(value: number, currency: string): string {
  const rounded = Math.round(Math.abs(value) * 100);
  const whole = Math.floor(rounded / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  const cents = String(rounded % 100).padStart(2, '0');
  const sign = value < 0 && rounded !== 0 ? '-' : '';
  return `${sign}${whole},${cents} ${SYMBOLS[currency] ?? currency}`;
}

/** Percent with 2 decimals and a comma, e.g. '0,35 %'. */
export function percent(value: number): string {
  return `${value.toFixed(2).replace('.', ',')} %`;
}

/** The app's text order: English collation with numeric parts compared as numbers. */
export const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Month name and year of 'M.YYYY' or 'YYYY-MM'. */
export function monthName(key: string): string {
  const dotted = /^(\d{1,2})\.(\d{4})$/.exec(key);
  const iso = /^(\d{4})-(\d{2})$/.exec(key);
  const [year, month] = dotted ? [Number(dotted[2]), Number(dotted[1])] : iso ? [Number(iso[1]), Number(iso[2])] : [NaN, NaN];
  if (!Number.isFinite(year)) return key;
  return new Date(Date.UTC(year, month - 1, 1)).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

export interface PdfText {
  file: string;
  /** Each page's lines, spaces collapsed. */
  pages: string[][];
  all: string;
}

/**
 * True when one row of the PDF holds all these cells, in this order: on one line, or with a cell
 * too wide for its column wrapped, its first words on that line and the rest on the next.
 */
export function hasLine(pdf: PdfText, cells: readonly string[]): boolean {
  return pdf.pages.some((lines) =>
    lines.some((line, i) => {
      const next = lines[i + 1] ?? '';
      let from = 0;
      for (const cell of cells) {
        const end = cellEnd(line, next, spaces(cell), from);
        if (end < 0) return false;
        from = end;
      }
      return true;
    }),
  );
}

/** Where `cell` ends in `line` after `from` (whole, or its first words with the rest on `next`), or -1. */
function cellEnd(line: string, next: string, cell: string, from: number): number {
  const whole = line.indexOf(cell, from);
  if (whole >= 0) return whole + cell.length;
  const words = cell.split(' ');
  for (let k = words.length - 1; k >= 1; k -= 1) {
    const head = words.slice(0, k).join(' ');
    const at = line.indexOf(head, from);
    if (at >= 0 && next.includes(words.slice(k).join(' '))) return at + head.length;
  }
  return -1;
}

/** Saves a download and reads it back as text, page by page (pdftotext -layout). */
export async function readPdf(download: Download): Promise<PdfText> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'navreb-pdf-'));
  const file = path.join(dir, download.suggestedFilename());
  await download.saveAs(file);
  const info = execFileSync('/usr/bin/pdfinfo', [file]).toString();
  const count = Number(/Pages:\s+(\d+)/.exec(info)?.[1] ?? 0);
  const pages: string[][] = [];
  for (let page = 1; page <= count; page += 1) {
    const text = execFileSync('/usr/bin/pdftotext', ['-layout', '-f', String(page), '-l', String(page), file, '-']).toString();
    pages.push(text.split('\n').map(spaces).filter(Boolean));
  }
  if (process.env.NAVREB_PDF_PNG) {
    execFileSync('/usr/bin/pdftoppm', ['-png', '-r', '60', file, path.join(process.env.NAVREB_PDF_PNG, path.basename(file, '.pdf'))]);
  }
  return { file, pages, all: pages.map((lines) => lines.join(' ')).join(' ') };
}

/** Clicks a button that starts a download and returns the download. */
export async function downloadFrom(page: Page, button: Locator): Promise<Download> {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return download;
}

/** Opens a labelled Dropdown and picks the option with that exact name. */
export async function pick(page: Page, dropdown: string | RegExp, option: string): Promise<void> {
  await page.getByRole('button', { name: dropdown }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}
