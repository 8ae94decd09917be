// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONFIG_ERROR, CONFIG_LOADING, fetchConfigJson, loadConfigJson, showConfigState } from './boot-config.ts';

/** The splash of index.html, as far as the configuration step reads it. */
const SPLASH = `<p id="boot-status" role="status" data-state="loading">${CONFIG_LOADING}</p><button id="boot-retry" type="button" hidden>Retry</button>`;

const status = () => document.getElementById('boot-status')!;
const retry = () => document.getElementById('boot-retry') as HTMLButtonElement;
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  document.body.innerHTML = SPLASH;
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the splash during the configuration step (docs/product.md#errors)', () => {
  it('says the exact messages and shows Retry only on an error', () => {
    expect(CONFIG_LOADING).toBe('Loading configuration...');
    expect(CONFIG_ERROR).toBe('Error loading configuration. Please try again later.');
    showConfigState('error');
    expect(status().textContent).toBe(CONFIG_ERROR);
    expect(status().dataset.state).toBe('error');
    expect(retry().hidden).toBe(false);
    showConfigState('loading');
    expect(status().textContent).toBe(CONFIG_LOADING);
    expect(retry().hidden).toBe(true);
    showConfigState('ready');
    expect(status().textContent).toBe('');
    expect(status().dataset.state).toBe('ready');
    expect(retry().hidden).toBe(true);
  });

  it('is a no-op on a page without the splash', () => {
    document.body.innerHTML = '';
    expect(() => showConfigState('error')).not.toThrow();
  });
});

describe('fetchConfigJson', () => {
  it('asks /config.json for JSON, revalidating, and answers the parsed body', async () => {
    const fetchMock = vi.fn(async () => json({ version: '1' }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(fetchConfigJson()).resolves.toEqual({ version: '1' });
    expect(fetchMock).toHaveBeenCalledWith('/config.json', expect.objectContaining({ cache: 'no-cache', headers: { accept: 'application/json' } }));
  });

  it.each([
    ['a network error', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['HTTP 500', async () => json({ message: 'boom' }, 500)],
    ['a body that is not JSON', async () => new Response('<!doctype html>', { status: 200 })],
  ])('fails on %s', async (_label, answer) => {
    vi.stubGlobal('fetch', vi.fn(answer));
    await expect(fetchConfigJson()).rejects.toThrow();
  });

  it('fails on HTTP 404 in a build', async () => {
    vi.stubEnv('DEV', false);
    vi.stubGlobal('fetch', vi.fn(async () => new Response('Not found', { status: 404 })));
    await expect(fetchConfigJson()).rejects.toThrow('/config.json answered 404');
  });

  it("falls back to the built-in configuration under Vite's dev server, which may not proxy the path", async () => {
    vi.stubEnv('DEV', true);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal('fetch', vi.fn(async () => new Response('Not found', { status: 404 })));
    await expect(fetchConfigJson()).resolves.toEqual({ api_base_url: '', ws_base_url: '', version: 'dev' });
  });
});

describe('loadConfigJson', () => {
  it('resolves with the JSON while the splash keeps saying Loading configuration...', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ version: '1' })));
    await expect(loadConfigJson()).resolves.toEqual({ version: '1' });
    expect(status().textContent).toBe(CONFIG_LOADING);
    expect(retry().hidden).toBe(true);
  });

  it('shows the error after a failure and tries again only when Retry is pressed', async () => {
    const fetchMock = vi.fn().mockResolvedValueOnce(json({}, 503)).mockResolvedValueOnce(json({ version: '2' }));
    vi.stubGlobal('fetch', fetchMock);
    const loading = loadConfigJson();
    await vi.waitFor(() => expect(status().textContent).toBe(CONFIG_ERROR));
    expect(retry().hidden).toBe(false);
    await settle();
    expect(fetchMock).toHaveBeenCalledTimes(1);

    retry().click();
    await expect(loading).resolves.toEqual({ version: '2' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(status().textContent).toBe(CONFIG_LOADING);
    expect(retry().hidden).toBe(true);
  });

  it('starts with the error and waits for Retry when the last copy was refused', async () => {
    const fetchMock = vi.fn(async () => json({ version: '3' }));
    vi.stubGlobal('fetch', fetchMock);
    const loading = loadConfigJson(true);
    expect(status().textContent).toBe(CONFIG_ERROR);
    await settle();
    expect(fetchMock).not.toHaveBeenCalled();
    retry().click();
    await expect(loading).resolves.toEqual({ version: '3' });
  });
});
