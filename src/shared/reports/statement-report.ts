import { DAY_S, dayOfIso } from '#shared/domain/days.ts';
import type { StatementData } from '#shared/contract/fees.ts';
import { fileSegment } from '#shared/domain/reports.ts';
import { formatDateFr, formatDayFr } from '#shared/format/dates.ts';
import { formatRebateMoney } from '#shared/format/money.ts';
import { formatPercent, formatPrice, formatProfit, formatQuantity } from '#shared/format/numbers.ts';
import { toCsv, UTF8_BOM, type CsvColumn } from './csv.ts';
import type { TableReport } from './table-report.ts';

/*
 * The investor statement as a PDF report (the NAV and rebates reports' layout, 'Page X of Y') and as
 * a CSV file, from the same figures (docs/fees.md, "Statements").
 */

const FEE_KIND: Record<string, string> = { performance: 'Performance fee', management: 'Management fee', volume: 'Volume fee' };

/** The statement's lines in order: [label, amount or null, currency or null]. */
export function statementLines(s: StatementData): [string, number | null, string | null][] {
  const cur = s.account.currency;
  const lines: [string, number | null, string | null][] = [
    ['Opening balance', s.opening_balance, cur],
    ['Opening equity', s.opening_equity, cur],
    ['Deposits', s.deposits, cur],
    ['Withdrawals', s.withdrawals, cur],
    ['Closed P/L', s.closed_pl, cur],
    ['Swap', s.swap, cur],
    ['Commissions', s.commissions, cur],
    ['Broker fees', s.broker_fees, cur],
  ];
  if (s.rebates !== null) lines.push(['Rebates credited', s.rebates, cur]);
  lines.push(
    ['Other results of the account', s.other_results, cur],
    ['Closing balance', s.closing_balance, cur],
    ['Closing equity', s.closing_equity, cur],
    ['High-water mark at the start', s.mark_start, cur],
    ['High-water mark at the end', s.mark_end, cur],
  );
  for (const f of s.fees) {
    lines.push([`${FEE_KIND[f.kind]} charged`, f.charged, f.currency]);
    if (f.accrued !== 0) lines.push([`${FEE_KIND[f.kind]} accrued, not yet charged`, f.accrued, f.currency]);
  }
  return lines;
}

/** Under the fees: what a charge is (docs/fees.md, "Fees move no money"). */
export const FEES_OWED =
  'Fees are owed to the manager: a fee charged here is not taken from the account, and the balances above are the broker\'s. ' +
  'Where the broker takes a fee from the account, it is one of the account\'s own deals, in the figures above.';

/** The closed trades' totals row: their profit, swap, commissions and fees, and net, summed to the cent. */
export function tradeTotals(trades: StatementData['trades']): string[] {
  const sum = (f: (t: StatementData['trades'][number]) => number) => trades.reduce((c, t) => c + Math.round(f(t) * 100), 0) / 100;
  return [
    `Total (${trades.length})`,
    ...Array<string>(6).fill(''),
    formatProfit(sum((t) => t.profit)),
    formatProfit(sum((t) => t.swap)),
    formatProfit(sum((t) => t.commission + t.fee)),
    formatProfit(sum((t) => t.net)),
  ];
}

export const statementFileName = (s: StatementData, ext: 'pdf' | 'csv'): string =>
  `statement_${fileSegment(s.account.account_name)}_${s.from}_${s.to}.${ext}`;

const pct = (v: number | null): string => (v === null ? '—' : formatPercent(v));

