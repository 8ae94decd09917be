import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_INFO_REFETCH_MS,
  ALERTS_REFETCH_MS,
  APP_VERSION,
  BROKER_ICON_NAMES,
  BROKER_PALETTE,
  brokerIconName,
  COPY_RULES_POLL_MS,
  cycleColor,
  DASHBOARD_PALETTE,
  DEFAULT_CHART_TYPE,
  DEFAULT_PERIOD,
  HISTORICAL_DEALS_REFETCH_MS,
  HISTORICAL_DEALS_STALE_MS,
  HTTP_TIMEOUT_MS,
  MAE_MFE_REFETCH_MS,
  MAE_MFE_STALE_MS,
  MAX_DRAWDOWN_REFETCH_MS,
  PERIOD_OPTIONS,
  periodStart,
  REBATE_BAR_COLORS,
  REBATE_LINE_COLORS,
  REBATES_REFETCH_MS,
  TOAST_MS,
  TOOLTIP_DELAY_MS,
} from './constants.ts';

const seconds = (...args: [number, number, number, number, number, number]) => Date.UTC(...args) / 1000;

describe('docs/product.md#constants constants', () => {
  it('hold the spec’s times', () => {
    expect(TOAST_MS).toBe(5000);
    expect(TOOLTIP_DELAY_MS).toBe(700);
    expect(ALERTS_REFETCH_MS).toBe(30000);
    expect(ACCOUNT_INFO_REFETCH_MS).toBe(5000);
    expect(MAX_DRAWDOWN_REFETCH_MS).toBe(5000);
    expect(COPY_RULES_POLL_MS).toBe(2000);
    expect(MAE_MFE_REFETCH_MS).toBe(30000);
    expect(MAE_MFE_STALE_MS).toBe(15000);
    expect(HISTORICAL_DEALS_REFETCH_MS).toBe(30000);
    expect(HISTORICAL_DEALS_STALE_MS).toBe(60000);
    expect(REBATES_REFETCH_MS).toBe(300000);
    expect(HTTP_TIMEOUT_MS).toBe(30000);
    expect(APP_VERSION).toBe('1.0.9');
  });
  it('offer the three periods, Last Month and Balance by default', () => {
    expect(PERIOD_OPTIONS.map((o) => [o.value, o.label])).toEqual([
      ['1m', 'Last Month'],
      ['3m', 'Last 3 Months'],
      ['all', 'All Time'],
    ]);
    expect(DEFAULT_PERIOD).toBe('1m');
    expect(DEFAULT_CHART_TYPE).toBe('Balance');
  });
});

describe('periodStart', () => {
  const now = Date.UTC(2026, 4, 15, 10, 20, 30, 500); // 15 May 2026 10:20:30.5 UTC

  it('is now minus one or three calendar months, in whole seconds', () => {
    expect(periodStart('1m', now)).toBe(seconds(2026, 3, 15, 10, 20, 30));
    expect(periodStart('3m', now)).toBe(seconds(2026, 1, 15, 10, 20, 30));
  });
  it('is undefined for all', () => {
    expect(periodStart('all', now)).toBeUndefined();
  });
  it('crosses the year', () => {
    expect(periodStart('1m', Date.UTC(2026, 0, 10, 0, 0, 0))).toBe(seconds(2025, 11, 10, 0, 0, 0));
    expect(periodStart('3m', Date.UTC(2026, 1, 10, 0, 0, 0))).toBe(seconds(2025, 10, 10, 0, 0, 0));
  });
  it('clamps to the last day of a shorter month', () => {
    expect(periodStart('1m', Date.UTC(2026, 2, 31, 8, 0, 0))).toBe(seconds(2026, 1, 28, 8, 0, 0));
    expect(periodStart('1m', Date.UTC(2024, 2, 30, 8, 0, 0))).toBe(seconds(2024, 1, 29, 8, 0, 0));
    expect(periodStart('3m', Date.UTC(2026, 4, 31, 8, 0, 0))).toBe(seconds(2026, 1, 28, 8, 0, 0));
  });
});

describe('broker icons', () => {
  it('list the eight brokers of docs/product.md#fields', () => {
    expect(BROKER_ICON_NAMES).toEqual([
      'IBKR',
      'Avatrade',
      'Exante',
      'Amana Capital',
      'Zenfinex-Taurex',
      'AFTERPRIME',
      '8cap',
      'EquitiBrokerageSC',
    ]);
  });
  it('match a broker name case-insensitively', () => {
    expect(brokerIconName('AfterPrime')).toBe('AFTERPRIME');
    expect(brokerIconName(' amana capital ')).toBe('Amana Capital');
    expect(brokerIconName('Unknown Broker')).toBeUndefined();
  });
});

describe('palettes', () => {
  const palettes: [readonly string[], number][] = [
    [DASHBOARD_PALETTE, 20],
    [BROKER_PALETTE, 8],
    [REBATE_BAR_COLORS, 7],
    [REBATE_LINE_COLORS, 4],
  ];
  it('have the sizes of docs/product.md#constants, distinct hex colours each', () => {
    for (const [palette, size] of palettes) {
      expect(palette).toHaveLength(size);
      expect(new Set(palette.map((c) => c.toUpperCase())).size).toBe(size);
      for (const colour of palette) expect(colour).toMatch(/^#[0-9A-F]{6}$/i);
    }
  });
  it('cycle by index', () => {
    expect(cycleColor(REBATE_BAR_COLORS, 0)).toBe('#4E79A7');
    expect(cycleColor(REBATE_BAR_COLORS, 7)).toBe('#4E79A7');
    expect(cycleColor(REBATE_LINE_COLORS, 5)).toBe('#D55E00');
    expect(cycleColor(REBATE_LINE_COLORS, -1)).toBe('#CC79A7');
  });
});
