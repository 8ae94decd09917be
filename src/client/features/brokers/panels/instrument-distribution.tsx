import { useState } from 'react';
import type { Position } from '#shared/contract/positions.ts';
import { distributionByInstrument, type MarketDistribution } from '#shared/analytics/instrument-distribution.ts';
import { BROKER_PALETTE } from '#shared/domain/constants.ts';
import { formatPercent, formatQuantity } from '#shared/format/numbers.ts';
import { Skeleton } from '#client/ui/skeleton.tsx';

function MarketBar({ title, unit, market }: { title: string; unit: string; market: MarketDistribution }) {
  const [hover, setHover] = useState<number | null>(null);
  const active = hover === null ? undefined : market.segments[hover];
  const centres = market.segments.map(
    (s, i) => market.segments.slice(0, i).reduce((sum, before) => sum + before.percentage, 0) + s.percentage / 2,
  );
  return (
    <div className="market-distribution" data-market={title} data-total={market.total}>
      <div className="market-distribution-head">
        <span className="market-distribution-title">{title}</span>
        <span className="market-distribution-total">Total {formatQuantity(market.total)} {unit}</span>
      </div>
      {market.segments.length === 0 ? (
        <p className="panel-note">No {title.toLowerCase()} positions.</p>
      ) : (
        <>
          <div className="instrument-bar" onPointerLeave={() => setHover(null)}>
            {market.segments.map((s, i) => (
              <span
                key={s.symbol}
                className="instrument-bar-segment"
                style={{ width: `${s.percentage}%`, background: s.color }}
                tabIndex={0}
                role="img"
                aria-label={`${s.symbol}: ${formatQuantity(s.value)} (${formatPercent(s.percentage)})`}
                data-symbol={s.symbol}
                data-value={s.value}
                onPointerEnter={() => setHover(i)}
                onPointerDown={() => setHover(i)}
                onFocus={() => setHover(i)}
                onBlur={() => setHover(null)}
              />
            ))}
            {active && hover !== null ? (
              <span
                className="instrument-tooltip"
                role="tooltip"
                style={{ left: `clamp(60px, ${centres[hover] ?? 50}%, calc(100% - 60px))` }}
              >
                <strong>{active.symbol}</strong> {formatQuantity(active.value)} {unit}
              </span>
            ) : null}
          </div>
          <ul className="instrument-legend">
            {market.segments.map((s) => (
              <li key={s.symbol}>
                <span className="legend-dot" style={{ background: s.color }} aria-hidden="true" />
                {s.symbol} <span className="legend-share">{formatPercent(s.percentage)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/**
 * Distribution (docs/product.md#screens, §9): Forex and Equities bars by instrument from the broker's live positions,
 * each instrument's share of its market's quantity (lots for forex, shares for equities), 8 colours.
 */
export function InstrumentDistribution({ positions }: { positions: readonly Position[] | null }) {
  const { forex, equities } = distributionByInstrument(positions ?? [], BROKER_PALETTE);
  return (
    <div className="broker-distribution">
      <h3 className="subsection-title">Distribution</h3>
      {positions === null ? (
        <div className="distribution-loading" role="status" aria-label="Loading distribution">
          <Skeleton height={14} />
          <Skeleton height={14} />
        </div>
      ) : (
        <>
          <MarketBar title="Forex" unit="lots" market={forex} />
          <MarketBar title="Equities" unit="shares" market={equities} />
        </>
      )}
    </div>
  );
}
