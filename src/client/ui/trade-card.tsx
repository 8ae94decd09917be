import { useId, useRef, useState, type ReactNode } from 'react';
import { Side } from './trade-cells.tsx';
import './trade-card.css';

/**
 * The compact face of a trade, as MT5's and cTrader's mobile lists draw it: instrument, direction
 * and size on the first line, the prices on the second, the P/L large on the right with a note
 * (the account or the date) under it.
 */
export interface TradeFace {
  /** First line: see TradeTitle. */
  title: ReactNode;
  /** Second line: see PriceMove. */
  subtitle: ReactNode;
  /** The P/L, already formatted. */
  figure: ReactNode;
  /** The signed amount behind `figure`: green above zero, red below. */
  tone?: number;
  note?: ReactNode;
  /** A third, small line under the prices: a position's stop loss and take profit (see TradeStops). */
  stops?: ReactNode;
}

/** One label/value pair of a card's details, with the product's column label (docs/product.md#screens). */
export interface TradeDetail {
  key: string;
  label: ReactNode;
  value: ReactNode;
  /** data-cell of the value, for tests that read one figure. */
  cell?: string;
  /** Takes the details' full width (e.g. a date, an account name). */
  wide?: boolean;
}

/** 'EURUSD Buy 1,5': the instrument, its direction as a badge, the size. */
export function TradeTitle({ symbol, side, size }: { symbol: ReactNode; side: string; size: ReactNode }) {
  return (
    <>
      <span className="ui-trade-symbol">{symbol}</span> <Side type={side} /> <span className="ui-trade-size">{size}</span>
    </>
  );
}

/** '1.08500 → 1.08720': where a trade started and where it stands (or closed). */
export function PriceMove({ from, to }: { from: ReactNode; to: ReactNode }) {
  return (
    <>
      {from}
      <span aria-hidden="true"> → </span>
      <span className="ui-visually-hidden"> to </span>
      {to}
    </>
  );
}

/** 'SL 1.08300 · TP 1.08950' on a position's face, a dash for a level not set. */
export function TradeStops({ sl, tp }: { sl: ReactNode; tp: ReactNode }) {
  return (
    <>
      <span className="ui-trade-stop" data-cell="face-sl">
        SL {sl}
      </span>
      <span className="ui-trade-stop" data-cell="face-tp">
        TP {tp}
      </span>
    </>
  );
}

const toneClass = (value: number | undefined): string =>
  value === undefined || value === 0 ? 'ui-trade-figure' : value > 0 ? 'ui-trade-figure ui-trade-up' : 'ui-trade-figure ui-trade-down';

/** A pointer that travelled this far between press and release was a scroll or a swipe, not a tap. */
const TAP_SLOP = 10;

export interface TradeCardProps {
  face: TradeFace;
  details: readonly TradeDetail[];
  expanded: boolean;
  onToggle: () => void;
  /** Shown under the details while they are open, e.g. Edit and Close. */
  actions?: ReactNode;
}

/**
 * A trade as one compact row (about 62 px) that opens its details in place on a tap, as MT5's
 * position list does: the list keeps its place and the other rows stay in sight, which a sheet over
 * the list would hide. The face is a button (keyboard and screen readers toggle it like any
 * disclosure); the details stay in the document while closed, so find-in-page and tests still
 * reach every figure.
 */
export function TradeCard({ face, details, expanded, onToggle, actions }: TradeCardProps) {
  const id = useId();
  const pressedAt = useRef<{ x: number; y: number } | null>(null);
  return (
    <div className="ui-trade-card" data-expanded={expanded}>
      <button
        type="button"
        className="ui-trade-face"
        aria-expanded={expanded}
        aria-controls={id}
        onPointerDown={(event) => {
          pressedAt.current = { x: event.clientX, y: event.clientY };
        }}
        onClick={(event) => {
          const from = pressedAt.current;
          pressedAt.current = null;
          // A click from the keyboard has no press; a drag that ends on the row is no tap.
          if (from && event.detail > 0 && Math.hypot(event.clientX - from.x, event.clientY - from.y) > TAP_SLOP) return;
          onToggle();
        }}
      >
        <span className="ui-trade-main">
          <span className="ui-trade-title">{face.title}</span>
          <span className="ui-trade-subtitle">{face.subtitle}</span>
          {face.stops === undefined ? null : <span className="ui-trade-stops">{face.stops}</span>}
        </span>
        <span className="ui-trade-side">
          <span className={toneClass(face.tone)}>{face.figure}</span>
          {face.note === undefined ? null : <span className="ui-trade-note">{face.note}</span>}
        </span>
      </button>
      {/* The details are drawn only while open: a closed row costs a phone no DOM, layout or work
          per snapshot for figures nobody sees. */}
      <div id={id} className="ui-trade-details" hidden={!expanded}>
        {expanded ? (
          <dl className="ui-trade-fields">
            {details.map((detail) => (
              <div key={detail.key} className={detail.wide ? 'ui-trade-field ui-trade-field-wide' : 'ui-trade-field'}>
                <dt>{detail.label}</dt>
                <dd data-cell={detail.cell}>{detail.value}</dd>
              </div>
            ))}
          </dl>
        ) : null}
        {expanded && actions ? <div className="ui-trade-actions">{actions}</div> : null}
      </div>
    </div>
  );
}

/** A TradeCard that keeps its own open or closed state. */
export function ExpandableTradeCard(props: Omit<TradeCardProps, 'expanded' | 'onToggle'>) {
  const [expanded, setExpanded] = useState(false);
  return <TradeCard {...props} expanded={expanded} onToggle={() => setExpanded((open) => !open)} />;
}
