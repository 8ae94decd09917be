/* The Copy screen's columns (followers, brokers, trades) for its tables, cards and CSV files, and their labels. */
import type { BridgeHealth, CopiedTrade, CopyReportResponse, FollowerQuality, MissReason } from '#shared/contract/copy.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { formatMoney } from '#shared/format/money.ts';
import { MISSING_VALUE, numberFormat } from '#shared/format/numbers.ts';
import { csvDateTime, csvNumber, type CsvColumn } from '#client/export/csv-table.ts';
import { toneOf } from '#client/ui/figure-list.tsx';
import { type TableColumn } from '#client/ui/sortable-table.tsx';

export type Report = CopyReportResponse['data'];
export type Broker = Report['brokers'][number];

export const REASON_LABELS: Record<MissReason, string> = {
  pair_not_allowed: 'Pair not allowed',
  bridge_off: 'Bridge off',
  agent_offline: 'Agent offline',
  server_down: 'No server copying',
  rejected: 'Rejected by the terminal',
  expired: 'Expired at the terminal',
  unanswered: 'No answer from the terminal',
  no_margin: 'Not enough margin',
  equity_stop: 'Equity stop',
  guard_close_only: 'Guard: close-only',
  guard_closed: 'Guard: closed',
  no_size: 'Size unknown (equity in EUR)',
  unknown: 'Not recorded',
};

export const MISSES_SHOWN = 8;

export const STATE_LABELS: Record<BridgeHealth['state'], string> = { simulated: 'Simulated', live: 'Live', silent: 'Silent', statement: 'Statements', offline: 'Offline' };

