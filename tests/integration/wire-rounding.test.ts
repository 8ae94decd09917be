/**
 * Every figure leaves the API rounded (docs/architecture.md, "Rounding"): money to the cent, ratios
 * and percentages to 4 decimals, measures (lots, pips, milliseconds) to 4, prices as quoted. The
 * demo's three months of history, walked through every GET route an admin can call and the live
 * snapshots, with each numeric field classed by its name here (not by the schemas that round it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, http, login, startServer, type TestServer } from './helpers/server.ts';
import { connect, ticket } from './helpers/ws.ts';

type Kind = 'money' | 'accrual' | 'ratio' | 'measure' | 'price' | 'rate' | 'integer';

const KINDS: Record<Kind, readonly string[]> = {
  money: [
    'balance', 'equity', 'pnl', 'total_fees', 'total_swap', 'balance_currency', 'equity_currency', 'pnl_currency', 'gross_profit',
    'net_profit', 'total_commission', 'total_rebate', 'margin', 'pnl_24_hours', 'pnl_2_days', 'pnl_7_days', 'pnl_24_hours_currency',
    'pnl_2_days_currency', 'pnl_7_days_currency', 'profit', 'profit_currency', 'swap', 'swap_currency', 'quantity_currency', 'fee',
    'fee_currency', 'commission', 'commission_currency', 'rebate', 'commissions', 'average_win', 'average_loss', 'expectancy',
    'max_drawdown_money', 'profit_sharing_amount', 'slippage_cost', 'slippage_cost_eur', 'avg_slippage_cost_eur', 'cost_eur',
    'exposure', 'exposure_eur', 'equity_stop', 'mark', 'accrued', 'mark_before', 'mark_after', 'mark_start', 'mark_end', 'basis', 'charged',
    'opening_balance', 'opening_equity', 'closing_balance', 'closing_equity', 'deposits', 'withdrawals', 'closed_pl', 'broker_fees', 'rebates',
    'other_results', 'net', 'lr_std_error',
  ],
  /** A fee entry's amount: an accrual keeps 6 decimals (docs/fees.md), a charge is to the cent. */
  accrual: ['amount'],
  ratio: [
    'equity_perc', 'margin_level', 'max_drawdown_percentage', 'longs_won', 'shorts_won', 'profit_factor', 'max_drawdown', 'growth',
    'sharpe_ratio', 'sortino_ratio', 'equity_drawdown', 'recovery_factor', 'command_success_pct', 'follower_growth', 'master_growth',
    'tracking_difference', 'size_ratio', 'max_drawdown_pct', 'min_margin_level_pct', 'copy_ratio', 'limit', 'ratio', 'multiplier',
    'twr_pct', 'mwr_pct', 'ahpr', 'ghpr', 'z_score', 'z_probability', 'sharpe', 'sortino', 'psr', 'probability', 'lr_correlation',
    'entry_efficiency', 'exit_efficiency', 'total_efficiency', 'correlation_pl_mfe', 'correlation_pl_mae', 'correlation_mfe_mae', 'win_rate',
  ],
  measure: [
    'quantity', 'lots', 'ping', 'exec_duration_ms', 'avgMae', 'medianMae', 'avgMfe', 'medianMfe', 'avg_mae', 'median_mae', 'avg_mfe',
    'median_mfe', 'max_lot', 'lot', 'master_quantity', 'expected_quantity', 'entry_slippage', 'exit_slippage', 'avg_entry_slippage_pips',
    'worst_entry_slippage_pips', 'avg_delay_ms', 'worst_delay_ms', 'delay_ms', 'warn', 'close_only', 'close_all', 'last_value',
    'min_track_record',
  ],
  price: ['open_price', 'open_price_currency', 'close_price', 'price_open', 'price_current', 'sl', 'tp', 'breakeven', 'breakevenMax', 'breakevenMin'],
  /** Fee rates, as a write user set them. */
  rate: ['rate', 'annual_rate', 'usd_per_million'],
  integer: [
    'id', 'timestamp', 'datetime', 'last_update', 'time', 'win', 'loss', 'return_days', 'date_day', 'count', 'legs', 'opened_at', 'at',
    'from', 'copied', 'missed', 'duplicates', 'manual', 'inferred_links', 'trades', 'last_update_age_s', 'changed_at', 'expires_at',
    'uptime_s', 'available_dates', 'page', 'page_size', 'total', 'started_at', 'ended_at', 'equity_stopped_at', 'relation_id', 'devices',
    'closed_at', 'set_at', 'measured_at', 'fired_at', 'guard_id', 'n', 'returns_n', 'wins', 'losses', 'loss_pct', 'runs', 'seed',
    'utc_offset_minutes', 'hour', 'weekday',
  ],
};
/** A series point's `value` is what its series is. */
const SERIES: Record<string, Kind> = {
  balance: 'money', profit: 'money', growth: 'ratio', drawdown: 'ratio', volume: 'measure', follower: 'ratio', master: 'ratio', breaches: 'ratio',
};
const KIND_OF = new Map(Object.entries(KINDS).flatMap(([kind, names]) => names.map((n) => [n, kind as Kind])));
const DECIMALS: Record<Kind, number> = { money: 2, accrual: 6, ratio: 4, measure: 4, price: Infinity, rate: Infinity, integer: 0 };

