/**
 * The configuration step of boot.ts: fetches /config.json and shows its state in the splash of
 * index.html (docs/product.md#errors: 'Loading configuration...', then 'Error loading configuration. Please try
 * again later.' with a Retry button). No zod and no app code here: this part of the boot chunk runs
 * before anything else has loaded; the loaded JSON is checked against the contract afterwards
 * (runtime-config.ts, with the HTTP client's chunk).
 */
import { CONFIG_URL } from './config-url.ts';

export const CONFIG_LOADING = 'Loading configuration...';
export const CONFIG_ERROR = 'Error loading configuration. Please try again later.';

/** docs/product.md#constants's HTTP timeout. */
const CONFIG_TIMEOUT_MS = 30_000;

type SplashState = 'loading' | 'error' | 'ready';

/** Puts the splash's status line (and its Retry button) in `state`; a no-op without the splash. */
export function showConfigState(state: SplashState): void {
  const status = document.getElementById('boot-status');
  const retry = document.getElementById('boot-retry');
  if (status) {
    status.dataset.state = state;
    status.textContent = state === 'loading' ? CONFIG_LOADING : state === 'error' ? CONFIG_ERROR : '';
  }
  if (retry) retry.hidden = state !== 'error';
}

/** Resolves at the next press of the splash's Retry button. */
function retryPressed(): Promise<void> {
  return new Promise((resolve) => document.getElementById('boot-retry')?.addEventListener('click', () => resolve(), { once: true }));
}

/** /config.json as parsed JSON; throws on a network error, a timeout, a status other than 2xx or a body that is not JSON. */
export async function fetchConfigJson(): Promise<unknown> {
  const response = await fetch(CONFIG_URL, {
    headers: { accept: 'application/json' },
    cache: 'no-cache',
    signal: AbortSignal.timeout(CONFIG_TIMEOUT_MS),
  });
  if (import.meta.env.DEV && response.status === 404) {
    // Vite's dev server does not proxy this path to the server (vite.config.ts server.proxy): the defaults.
    console.warn(`${CONFIG_URL} is not proxied to the server: the client runs with its built-in configuration.`);
    return { api_base_url: '', ws_base_url: '', version: 'dev' };
  }
  if (!response.ok) throw new Error(`${CONFIG_URL} answered ${response.status}`);
  return (await response.json()) as unknown;
}

/**
 * Fetches /config.json until it answers JSON, showing 'Loading configuration...' meanwhile; after a
 * failure the splash shows the error and the next attempt waits for Retry (first thing when `failed`:
 * the last copy did not match the contract). Resolves with the JSON, not yet checked against the
 * contract; the splash still says 'Loading configuration...'.
 */
export async function loadConfigJson(failed = false): Promise<unknown> {
  for (let failing = failed; ; failing = true) {
    if (failing) {
      showConfigState('error');
      await retryPressed();
    }
    showConfigState('loading');
    try {
      return await fetchConfigJson();
    } catch (error) {
      console.error(error);
    }
  }
}
