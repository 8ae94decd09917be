import { memo, useState } from 'react';
import type { Position } from '#shared/contract/positions.ts';
import { useSinglePortfolio } from '#client/app/portfolio.ts';
import { CsvButton } from '#client/export/csv-button.tsx';
import { csvFileName, localIsoDate } from '#client/export/csv-table.ts';
import { Modal } from '#client/ui/modal.tsx';
import { LIVE_POSITION_CSV_COLUMNS, sortLive } from './live-model.ts';
import { LivePositions } from './live-positions.tsx';
import { ExpandIcon } from '#client/ui/icons.tsx';

export function ExpandButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className="icon-button summary-expand" aria-label={`Expand ${label}`} title="Full screen" onClick={onClick}>
      <ExpandIcon />
    </button>
  );
}

export interface TradesPanelProps {
  title: 'FX trades' | 'Equity trades';
  positions: readonly Position[] | null;
  /** The feed's last failure ('WebSocket error', 'WebSocket closed: …'), shown while it retries. */
  feedError: string | null;
  canWrite: boolean;
  wide: boolean;
  onEdit: (p: Position) => void;
  onClose: (p: Position) => void;
  /** Copies grouped under their master trade ('Master only' off). */
  grouped?: boolean;
}

/** FX or Equity live positions, expandable to a full-screen overlay (docs/product.md#screens). */
export const TradesPanel = memo(function TradesPanel({ title, positions, feedError, canWrite, wide, onEdit, onClose, grouped }: TradesPanelProps) {
  const [expanded, setExpanded] = useState(false);
  const portfolio = useSinglePortfolio();
  const id = title === 'FX trades' ? 'summary-fx' : 'summary-eq';
  const count = positions?.length;
  const list = { positions, feedError, canWrite, wide, onEdit, onClose, grouped };
  const buildCsv = (nowMs: number) => ({
    fileName: csvFileName(title === 'FX trades' ? 'fx_trades' : 'equity_trades', portfolio, localIsoDate(nowMs)),
    columns: LIVE_POSITION_CSV_COLUMNS,
    // Newest first, the order of the table and of the cards.
    rows: sortLive(positions ?? []),
  });
  return (
    <section className="summary-panel summary-trades-panel" aria-labelledby={`${id}-title`} aria-busy={positions === null} data-panel={id}>
      <header className="summary-panel-header">
        <h2 id={`${id}-title`}>{title}</h2>
        {count === undefined ? null : <span className="summary-count">{count}</span>}
        <CsvButton table={title} build={buildCsv} disabled={!count} />
        <ExpandButton label={title} onClick={() => setExpanded(true)} />
      </header>
      <div className="summary-trades-body">
        <LivePositions {...list} label={`${title} positions`} />
      </div>
      <Modal open={expanded} onClose={() => setExpanded(false)} title={title} fullScreen>
        <LivePositions {...list} label={`${title} positions, full screen`} maxHeight="calc(100dvh - 110px)" />
      </Modal>
    </section>
  );
});