const decimals = (x: number) => {
  // The shortest text that reads back as the same number: what JSON carries.
  const [, fraction = ''] = String(x).split('e')[0]!.split('.');
  const exponent = Number(String(x).split('e')[1] ?? 0);
  return Math.max(0, fraction.length - exponent);
};

/**
 * Every number of a JSON document that has more decimals than its field allows, or whose field is
 * unknown: one line per field and fault, with the first place it was seen.
 */
function faults(doc: unknown, where: string, seen = new Map<string, string>()): string[] {
  const walk = (value: unknown, path: (string | number)[]) => {
    if (typeof value === 'number') {
      const keys = path.filter((p): p is string => typeof p === 'string').reverse();
      // A series point's value is its series'; a number in a list is the list's.
      const kind = path.at(-1) === 'value' ? SERIES[keys[1] ?? ''] : keys.map((k) => KIND_OF.get(k)).find((k) => k !== undefined);
      const name = path.at(-1) === 'value' ? `${keys[1]}.value` : (keys[0] ?? '');
      const at = `${where} ${path.join('.')} = ${value}`;
      if (!kind) seen.set(`unclassified ${name}`, at);
      else if (decimals(value) > DECIMALS[kind]) seen.set(`${name} (${kind}) with ${decimals(value)} decimals`, at);
    } else if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i]));
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
  };
  walk(doc, []);
  return [...seen].map(([fault, at]) => `${fault}: ${at}`);
}

/** Routes not walked, and why. */
const NOT_WALKED: Record<string, string> = {
  '/api/openapi.json': 'the API description, no figures',
  '/api/ingest/v1/commands': "an agent's route (its key, not a user's): commands carry the dashboard's own prices and lots",
  '/metrics': 'Prometheus text, not JSON',
  '/config.json': "the client's configuration, no figures",
  '/api/accounts/:account/flex': "an Interactive Brokers account's Flex settings: ids, a day and times, no figures (tests/integration/ibkr-flex-fetch.test.ts)",
  '/*': 'the client application',
};

