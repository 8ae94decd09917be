import { z } from 'zod';
import {
  ACCOUNT_INFO_REFETCH_MS,
  ALERTS_REFETCH_MS,
  COPY_RULES_POLL_MS,
  HISTORICAL_DEALS_REFETCH_MS,
  MAE_MFE_REFETCH_MS,
  MAX_DRAWDOWN_REFETCH_MS,
  REBATES_REFETCH_MS,
} from '#shared/domain/constants.ts';

/** Where the client reads its runtime configuration (served by the server, before the app starts). */
export const CLIENT_CONFIG_PATH = '/config.json';

/** The refetch intervals of docs/product.md#calls and §9 the client polls at, in milliseconds. */
export const DEFAULT_CLIENT_INTERVALS = {
  accounts_info_ms: ACCOUNT_INFO_REFETCH_MS,
  max_drawdown_ms: MAX_DRAWDOWN_REFETCH_MS,
  historical_deals_ms: HISTORICAL_DEALS_REFETCH_MS,
  mae_mfe_ms: MAE_MFE_REFETCH_MS,
  alerts_ms: ALERTS_REFETCH_MS,
  copy_rules_ms: COPY_RULES_POLL_MS,
  rebates_ms: REBATES_REFETCH_MS,
} as const;
export type ClientInterval = keyof typeof DEFAULT_CLIENT_INTERVALS;

/** Switches a deployment may turn off without a rebuild; every one is on by default. */
export const DEFAULT_CLIENT_FEATURES = {
  /** 'Download PDF' on NAV and Rebates. */
  pdf_reports: true,
  /** The Bridge switch in the top bar (write users). */
  bridge_toggle: true,
  /** The service worker (installable, offline shell and data); off unregisters an installed one. */
  service_worker: true,
} as const;
export type ClientFeature = keyof typeof DEFAULT_CLIENT_FEATURES;

/** An interval the client may poll at: 1 s to 1 day. */
const IntervalMs = z.number().int().min(1_000).max(86_400_000);

/** '' (the page's own origin) or an absolute URL of one of `schemes`, with no query, fragment or trailing slash. */
function baseUrl(schemes: string) {
  const absolute = new RegExp(`^(${schemes})://[^/\\s?#]+(/[^\\s?#]*[^/\\s?#])?$`);
  return z.string().refine((v) => v === '' || absolute.test(v), `must be '' or ${schemes.replace('s?', '(s)')}://host[:port][/path] without a trailing slash`);
}
export const ApiBaseUrl = baseUrl('https?');
export const WsBaseUrl = baseUrl('wss?');

const intervalFields = Object.fromEntries(
  Object.entries(DEFAULT_CLIENT_INTERVALS).map(([name, ms]) => [name, IntervalMs.default(ms)]),
) as { [K in ClientInterval]: z.ZodDefault<typeof IntervalMs> };
const featureFields = Object.fromEntries(
  Object.entries(DEFAULT_CLIENT_FEATURES).map(([name, on]) => [name, z.boolean().default(on)]),
) as { [K in ClientFeature]: z.ZodDefault<z.ZodBoolean> };

/** Each interval and switch has its default: an older server that lacks a newer one still configures the client. */
export const ClientIntervals = z.object(intervalFields);
export const ClientFeatures = z.object(featureFields);

/**
 * GET /config.json: what the client loads before the app starts (docs/product.md#errors 'Loading configuration...').
 * A deployment changes it through the server's environment, without a rebuild. The base URLs are
 * origins (with an optional path) that the client puts before '/api/…' and '/ws/…'; '' is the page's
 * own origin. Fields are documented in docs/client.md (kept out of the schema: it ships to the client).
 */
export const ClientConfig = z.object({
  api_base_url: ApiBaseUrl,
  ws_base_url: WsBaseUrl,
  /** The server's version (package.json). */
  version: z.string().min(1).max(100),
  /** Which deployment answered (PUBLIC_BUILD_ID), for support. */
  build_id: z.string().min(1).max(100).optional(),
  intervals: ClientIntervals.default(DEFAULT_CLIENT_INTERVALS),
  features: ClientFeatures.default(DEFAULT_CLIENT_FEATURES),
});
export type ClientConfig = z.infer<typeof ClientConfig>;

/** What a deployment sets; the server adds its version. */
export const ClientSettings = /* @__PURE__ */ ClientConfig.omit({ version: true });
export type ClientSettings = z.infer<typeof ClientSettings>;
