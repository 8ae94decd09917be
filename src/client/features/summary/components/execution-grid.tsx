import { memo, useMemo, useState } from 'react';
import type { Position } from '#shared/contract/positions.ts';
import {
  bestPrices,
  durationRanking,
  executionGrid,
  type BestPriceEntry,
  type DurationEntry,
  type ExecutionGrid,
  type GridBy,
  type GridCell,
  type GridRow,
} from '#shared/analytics/dashboard.ts';
import { formatMoney } from '#shared/format/money.ts';
import { formatPrice, formatQuantity, numberFormat } from '#shared/format/numbers.ts';
import { useSinglePortfolio } from '#client/app/portfolio.ts';
import { CsvButton } from '#client/export/csv-button.tsx';
import { csvFileName, csvNumber, localIsoDate, type CsvColumn, type CsvTable } from '#client/export/csv-table.ts';
import { BrokerIcon } from '#client/ui/broker-icon.tsx';
import { Modal } from '#client/ui/modal.tsx';
import { SkeletonRows } from '#client/ui/skeleton.tsx';
import { EmptyState, ErrorState } from '#client/ui/states.tsx';
import { Tooltip } from '#client/ui/tooltip.tsx';
import { useNearViewport } from '#client/ui/use-near-viewport.ts';
import { ExpandButton } from './panel.tsx';

export const NO_EXECUTION_DATA = 'No execution data available.';
export const NO_DURATION_DATA = 'No duration data available';
export const NO_PRICE_DATA = 'No price data available.';

const TABS: readonly { value: GridBy; label: string }[] = [
  { value: 'broker', label: 'Broker' },
  { value: 'account', label: 'Accounts' },
];

/** Drawn inline: emoji fonts are missing on many kiosks and servers. */
function TrophyIcon() {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" role="img" aria-label="best price" className="summary-mark-icon">
      <path d="M7 4h10v3a5 5 0 0 1-10 0V4z" fill="#E5B100" />
      <path d="M7 5H4v1.5A3.5 3.5 0 0 0 7.5 10M17 5h3v1.5A3.5 3.5 0 0 1 16.5 10" stroke="#E5B100" strokeWidth="1.6" fill="none" />
      <path d="M10.5 12h3v3.5h-3z" fill="#C99700" />
      <path d="M8 19.5h8v-2.5H8z" fill="#8A6A00" />
    </svg>
  );
}

function ColdFaceIcon() {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" role="img" aria-label="worst price" className="summary-mark-icon">
      <circle cx="12" cy="12" r="10" fill="#5AB0F0" />
      <circle cx="8.5" cy="10" r="1.6" fill="#0B2A4A" />
      <circle cx="15.5" cy="10" r="1.6" fill="#0B2A4A" />
      <path d="M7.5 15.5h9v2.5h-9z" fill="#fff" stroke="#0B2A4A" strokeWidth="1" />
      <path d="M10.5 15.5v2.5M13.5 15.5v2.5" stroke="#0B2A4A" strokeWidth="1" />
    </svg>
  );
}

function PriceCell({ cell, mark, symbol }: { cell: GridCell; mark: 'best' | 'worst' | null; symbol: string }) {
  return (
    <Tooltip description={`Quantity ${formatQuantity(cell.quantity)}`} example={`PnL ${formatMoney(cell.profit, cell.currency)}`}>
      <button
        type="button"
        className={`summary-price${mark ? ` summary-price-${mark}` : ''}`}
        data-mark={mark ?? undefined}
        data-price={cell.price}
      >
        <span>{formatPrice(cell.price, symbol)}</span>
        {mark === 'best' ? <TrophyIcon /> : mark === 'worst' ? <ColdFaceIcon /> : null}
      </button>
    </Tooltip>
  );
}

const ownerTitle = (by: GridBy) => (by === 'broker' ? 'Broker' : 'Account');
const tabLabel = (by: GridBy) => TABS.find((t) => t.value === by)?.label ?? by;

/** The grid as a CSV table: instrument, direction, a price per account or broker, and who filled best and worst (the marks). */
function gridCsv(grid: ExecutionGrid): Pick<CsvTable<GridRow>, 'columns' | 'rows'> {
  const owner = (index: number | null) => (index === null ? null : (grid.columns[index] ?? null));
  const columns: CsvColumn<GridRow>[] = [
    { title: 'Instrument', value: (row) => row.symbol },
    { title: 'Dir', value: (row) => row.type },
    ...grid.columns.map((name, i): CsvColumn<GridRow> => ({ title: name, value: (row) => csvNumber(row.cells[i]?.price) })),
    { title: 'Best', value: (row) => owner(row.best) },
    { title: 'Worst', value: (row) => owner(row.worst) },
  ];
  return { columns, rows: grid.rows };
}

function durationCsvColumns(by: GridBy): CsvColumn<DurationEntry & { rank: number }>[] {
  return [
    { title: 'Rank', value: (entry) => entry.rank },
    { title: ownerTitle(by), value: (entry) => entry.name },
    { title: 'Execution duration (ms)', value: (entry) => csvNumber(entry.exec_duration_ms) },
  ];
}

