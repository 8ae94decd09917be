/** Business constants and limits of docs/product.md#constants (times in milliseconds). */
export const TOAST_MS = 5_000;
export const TOOLTIP_DELAY_MS = 700;
export const ALERTS_REFETCH_MS = 30_000;
export const ACCOUNT_INFO_REFETCH_MS = 5_000;
export const MAX_DRAWDOWN_REFETCH_MS = 5_000;
export const COPY_RULES_POLL_MS = 2_000;
export const MAE_MFE_REFETCH_MS = 30_000;
export const MAE_MFE_STALE_MS = 15_000;
export const HISTORICAL_DEALS_REFETCH_MS = 30_000;
export const HISTORICAL_DEALS_STALE_MS = 60_000;
export const REBATES_REFETCH_MS = 300_000;
export const HTTP_TIMEOUT_MS = 30_000;
/** Default query options (docs/product.md#constants): stale 5 s, 1 retry, no refetch on focus. */
export const DEFAULT_STALE_MS = 5_000;
export const DEFAULT_RETRY = 1;
export const APP_VERSION = '1.0.9';

/** Skeleton rows shown until the first live message (docs/product.md#screens). */
export const SKELETON_ROWS = 5;
export const SKELETON_ROWS_MOBILE = 3;

/** Performance-chart periods (docs/product.md#screens, §9); the default is Last Month. */
export const PERIOD_OPTIONS = [
  { value: '1m', label: 'Last Month' },
  { value: '3m', label: 'Last 3 Months' },
  { value: 'all', label: 'All Time' },
] as const;
export type Period = (typeof PERIOD_OPTIONS)[number]['value'];
export const DEFAULT_PERIOD: Period = '1m';

/** Performance-chart types (docs/product.md#screens); the default is Balance. */
export const CHART_TYPES = ['Growth', 'Balance', 'Profit', 'Drawdown'] as const;
export type ChartType = (typeof CHART_TYPES)[number];
export const DEFAULT_CHART_TYPE: ChartType = 'Balance';

/** Historical-loss windows (docs/product.md#fields, §9) keyed by their response field. */
export const LOSS_WINDOWS = [
  { key: 'pnl_24_hours', label: '24 hours' },
  { key: 'pnl_2_days', label: '2 days' },
  { key: 'pnl_7_days', label: '7 days' },
] as const;

const PERIOD_MONTHS: Record<Exclude<Period, 'all'>, number> = { '1m': 1, '3m': 3 };

/**
 * start_date of a period in epoch seconds: now minus 1 or 3 calendar months (UTC calendar,
 * day clamped to the target month's last day, so 31 March − 1 month = 28/29 February);
 * undefined for 'all' (docs/product.md#constants).
 */
export function periodStart(period: Period, nowEpochMs: number): number | undefined {
  if (period === 'all') return undefined;
  const now = new Date(nowEpochMs);
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() - PERIOD_MONTHS[period];
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const start = Date.UTC(
    year,
    month,
    Math.min(now.getUTCDate(), lastDay),
    now.getUTCHours(),
    now.getUTCMinutes(),
    now.getUTCSeconds(),
    now.getUTCMilliseconds(),
  );
  return Math.floor(start / 1000);
}

/** Brokers that have a dedicated icon (docs/product.md#fields). */
export const BROKER_ICON_NAMES = [
  'IBKR',
  'Avatrade',
  'Exante',
  'Amana Capital',
  'Zenfinex-Taurex',
  'AFTERPRIME',
  '8cap',
  'EquitiBrokerageSC',
] as const;
export type BrokerIconName = (typeof BROKER_ICON_NAMES)[number];

/** The icon name of a broker, matched case-insensitively after trimming; undefined when it has none. */
export function brokerIconName(brokerName: string): BrokerIconName | undefined {
  const wanted = brokerName.trim().toLowerCase();
  return BROKER_ICON_NAMES.find((name) => name.toLowerCase() === wanted);
}

type Palette = readonly [string, ...string[]];

/**
 * Dashboard distribution bar (20): Kelly's colours of maximum contrast (K. L. Kelly, 1965) without
 * white and black, which would vanish on one of the two themes. Colour is never the only cue: each
 * segment also has a label and a tooltip.
 */
export const DASHBOARD_PALETTE = [
  '#F3C300',
  '#875692',
  '#F38400',
  '#A1CAF1',
  '#BE0032',
  '#C2B280',
  '#848482',
  '#008856',
  '#E68FAC',
  '#0067A5',
  '#F99379',
  '#604E97',
  '#F6A600',
  '#B3446C',
  '#DCD300',
  '#882D17',
  '#8DB600',
  '#654522',
  '#E25822',
  '#2B3D26',
] as const satisfies Palette;

/** Brokers-screen distribution (8): Okabe–Ito colour-blind-safe palette, its black replaced by grey for dark mode. */
export const BROKER_PALETTE = [
  '#E69F00',
  '#56B4E9',
  '#009E73',
  '#F0E442',
  '#0072B2',
  '#D55E00',
  '#CC79A7',
  '#999999',
] as const satisfies Palette;

/** Rebates analysis bars (7): the first seven of Tableau 10. */
export const REBATE_BAR_COLORS = [
  '#4E79A7',
  '#F28E2B',
  '#E15759',
  '#76B7B2',
  '#59A14F',
  '#EDC948',
  '#B07AA1',
] as const satisfies Palette;

/** Rebates cumulative lines (4): saturated Okabe–Ito colours that stand out over the bars. */
export const REBATE_LINE_COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7'] as const satisfies Palette;

/** Colour for series `index`, cycling through the palette (docs/product.md#constants). */
export function cycleColor(palette: Palette, index: number): string {
  const n = palette.length;
  const i = Number.isInteger(index) ? ((index % n) + n) % n : 0;
  return palette[i] ?? palette[0];
}
