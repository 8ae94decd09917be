import type { Page, Response } from '@playwright/test';

/** The signed-in user's api key, as the app stored it (docs/product.md#fields user_data). */
export async function apiKeyOf(page: Page): Promise<string> {
  return page.evaluate(() => (JSON.parse(localStorage.getItem('user_data') ?? '{}') as { api_key?: string }).api_key ?? '');
}

/** GET an API path with the user's key, as the app would; answers status and JSON. */
export async function apiGet<T>(page: Page, path: string): Promise<{ status: number; body: T }> {
  const response = await page.request.get(path, { headers: { 'x-api-key': await apiKeyOf(page) } });
  return { status: response.status(), body: (await response.json()) as T };
}

export interface Captured<T> {
  url: URL;
  body: T;
}

/** Records every successful JSON response of the page whose path is `path`, oldest first. */
export function captureResponses<T>(page: Page, path: string): Captured<T>[] {
  const seen: Captured<T>[] = [];
  page.on('response', (response: Response) => {
    const url = new URL(response.url());
    if (url.pathname !== path || !response.ok()) return;
    response
      .json()
      .then((body: unknown) => seen.push({ url, body: body as T }))
      .catch(() => undefined);
  });
  return seen;
}

/** Ascending, case-insensitive, numeric-aware order, as a person expects an alphabetical list. */
export const alphabetical = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' });

/** Month 'YYYY-MM' as 'November 2026' (en-US, UTC). */
export function monthName(month: string): string {
  const [year, m] = month.split('-').map(Number);
  return new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year ?? 1970, (m ?? 1) - 1, 1)),
  );
}

/** Horizontal overflow of the page in CSS pixels (0 when nothing sticks out). */
export async function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}