function bestPriceCsvColumns(by: GridBy): CsvColumn<BestPriceEntry>[] {
  return [
    { title: 'Instrument', value: (entry) => entry.symbol },
    { title: 'Dir', value: (entry) => entry.type },
    { title: 'Price', value: (entry) => csvNumber(entry.price) },
    { title: ownerTitle(by), value: (entry) => entry.name },
  ];
}

const markOf = (best: number | null, worst: number | null, index: number): 'best' | 'worst' | null =>
  best === index ? 'best' : worst === index ? 'worst' : null;

function GridTable({ grid, by }: { grid: ExecutionGrid; by: GridBy }) {
  return (
    <div className="ui-table-scroll summary-grid-scroll" role="region" aria-label="Execution prices" tabIndex={0}>
      <table className="ui-table summary-grid-table">
        <thead>
          <tr>
            <th scope="col">Instrument</th>
            {grid.columns.map((c) => (
              <th key={c} scope="col" className="ui-align-right">
                {by === 'broker' ? (
                  <span className="summary-owner">
                    <BrokerIcon broker={c} size={18} />
                    {c}
                  </span>
                ) : (
                  c
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {grid.rows.map((row) => (
            <tr key={`${row.symbol}|${row.type}`} data-grid-row={`${row.symbol} ${row.type}`}>
              <th scope="row">
                {row.symbol} <span className={`summary-dir summary-dir-${row.type.toLowerCase()}`}>{row.type}</span>
              </th>
              {row.cells.map((cell, i) => (
                <td key={grid.columns[i]} className="ui-align-right">
                  {cell ? <PriceCell cell={cell} mark={markOf(row.best, row.worst, i)} symbol={row.symbol} /> : <span className="summary-sub">·</span>}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function GridCards({ grid }: { grid: ExecutionGrid }) {
  return (
    <ul className="ui-card-list summary-grid-cards" aria-label="Execution prices">
      {grid.rows.map((row) => {
        const fills = row.cells.flatMap((cell, i) => (cell ? [{ cell, i, name: grid.columns[i] ?? '' }] : []));
        // Best and worst first; the other fills fold away so a phone shows the comparison at a glance.
        const marked = fills.filter((f) => f.i === row.best || f.i === row.worst).sort((a) => (a.i === row.best ? -1 : 1));
        const others = fills.filter((f) => f.i !== row.best && f.i !== row.worst);
        const line = (f: (typeof fills)[number]) => (
          <div className="ui-card-row" key={f.name}>
            <dt>{f.name}</dt>
            <dd>
              <PriceCell cell={f.cell} mark={markOf(row.best, row.worst, f.i)} symbol={row.symbol} />
            </dd>
          </div>
        );
        const head = marked.length ? marked : others.slice(0, 1);
        const rest = marked.length ? others : others.slice(1);
        return (
          <li key={`${row.symbol}|${row.type}`} className="ui-card" data-grid-row={`${row.symbol} ${row.type}`}>
            <div className="ui-card-title">
              {row.symbol} <span className={`summary-dir summary-dir-${row.type.toLowerCase()}`}>{row.type}</span>{' '}
              <span className="summary-sub">
                {fills.length} fill{fills.length === 1 ? '' : 's'}
              </span>
            </div>
            <dl className="ui-card-fields">{head.map(line)}</dl>
            {rest.length ? (
              <details className="summary-more">
                <summary>
                  {rest.length} other fill{rest.length === 1 ? '' : 's'}
                </summary>
                <dl className="ui-card-fields">{rest.map(line)}</dl>
              </details>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

const msFormat = (ms: number | null) => (ms === null ? '—' : `${numberFormat('fr-FR', { maximumFractionDigits: 0 }).format(ms)} ms`);

function SideTables({ rows, grid, by }: { rows: readonly Position[]; grid: ExecutionGrid; by: GridBy }) {
  const ranking = useMemo(() => durationRanking(rows, by), [rows, by]);
  const best = useMemo(() => bestPrices(grid), [grid]);
  const portfolio = useSinglePortfolio();
  const durationCsv = (nowMs: number) => ({
    fileName: csvFileName('execution_duration', tabLabel(by), portfolio, localIsoDate(nowMs)),
    columns: durationCsvColumns(by),
    rows: ranking.map((entry, i) => ({ ...entry, rank: i + 1 })),
  });
  const bestCsv = (nowMs: number) => ({
    fileName: csvFileName('best_prices', tabLabel(by), portfolio, localIsoDate(nowMs)),
    columns: bestPriceCsvColumns(by),
    rows: best,
  });
  return (
    <div className="summary-side-tables">
      <section aria-label="Execution duration ranking">
        <div className="summary-side-head">
          <h3>Execution duration</h3>
          <CsvButton table="Execution duration ranking" build={durationCsv} disabled={ranking.length === 0} />
        </div>
        {ranking.length === 0 ? (
          <EmptyState>{NO_DURATION_DATA}</EmptyState>
        ) : (
          // A list that scrolls is reachable by keyboard (WCAG 2.1.1).
          <ol className="summary-rank" tabIndex={0} aria-label="Execution duration, fastest first">
            {ranking.map((entry, i) => (
              <li key={entry.name}>
                <span className="summary-rank-n">{i + 1}</span>
                <span className="summary-rank-name">{entry.name}</span>
                <span className="summary-rank-value">{msFormat(entry.exec_duration_ms)}</span>
              </li>
            ))}
          </ol>
        )}
      </section>
      <section aria-label="Best price per instrument">
        <div className="summary-side-head">
          <h3>Best price per instrument</h3>
          <CsvButton table="Best price per instrument" build={bestCsv} disabled={best.length === 0} />
        </div>
        {best.length === 0 ? (
          <EmptyState>{NO_PRICE_DATA}</EmptyState>
        ) : (
          <ul className="summary-rank" tabIndex={0} aria-label="Best price per instrument">
            {best.map((entry) => (
              <li key={`${entry.symbol}|${entry.type}`}>
                <span className="summary-rank-name">
                  {entry.symbol} <span className={`summary-dir summary-dir-${entry.type.toLowerCase()}`}>{entry.type}</span>
                </span>
                <span className="summary-rank-value">
                  {formatPrice(entry.price, entry.symbol)} <span className="summary-sub">{entry.name}</span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export interface ExecutionPanelProps {
  /** Rows per account (the account feed) and per broker (the broker feed); null before their first message. */
  accountRows: readonly Position[] | null;
  brokerRows: readonly Position[] | null;
  brokerError: string | null;
  tab: GridBy;
  onTab: (tab: GridBy) => void;
  wide: boolean;
}

function GridBody({ rows, error, by, wide }: { rows: readonly Position[] | null; error: string | null; by: GridBy; wide: boolean }) {
  const grid = useMemo(() => (rows ? executionGrid(rows, by) : null), [rows, by]);
  if (grid === null || rows === null) {
    if (error) return <ErrorState>{error}</ErrorState>;
    return <SkeletonRows rows={wide ? 5 : 3} columns={4} label="Loading execution prices..." />;
  }
  return (
    <div className="summary-grid-layout">
      <div className="summary-grid-main">
        {grid.rows.length === 0 ? <EmptyState>{NO_EXECUTION_DATA}</EmptyState> : wide ? <GridTable grid={grid} by={by} /> : <GridCards grid={grid} />}
      </div>
      <SideTables rows={rows} grid={grid} by={by} />
    </div>
  );
}

/**
 * Broker execution grid with tabs Broker and Accounts, its side tables and a full-screen view (docs/product.md#screens).
 * On a phone the grid sits a screen or more below the fold and is the largest part of Summary
 * (some 800 elements, rebuilt with every snapshot): it is drawn once the panel comes within a
 * screen of the viewport, and its skeleton stands in until then.
 */
export const ExecutionPanel = memo(function ExecutionPanel({ accountRows, brokerRows, brokerError, tab, onTab, wide }: ExecutionPanelProps) {
  const [expanded, setExpanded] = useState(false);
  const { ref, near } = useNearViewport('100%');
  const portfolio = useSinglePortfolio();
  const rows = tab === 'account' ? accountRows : brokerRows;
  const error = tab === 'broker' ? brokerError : null;
  const buildCsv = (nowMs: number) => ({
    fileName: csvFileName('broker_execution', tabLabel(tab), portfolio, localIsoDate(nowMs)),
    ...gridCsv(executionGrid(rows ?? [], tab)),
  });
  const tabs = (
    <div role="tablist" aria-label="Group executions by" className="ui-segmented">
      {TABS.map((t) => (
        <button key={t.value} type="button" role="tab" aria-selected={tab === t.value} className="ui-segment" onClick={() => onTab(t.value)}>
          {t.label}
        </button>
      ))}
    </div>
  );
  return (
    <section ref={ref} className="summary-panel" aria-labelledby="summary-exec-title">
      <header className="summary-panel-header">
        <h2 id="summary-exec-title">Broker execution</h2>
        {tabs}
        <CsvButton table="Broker execution" build={buildCsv} disabled={rows === null || rows.length === 0} />
        <ExpandButton label="Broker execution" onClick={() => setExpanded(true)} />
      </header>
      <div role="tabpanel" aria-label={tab === 'account' ? 'Accounts' : 'Broker'}>
        <GridBody rows={near ? rows : null} error={error} by={tab} wide={wide} />
      </div>
      <Modal open={expanded} onClose={() => setExpanded(false)} title="Broker execution" fullScreen>
        <div className="summary-modal-tools">{tabs}</div>
        <GridBody rows={rows} error={error} by={tab} wide={wide} />
      </Modal>
    </section>
  );
});