export const num = (digits: number) => numberFormat('fr-FR', { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const fmt = (value: number | null | undefined, digits = 1, unit = '') => (value === null || value === undefined ? MISSING_VALUE : `${num(digits).format(value)}${unit}`);
export const eur = (value: number | null | undefined) => (value === null || value === undefined ? MISSING_VALUE : formatMoney(value, 'EUR'));
export const points = (value: number | null) => (value === null ? MISSING_VALUE : `${value > 0 ? '+' : ''}${num(2).format(value)} pts`);

/** Seconds as '12 s', '4 min', '3 h'. */
export function ageLabel(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 5_400) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3_600)} h`;
}

export type FollowerKey = 'account_name' | 'master' | 'tracking_difference' | 'copied' | 'missed' | 'duplicates' | 'manual' | 'avg_entry_slippage_pips' | 'avg_delay_ms' | 'cost_eur';

export const FOLLOWER_COLUMNS: readonly TableColumn<FollowerQuality, FollowerKey>[] = [
  { key: 'account_name', header: 'Follower', render: (f) => f.account_name },
  { key: 'master', header: 'Master', render: (f) => masterName(f), sortValue: (f) => f.master?.account_name ?? '' },
  {
    key: 'tracking_difference',
    header: 'Tracking difference',
    tooltip: { description: "The follower's time-weighted return minus its master's over the period, in percentage points." },
    render: (f) => <span className={toneClass(f.tracking_difference)}>{points(f.tracking_difference)}</span>,
    align: 'right',
  },
  { key: 'copied', header: 'Copied', render: (f) => (f.is_copy ? f.copied : MISSING_VALUE), align: 'right' },
  {
    key: 'missed',
    header: 'Missed',
    tooltip: { description: 'Master trades this follower did not copy, with their reason (hover the count).' },
    render: (f) => (f.is_copy ? <span title={missedTitle(f)}>{f.missed}</span> : MISSING_VALUE),
    align: 'right',
  },
  { key: 'duplicates', header: 'Duplicated', render: (f) => (f.is_copy ? f.duplicates : MISSING_VALUE), align: 'right' },
  { key: 'manual', header: 'Manual', tooltip: { description: 'Trades with no master trade: interventions by hand.' }, render: (f) => (f.is_copy ? f.manual : MISSING_VALUE), align: 'right' },
  {
    key: 'avg_entry_slippage_pips',
    header: 'Avg slippage',
    tooltip: { description: 'Average entry slippage of the forex copies against the master, in pips (positive: a worse price).' },
    render: (f) => fmt(f.avg_entry_slippage_pips, 2, ' pips'),
    align: 'right',
  },
  { key: 'avg_delay_ms', header: 'Avg delay', tooltip: { description: "Master's fill to the follower's fill." }, render: (f) => fmt(f.avg_delay_ms, 0, ' ms'), align: 'right' },
  {
    key: 'cost_eur',
    header: 'Cost of copying',
    tooltip: { description: "Slippage at entry and exit, the follower's commissions and fees, and the swap it paid beyond its master's, in EUR." },
    render: (f) => eur(f.cost_eur),
    align: 'right',
  },
];

export const FOLLOWER_CSV: readonly CsvColumn<FollowerQuality>[] = [
  { title: 'Follower', value: (f) => f.account_name },
  { title: 'Master', value: (f) => masterName(f) },
  { title: 'Tracking difference', value: (f) => csvNumber(f.tracking_difference) },
  { title: 'Copied', value: (f) => (f.is_copy ? f.copied : null) },
  { title: 'Missed', value: (f) => (f.is_copy ? f.missed : null) },
  { title: 'Duplicated', value: (f) => (f.is_copy ? f.duplicates : null) },
  { title: 'Manual', value: (f) => (f.is_copy ? f.manual : null) },
  { title: 'Avg slippage', value: (f) => csvNumber(f.avg_entry_slippage_pips) },
  { title: 'Avg delay', value: (f) => csvNumber(f.avg_delay_ms) },
  { title: 'Cost of copying', value: (f) => csvNumber(f.cost_eur) },
];

export type BrokerKey = 'rank' | 'broker_name' | 'trades' | 'avg_entry_slippage_pips' | 'worst_entry_slippage_pips' | 'avg_delay_ms' | 'worst_delay_ms' | 'avg_slippage_cost_eur';
export type RankedBroker = Broker & { rank: number };

export const BROKER_COLUMNS: readonly TableColumn<RankedBroker, BrokerKey>[] = [
  { key: 'rank', header: '#', render: (b) => b.rank, align: 'right' },
  { key: 'broker_name', header: 'Broker', render: (b) => b.broker_name },
  { key: 'trades', header: 'Copies', render: (b) => b.trades, align: 'right' },
  { key: 'avg_entry_slippage_pips', header: 'Avg slippage', render: (b) => fmt(b.avg_entry_slippage_pips, 2, ' pips'), align: 'right' },
  { key: 'worst_entry_slippage_pips', header: 'Worst slippage', render: (b) => fmt(b.worst_entry_slippage_pips, 2, ' pips'), align: 'right' },
  { key: 'avg_delay_ms', header: 'Avg delay', render: (b) => fmt(b.avg_delay_ms, 0, ' ms'), align: 'right' },
  { key: 'worst_delay_ms', header: 'Worst delay', render: (b) => fmt(b.worst_delay_ms, 0, ' ms'), align: 'right' },
  { key: 'avg_slippage_cost_eur', header: 'Avg cost', render: (b) => eur(b.avg_slippage_cost_eur), align: 'right' },
];

export const BROKER_CSV: readonly CsvColumn<RankedBroker>[] = [
  { title: '#', value: (b) => b.rank },
  { title: 'Broker', value: (b) => b.broker_name },
  { title: 'Copies', value: (b) => b.trades },
  { title: 'Avg slippage', value: (b) => csvNumber(b.avg_entry_slippage_pips) },
  { title: 'Worst slippage', value: (b) => csvNumber(b.worst_entry_slippage_pips) },
  { title: 'Avg delay', value: (b) => csvNumber(b.avg_delay_ms) },
  { title: 'Worst delay', value: (b) => csvNumber(b.worst_delay_ms) },
  { title: 'Avg cost', value: (b) => csvNumber(b.avg_slippage_cost_eur) },
];

export type TradeKey = 'opened_at' | 'symbol' | 'quantity' | 'entry_slippage' | 'exit_slippage' | 'slippage_cost_eur' | 'delay_ms' | 'size_ratio';

export const unitOf = (t: CopiedTrade) => (t.slippage_unit === 'pips' ? ' pips' : '');
export const TRADE_COLUMNS: readonly TableColumn<CopiedTrade, TradeKey>[] = [
  { key: 'opened_at', header: 'Opened', render: (t) => formatDateFr(t.opened_at) },
  { key: 'symbol', header: 'Trade', render: (t) => `${t.type} ${t.symbol}${t.inferred ? ' *' : ''}`, sortValue: (t) => t.symbol },
  { key: 'quantity', header: 'Size / rule', render: (t) => `${t.quantity} / ${t.expected_quantity ?? MISSING_VALUE}`, align: 'right' },
  { key: 'entry_slippage', header: 'Entry slippage', render: (t) => fmt(t.entry_slippage, 2, unitOf(t)), align: 'right' },
  { key: 'exit_slippage', header: 'Exit slippage', render: (t) => fmt(t.exit_slippage, 2, unitOf(t)), align: 'right' },
  { key: 'slippage_cost_eur', header: 'Slippage cost', render: (t) => eur(t.slippage_cost_eur), align: 'right' },
  { key: 'delay_ms', header: 'Delay', render: (t) => fmt(t.delay_ms, 0, ' ms'), align: 'right' },
  { key: 'size_ratio', header: 'Ratio', render: (t) => fmt(t.size_ratio, 2), align: 'right' },
];

export const TRADE_CSV: readonly CsvColumn<CopiedTrade>[] = [
  { title: 'Opened', value: (t) => csvDateTime(t.opened_at) },
  { title: 'Trade', value: (t) => `${t.type} ${t.symbol}` },
  { title: 'Size', value: (t) => t.quantity },
  { title: 'Rule size', value: (t) => t.expected_quantity },
  { title: 'Entry slippage', value: (t) => t.entry_slippage },
  { title: 'Exit slippage', value: (t) => t.exit_slippage },
  { title: 'Slippage unit', value: (t) => t.slippage_unit },
  { title: 'Slippage cost', value: (t) => csvNumber(t.slippage_cost_eur) },
  { title: 'Delay', value: (t) => t.delay_ms },
  { title: 'Ratio', value: (t) => t.size_ratio },
  { title: 'Link inferred', value: (t) => (t.inferred ? 'yes' : 'no') },
];

/** The master's name; a follower whose master is outside the caller's portfolios does not see it. */
export function masterName(f: FollowerQuality): string {
  return f.master?.account_name ?? (f.is_copy ? 'A master outside your portfolios' : 'Not a copy account');
}

export function toneClass(value: number | null): string | undefined {
  const tone = toneOf(value);
  return tone ? `figure-${tone}` : undefined;
}

export function missedTitle(f: FollowerQuality): string {
  return f.missed_by_reason.map((m) => `${REASON_LABELS[m.reason]}: ${m.count}`).join(', ') || 'None';
}
