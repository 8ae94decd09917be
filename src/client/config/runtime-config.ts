/**
 * The runtime configuration the page loaded from /config.json before the app started (boot.ts),
 * read through these getters. Until one is set (unit and component tests, or code that runs before
 * boot has applied it) each getter answers the built-in default: the page's own origin and the
 * constants of docs/product.md#calls and §9.
 */
import {
  ClientConfig,
  DEFAULT_CLIENT_FEATURES,
  DEFAULT_CLIENT_INTERVALS,
  type ClientFeature,
  type ClientInterval,
} from '#shared/contract/client-config.ts';
import { APP_VERSION } from '#shared/domain/constants.ts';

let current: ClientConfig | null = null;

/** Sets (or, with null, forgets) the configuration every getter reads. */
export function setRuntimeConfig(config: ClientConfig | null): void {
  current = config;
}

/** The configuration as loaded, or null before boot has applied one. */
export function runtimeConfig(): ClientConfig | null {
  return current;
}

/** Origin of the HTTP API, to put before '/api/…'; '' means the page's own origin. */
export function apiBaseUrl(): string {
  return current?.api_base_url ?? '';
}

/** ws(s)://host[:port][/path] to put before '/ws/…': the configured one, else the page's own origin. */
export function wsBaseUrl(): string {
  if (current?.ws_base_url) return current.ws_base_url;
  const { protocol, host } = globalThis.location;
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}`;
}

/** A refetch interval in milliseconds. */
export function interval(name: ClientInterval): number {
  return current?.intervals[name] ?? DEFAULT_CLIENT_INTERVALS[name];
}

/** Whether a feature switch is on. */
export function feature(name: ClientFeature): boolean {
  return current?.features[name] ?? DEFAULT_CLIENT_FEATURES[name];
}

/** The deployed version (the server's), or the one this client was built with. */
export function appVersion(): string {
  return current?.version ?? APP_VERSION;
}

/** Which deployment answered (PUBLIC_BUILD_ID), when it says. */
export function buildId(): string | undefined {
  return current?.build_id;
}

/**
 * Checks JSON loaded from /config.json against the contract and, when it matches, makes it the
 * configuration every getter reads. False (and the configuration unchanged) when it does not.
 */
export function applyClientConfig(json: unknown): boolean {
  const parsed = ClientConfig.safeParse(json);
  if (!parsed.success) {
    console.error('The configuration does not match its contract:', parsed.error.issues);
    return false;
  }
  setRuntimeConfig(parsed.data);
  return true;
}
