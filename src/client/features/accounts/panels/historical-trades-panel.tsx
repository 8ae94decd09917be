import { memo, useMemo, useState } from 'react';
import type { HistoricalDeal, HistoricalDealsResponse } from '#shared/contract/deals.ts';
import type { SortState } from '#shared/domain/sorting.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { formatMoney } from '#shared/format/money.ts';
import { formatPrice, formatQuantity, MISSING_VALUE } from '#shared/format/numbers.ts';
import { CsvButton } from '#client/export/csv-button.tsx';
import { csvDateTime, csvFileName, csvNumber, localIsoDate, type CsvColumn } from '#client/export/csv-table.ts';
import { CardList, type CardField } from '#client/ui/card-list.tsx';
import { SectionPanel } from '#client/ui/section-panel.tsx';
import { SortableTable, sortTableRows, type TableColumn } from '#client/ui/sortable-table.tsx';
import { ErrorState, LoadingState } from '#client/ui/states.tsx';
import { useSteppedCount } from '#client/ui/use-staged-mount.ts';
import { TradeTitle, PriceMove, type TradeFace } from '#client/ui/trade-card.tsx';
import { Side, signedClass } from '#client/ui/trade-cells.tsx';

export const NO_TRADE_DATA = 'No trade data available.';
/** Rows added per 'Show more': fewer on phones, where each deal is a card. */
const PAGE_WIDE = 50;
const PAGE_PHONE = 25;
/** Rows drawn per task: a page of deals comes in a few short commits instead of one long one. */
const STEP_WIDE = 10;
const STEP_PHONE = 5;

type Row = HistoricalDeal & { key: number };

function dealColumns(showRebate: boolean): TableColumn<Row>[] {
  const money = (key: 'profit' | 'swap' | 'commission' | 'fee', header: string, tone = false): TableColumn<Row> => ({
    key,
    header,
    align: 'right',
    render: (d) => <span className={tone ? signedClass(d[key]) : undefined}>{formatMoney(d[key], d.currency)}</span>,
  });
  const columns: TableColumn<Row>[] = [
    { key: 'datetime', header: 'Date', render: (d) => formatDateFr(d.datetime) },
    { key: 'symbol', header: 'Symbol', render: (d) => d.symbol || d.category },
    { key: 'type', header: 'Type', render: (d) => <Side type={d.type} /> },
    { key: 'quantity', header: 'Quantity', align: 'right', render: (d) => (isBalanceRow(d) ? MISSING_VALUE : formatQuantity(d.quantity)) },
    { key: 'open_price', header: 'Open price', align: 'right', render: (d) => formatPrice(d.open_price, d.symbol) },
    { key: 'close_price', header: 'Close price', align: 'right', render: (d) => formatPrice(d.close_price, d.symbol) },
    money('profit', 'Profit', true),
    money('swap', 'Swap'),
    money('commission', 'Commission'),
    money('fee', 'Fee'),
  ];
  if (showRebate) {
    columns.push({
      key: 'rebate',
      header: 'Rebate',
      align: 'right',
      render: (d) => formatMoney(d.rebate, d.currency),
    });
  }
  return columns;
}

/** A row of the balance, not a trade (a deposit, a withdrawal, a rebate, a result): it has no prices. */
const isBalanceRow = (d: HistoricalDeal) => d.category === 'Balance';

/** The table's columns for a CSV file, the amounts' currency as a column; a cash flow has no quantity, as on screen. */
function dealCsvColumns(showRebate: boolean): CsvColumn<Row>[] {
  return [
    { title: 'Date', value: (d) => csvDateTime(d.datetime) },
    { title: 'Symbol', value: (d) => d.symbol || d.category },
    { title: 'Type', value: (d) => d.type },
    { title: 'Quantity', value: (d) => (isBalanceRow(d) ? null : csvNumber(d.quantity)) },
    { title: 'Open price', value: (d) => csvNumber(d.open_price) },
    { title: 'Close price', value: (d) => csvNumber(d.close_price) },
    { title: 'Profit', value: (d) => csvNumber(d.profit) },
    { title: 'Swap', value: (d) => csvNumber(d.swap) },
    { title: 'Commission', value: (d) => csvNumber(d.commission) },
    { title: 'Fee', value: (d) => csvNumber(d.fee) },
    ...(showRebate ? [{ title: 'Rebate', value: (d: Row) => csvNumber(d.rebate) }] : []),
    { title: 'Currency', value: (d) => d.currency },
  ];
}

