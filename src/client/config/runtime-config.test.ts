import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_CONFIG_PATH, DEFAULT_CLIENT_FEATURES, DEFAULT_CLIENT_INTERVALS, type ClientConfig } from '#shared/contract/client-config.ts';
import { ALERTS_REFETCH_MS, APP_VERSION, MAX_DRAWDOWN_REFETCH_MS } from '#shared/domain/constants.ts';
import { CONFIG_URL } from './config-url.ts';
import {
  apiBaseUrl,
  appVersion,
  applyClientConfig,
  buildId,
  feature,
  interval,
  runtimeConfig,
  setRuntimeConfig,
  wsBaseUrl,
} from './runtime-config.ts';

const loaded: ClientConfig = {
  api_base_url: 'https://api.example.com',
  ws_base_url: 'wss://live.example.com',
  version: '2.0.0',
  build_id: 'b-7',
  intervals: { ...DEFAULT_CLIENT_INTERVALS, alerts_ms: 60_000 },
  features: { ...DEFAULT_CLIENT_FEATURES, pdf_reports: false },
};

afterEach(() => {
  setRuntimeConfig(null);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('runtime configuration getters', () => {
  it('answer the built-in defaults until a configuration is set: same origin, the product’s intervals, every switch on', () => {
    vi.stubGlobal('location', { protocol: 'https:', host: 'monitor.example.com' });
    expect(runtimeConfig()).toBeNull();
    expect(apiBaseUrl()).toBe('');
    expect(wsBaseUrl()).toBe('wss://monitor.example.com');
    expect(interval('alerts_ms')).toBe(ALERTS_REFETCH_MS);
    expect(interval('max_drawdown_ms')).toBe(MAX_DRAWDOWN_REFETCH_MS);
    expect(feature('pdf_reports')).toBe(true);
    expect(feature('service_worker')).toBe(true);
    expect(appVersion()).toBe(APP_VERSION);
    expect(buildId()).toBeUndefined();
  });

  it('use ws: beside a page served over plain http', () => {
    vi.stubGlobal('location', { protocol: 'http:', host: '127.0.0.1:8080' });
    expect(wsBaseUrl()).toBe('ws://127.0.0.1:8080');
  });

  it('answer what the loaded configuration says', () => {
    setRuntimeConfig(loaded);
    expect(apiBaseUrl()).toBe('https://api.example.com');
    expect(wsBaseUrl()).toBe('wss://live.example.com');
    expect(interval('alerts_ms')).toBe(60_000);
    expect(interval('rebates_ms')).toBe(DEFAULT_CLIENT_INTERVALS.rebates_ms);
    expect(feature('pdf_reports')).toBe(false);
    expect(feature('bridge_toggle')).toBe(true);
    expect(appVersion()).toBe('2.0.0');
    expect(buildId()).toBe('b-7');
  });

  it('fall back to the page origin for websockets when the configuration leaves it empty', () => {
    vi.stubGlobal('location', { protocol: 'http:', host: 'localhost:5173' });
    setRuntimeConfig({ ...loaded, ws_base_url: '' });
    expect(wsBaseUrl()).toBe('ws://localhost:5173');
  });
});

describe('applyClientConfig', () => {
  it('takes JSON that matches the contract, filling in the intervals and switches an older server leaves out', () => {
    expect(applyClientConfig({ api_base_url: '', ws_base_url: '', version: '1.0.9', features: { bridge_toggle: false }, extra: 1 })).toBe(true);
    expect(runtimeConfig()).toEqual({
      api_base_url: '',
      ws_base_url: '',
      version: '1.0.9',
      intervals: DEFAULT_CLIENT_INTERVALS,
      features: { ...DEFAULT_CLIENT_FEATURES, bridge_toggle: false },
    });
    expect(feature('bridge_toggle')).toBe(false);
  });

  it.each([
    ['not an object', 'hello'],
    ['null', null],
    ['no version', { api_base_url: '', ws_base_url: '' }],
    ['a base URL with a trailing slash', { api_base_url: 'https://api.example.com/', ws_base_url: '', version: '1' }],
    ['a websocket URL over http', { api_base_url: '', ws_base_url: 'http://live.example.com', version: '1' }],
    ['an interval under a second', { api_base_url: '', ws_base_url: '', version: '1', intervals: { alerts_ms: 10 } }],
    ['a switch that is not a boolean', { api_base_url: '', ws_base_url: '', version: '1', features: { pdf_reports: 'yes' } }],
  ])('refuses %s and keeps the configuration it had', (_label, json) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setRuntimeConfig(loaded);
    expect(applyClientConfig(json)).toBe(false);
    expect(runtimeConfig()).toBe(loaded);
  });

  it('reads the path the server serves', () => {
    expect(CONFIG_URL).toBe(CLIENT_CONFIG_PATH);
  });
});