describe.each(BACKENDS)('figures on the wire (%s)', (backend) => {
  let server: TestServer;
  let admin: string;
  const get = async (path: string) => {
    const res = await http(server, 'GET', path, { key: admin });
    expect(res.status, `${path}: ${JSON.stringify(res.body).slice(0, 200)}`).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    server = await startServer(backend);
    admin = await login(server, 'admin');
  });
  afterAll(async () => server.close());

  it('rounds every figure of every GET route an admin calls: money to the cent, ratios to 4 decimals', async () => {
    const accounts = (await get('/api/brokers/accounts/info')) as { data: { account_id: string; is_master: boolean }[] };
    const nav = (await get('/api/brokers/accounts/historical_infos')) as { available_dates: Record<string, number[]> };
    const followers = accounts.data.filter((a) => !a.is_master);
    // A guard of each kind of level, so that its figures are walked too.
    const guard = { scope: 'follower', target: followers[0]!.account_id, basis: 'trailing_from_peak', warn: 10.123456, close_only: 15, close_all: 20 };
    expect((await http(server, 'PUT', '/api/copy/guards', { key: admin, body: guard })).status).toBe(200);
    // The demo's history, and today.
    const since = new Date(Date.now() - 120 * 86_400_000).toISOString().slice(0, 10);
    const paths: Record<string, string[]> = {
      '/api/brokers/accounts/info': ['/api/brokers/accounts/info', '/api/brokers/accounts/info?only_broker_name=true'],
      '/api/brokers/accounts/historical-losses': ['/api/brokers/accounts/historical-losses'],
      '/api/brokers/accounts/max-drawdown': accounts.data.map((a) => `/api/brokers/accounts/max-drawdown?account=${a.account_id}`),
      '/api/brokers/historical-deals': [
        ...accounts.data.map((a) => `/api/brokers/historical-deals?account=${a.account_id}`),
        `/api/brokers/historical-deals?account=${accounts.data[0]!.account_id}&start_date=${Math.floor(Date.now() / 1000) - 30 * 86_400}&filter_rebalancing=true`,
      ],
      '/api/brokers/accounts/historical_infos': Object.keys(nav.available_dates).map((m) => `/api/brokers/accounts/historical_infos?date_id=${m}`),
      '/api/stats/rebates': ['/api/stats/rebates?portfolio=All', '/api/stats/rebates?portfolio=All&group_by=broker'],
      '/api/stats/mae_mfe': ['EURUSD', 'USDJPY', 'AAPL', 'TSLA'].map((s) => `/api/stats/mae_mfe?symbol=${s}`),
      '/api/stats/analysis': accounts.data.map((a) => `/api/stats/analysis?account=${a.account_id}`),
      '/api/alerts/infos': ['/api/alerts/infos'],
      '/api/copy-rules/infos': ['/api/copy-rules/infos'],
      '/api/bridge/status': ['/api/bridge/status'],
      '/api/copy/report': ['1m', '3m', 'all'].map((p) => `/api/copy/report?period=${p}`),
      '/api/copy/health': ['/api/copy/health'],
      '/api/copy/growth': followers.map((a) => `/api/copy/growth?account=${a.account_id}&period=all`),
      '/api/copy/relations': ['/api/copy/relations', '/api/copy/relations?include_ended=true'],
      '/api/copy/guards': accounts.data.map((a) => `/api/copy/guards?account=${a.account_id}`),
      '/api/risk/limits': ['/api/risk/limits'],
      '/api/audit': ['/api/audit'],
      '/api/push/vapid-public-key': ['/api/push/vapid-public-key'],
      '/api/push/preferences': ['/api/push/preferences'],
      '/api/fees/terms': accounts.data.map((a) => `/api/fees/terms?account=${a.account_id}`),
      '/api/fees': accounts.data.map((a) => `/api/fees?account=${a.account_id}&from=${since}`),
      '/api/statements': accounts.data.map((a) => `/api/statements?account=${a.account_id}&from=${since}&format=json`),
      '/health': ['/health'],
      '/ready': ['/ready'],
    };
    const gets = [
      ...new Set(server.app.routeList.filter((r) => r.method === 'GET' && !r.url.startsWith('/ws/') && !r.url.startsWith('/api/docs')).map((r) => r.url)),
    ];
    // A GET route added later is walked here too, or said why not.
    expect(gets.filter((url) => !paths[url] && !NOT_WALKED[url])).toEqual([]);
    const seen = new Map<string, string>();
    for (const [route, list] of Object.entries(paths)) {
      if (!gets.includes(route)) continue;
      expect(list.length, route).toBeGreaterThan(0);
      for (const path of list) faults(await get(path), path, seen);
    }
    expect(faults(null, '', seen)).toEqual([]);
  }, 120_000);

  it('rounds the live snapshots the same way', async () => {
    const seen = new Map<string, string>();
    const feeds: [string, Record<string, string>][] = [
      ['/ws/brokers/live-positions-aggregate', { portfolio: 'Consolidated Portfolio' }],
      ['/ws/brokers/live-positions-aggregate-by', { portfolio: 'Consolidated Portfolio', aggregate_by: 'broker' }],
      ['/ws/brokers/live-positions-aggregate-by', { portfolio: 'Consolidated Portfolio', aggregate_by: 'account' }],
    ];
    for (const [path, query] of feeds) {
      const client = await connect(server, path, { token: await ticket(server, admin), ...query });
      const message = (client.messages[0] ?? (await client.next())) as { positionsAggregate: unknown[] };
      client.socket.close();
      expect(message.positionsAggregate.length, path).toBeGreaterThan(0);
      faults(message, path, seen);
    }
    expect(faults(null, '', seen)).toEqual([]);
  });

  it("shows the same growth on a follower's deals, its series and its copy chart", async () => {
    const accounts = (await get('/api/brokers/accounts/info')) as { data: { account_id: string; is_master: boolean }[] };
    for (const a of accounts.data.filter((x) => !x.is_master)) {
      const deals = (await get(`/api/brokers/historical-deals?account=${a.account_id}`)) as {
        dealsStats: { all: { growth: { value: number }[]; stats: { growth: number } } }[];
      };
      const all = deals.dealsStats[0]!.all;
      const chart = (await get(`/api/copy/growth?account=${a.account_id}&period=all`)) as { data: { follower: { value: number }[] } };
      expect(all.stats.growth, a.account_id).toBe(all.growth.at(-1)?.value ?? 0);
      expect(chart.data.follower.at(-1)?.value, a.account_id).toBe(all.stats.growth);
    }
  });
});