/** A phone's row: symbol, type and quantity; open → close price; profit with the date under it. A cash flow has no prices. */
const face = (d: HistoricalDeal): TradeFace => ({
  title: isBalanceRow(d) ? (
    <>
      <span className="ui-trade-symbol">{d.symbol || d.category}</span> <Side type={d.type} />
    </>
  ) : (
    <TradeTitle symbol={d.symbol || d.category} side={d.type} size={formatQuantity(d.quantity)} />
  ),
  subtitle: isBalanceRow(d) ? null : <PriceMove from={formatPrice(d.open_price, d.symbol)} to={formatPrice(d.close_price, d.symbol)} />,
  figure: formatMoney(d.profit, d.currency),
  tone: d.profit,
  note: formatDateFr(d.datetime),
});

/** What a tap opens: the table's columns that the face does not show, under the same labels. */
function dealDetails(columns: readonly TableColumn<Row>[]): CardField<Row>[] {
  return columns
    .filter((column) => !['symbol', 'type', 'profit'].includes(column.key))
    .map((column) => ({ key: column.key, label: column.header, render: column.render, wide: column.key === 'datetime' }));
}

/** 'Tap for Swap, Commission, Fee and Rebate': the labels each in its own element. */
function detailsHint(labels: readonly string[]) {
  const last = labels.length - 1;
  return (
    <>
      Tap for{' '}
      {labels.map((label, i) => (
        <span key={label}>
          {i === 0 ? '' : i === last ? ' and ' : ', '}
          <span>{label}</span>
        </span>
      ))}
    </>
  );
}

export interface HistoricalTradesPanelProps {
  isPending: boolean;
  isError: boolean;
  data: HistoricalDealsResponse | undefined;
  showRebate: boolean;
  wide: boolean;
}

/** The account's closed deals and cash flows, newest first (docs/product.md#screens); cards on phones, a table on large screens. */
export const HistoricalTradesPanel = memo(function HistoricalTradesPanel({ isPending, isError, data, showRebate, wide }: HistoricalTradesPanelProps) {
  const page = wide ? PAGE_WIDE : PAGE_PHONE;
  const [shown, setShown] = useState(page);
  const [sort, setSort] = useState<SortState<string> | null>(null);
  const all = data?.dealsStats[0]?.deals;
  // Counted from the oldest: a new deal arrives at the top, and an open card stays with its deal.
  // Built once per answer (every 30 s), not on every render of the screen.
  const deals: Row[] = useMemo(() => (all ?? []).map((d, i, list) => ({ ...d, key: list.length - 1 - i })), [all]);
  const columns = useMemo(() => dealColumns(showRebate), [showRebate]);
  const fields = useMemo(() => dealDetails(columns), [columns]);
  const visible = useMemo(() => deals.slice(0, shown), [deals, shown]);
  const step = wide ? STEP_WIDE : STEP_PHONE;
  const drawn = useSteppedCount(visible.length, step, step);
  const rows = drawn < visible.length ? visible.slice(0, drawn) : visible;
  // Every deal the account has, not only the rows shown so far, in the table's order.
  const buildCsv = (nowMs: number) => ({
    fileName: csvFileName('historical_trades', data?.dealsStats[0]?.account ?? 'account', localIsoDate(nowMs)),
    columns: dealCsvColumns(showRebate),
    rows: wide ? sortTableRows(deals, columns, sort) : deals,
  });

  let body;
  if (isPending) body = <LoadingState>Loading account data...</LoadingState>;
  else if (isError) body = <ErrorState>{NO_TRADE_DATA}</ErrorState>;
  else if (wide)
    body = (
      <SortableTable
        columns={columns}
        rows={rows}
        rowKey={(d) => d.key}
        emptyText={NO_TRADE_DATA}
        label="Historical trades"
        className="history-table"
        sort={sort}
        onSortChange={setSort}
      />
    );
  else {
    // Deals come newest first from the server, the order of the table too.
    body = (
      <CardList
        items={rows}
        itemKey={(d) => d.key}
        label="Historical trades"
        emptyText={NO_TRADE_DATA}
        face={face}
        fields={fields}
        hint={detailsHint(['Swap', 'Commission', 'Fee', ...(showRebate ? ['Rebate'] : [])])}
      />
    );
  }

  return (
    <SectionPanel
      title="Historical trades"
      className="history-panel"
      actions={<CsvButton table="Historical trades" build={buildCsv} disabled={isPending || isError || deals.length === 0} />}
    >
      {body}
      {!isPending && deals.length > shown ? (
        <div className="show-more">
          <span className="panel-note">
            {visible.length} of {deals.length}
          </span>
          <button type="button" className="button" onClick={() => setShown((n) => n + page)}>
            Show more
          </button>
        </div>
      ) : null}
    </SectionPanel>
  );
});