/** The statement as a PDF report. `generatedAt`: epoch seconds. */
export function statementReport(s: StatementData, generatedAt: number): TableReport {
  const money = formatRebateMoney;
  return {
    fileName: statementFileName(s, 'pdf'),
    title: `Statement - ${s.account.account_name}`,
    period: `${formatDayFr(dayOfIso(s.from) * DAY_S, 'UTC')} - ${formatDayFr(dayOfIso(s.to) * DAY_S, 'UTC')} (UTC)`,
    note: `${s.account.broker_name}, login ${s.account.login}, ${s.account.currency}. Generated ${formatDateFr(generatedAt, 'UTC')} UTC.`,
    summaryTitle: 'Summary',
    summary: {
      head: ['', 'Amount'],
      body: [
        ...statementLines(s).map(([label, value, cur]) => [label, value === null ? '—' : money(value, cur)]),
        ['Time-weighted return', pct(s.twr_pct)],
        ['Money-weighted return (Modified Dietz)', pct(s.mwr_pct)],
      ],
      rightAligned: [1],
    },
    detailTitle: 'Fees',
    detail: {
      head: ['Fee', 'Charged', 'Accrued, not charged', 'Currency'],
      body: s.fees.length
        ? s.fees.map((f) => [FEE_KIND[f.kind]!, money(f.charged, f.currency), money(f.accrued, f.currency), f.currency])
        : [['No fee in this period', '', '', '']],
      rightAligned: [1, 2],
      remark: FEES_OWED,
    },
    more: [
      {
        title: `Closed trades (${s.trades.length}), in ${s.account.currency}`,
        table: {
          head: ['Opened (UTC)', 'Closed (UTC)', 'Symbol', 'Type', 'Lots', 'Open', 'Close', 'Profit', 'Swap', 'Comm. + fees', 'Net'],
          body: s.trades.length
            ? s.trades.map((t) => [
                formatDateFr(t.opened_at, 'UTC'),
                formatDateFr(t.closed_at, 'UTC'),
                t.symbol,
                t.type,
                formatQuantity(t.quantity),
                formatPrice(t.open_price, t.symbol),
                formatPrice(t.close_price, t.symbol),
                formatProfit(t.profit),
                formatProfit(t.swap),
                formatProfit(t.commission + t.fee),
                formatProfit(t.net),
              ])
            : [['No trade closed in this period', '', '', '', '', '', '', '', '', '', '']],
          ...(s.trades.length ? { foot: tradeTotals(s.trades) } : {}),
          rightAligned: [4, 5, 6, 7, 8, 9, 10],
          fontSize: 7.5,
        },
      },
      ...(s.risk_events.length
        ? [
            {
              title: `Copy guards (${s.risk_events.length})`,
              table: { head: ['When (UTC)', 'Event'], body: s.risk_events.map((e) => [formatDateFr(e.at, 'UTC'), e.message]), rightAligned: [] },
            },
          ]
        : []),
    ],
  };
}

const iso = (epochS: number | null): string | null => (epochS === null ? null : new Date(epochS * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'));

/**
 * The statement as CSV: tables one after the other, a blank line between them: the summary (Item,
 * Amount, Currency; the returns in %), the fees, the closed trades, and the copy guards' events when
 * there were any. Amounts are plain numbers.
 */
export function statementCsv(s: StatementData): string {
  type Line = [string, number | null, string | null];
  const summary: Line[] = [
    ['Account', null, s.account.account_name],
    ['Broker', null, s.account.broker_name],
    ['Login', null, s.account.login],
    ['From', null, s.from],
    ['To', null, s.to],
    ...statementLines(s),
    ['Time-weighted return %', s.twr_pct, null],
    ['Money-weighted return % (Modified Dietz)', s.mwr_pct, null],
  ];
  const lineColumns: CsvColumn<Line>[] = [
    { title: 'Item', value: (l) => l[0] },
    { title: 'Amount', value: (l) => l[1] },
    { title: 'Currency', value: (l) => l[2] },
  ];
  type Fee = StatementData['fees'][number];
  const feeColumns: CsvColumn<Fee>[] = [
    { title: 'Fee', value: (f) => FEE_KIND[f.kind] },
    { title: 'Charged', value: (f) => f.charged },
    { title: 'Accrued, not charged', value: (f) => f.accrued },
    { title: 'Currency', value: (f) => f.currency },
  ];
  type Trade = StatementData['trades'][number];
  const tradeColumns: CsvColumn<Trade>[] = [
    { title: 'Opened (UTC)', value: (t) => iso(t.opened_at) },
    { title: 'Closed (UTC)', value: (t) => iso(t.closed_at) },
    { title: 'Symbol', value: (t) => t.symbol },
    { title: 'Type', value: (t) => t.type },
    { title: 'Lots', value: (t) => t.quantity },
    { title: 'Open price', value: (t) => (t.open_price === null ? null : formatPrice(t.open_price, t.symbol)) },
    { title: 'Close price', value: (t) => (t.close_price === null ? null : formatPrice(t.close_price, t.symbol)) },
    { title: 'Profit', value: (t) => t.profit },
    { title: 'Swap', value: (t) => t.swap },
    { title: 'Commission', value: (t) => t.commission },
    { title: 'Fee', value: (t) => t.fee },
    { title: 'Net', value: (t) => t.net },
  ];
  type Risk = StatementData['risk_events'][number];
  const riskColumns: CsvColumn<Risk>[] = [
    { title: 'Guard event (UTC)', value: (e) => iso(e.at) },
    { title: 'Kind', value: (e) => e.kind },
    { title: 'Event', value: (e) => e.message },
  ];
  const blocks = [
    toCsv({ columns: lineColumns, rows: summary }),
    toCsv({ columns: feeColumns, rows: s.fees }),
    toCsv({ columns: tradeColumns, rows: s.trades }),
    ...(s.risk_events.length ? [toCsv({ columns: riskColumns, rows: s.risk_events })] : []),
  ];
  return `${UTF8_BOM}${blocks.join('\r\n\r\n')}\r\n`;
}
