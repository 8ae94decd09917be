import { useId, useMemo, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { AxisBottom, AxisLeft, type TickRendererProps } from '@visx/axis';
import { localPoint } from '@visx/event';
import { LinearGradient } from '@visx/gradient';
import { GridRows } from '@visx/grid';
import { Group } from '@visx/group';
import { useParentSize } from '@visx/responsive';
import { scaleLinear, scaleTime } from '@visx/scale';
import { AreaClosed, Line, LinePath } from '@visx/shape';
import type { ChartType } from '#shared/domain/constants.ts';
import { formatAxisDate, formatDateFr } from '#shared/format/dates.ts';
import { formatMoney } from '#shared/format/money.ts';
import { formatPercent, numberFormat } from '#shared/format/numbers.ts';
import { isPercentChart, nearestIndex, type ChartPoint } from '../chart-series.ts';
import { DAY_MS } from '#shared/domain/days.ts';

export interface PerformanceChartProps {
  points: readonly ChartPoint[];
  type: ChartType;
  currency: string;
  /** start_date sent for the period (epoch seconds), for tests comparing with the response. */
  startDate: number | undefined;
}

const MARGIN = { top: 12, right: 24, bottom: 28, left: 56 };

/** Axis figures: compact ('12k', '1,2M') so they fit at 360 px. */
function axisValue(value: number, percent: boolean): string {
  const text = numberFormat('fr-FR', { notation: 'compact', maximumFractionDigits: 1 }).format(value);
  return percent ? `${text} %` : text;
}

/**
 * A tick label as a plain SVG text. visx's default (its Text component) measures every word of every
 * label in the document (a forced layout each, tens of milliseconds on a phone) to wrap lines these
 * one-word labels never need.
 */
function TickLabel({ formattedValue, x, y, ...rest }: TickRendererProps) {
  return (
    <text x={x} y={y} {...rest}>
      {formattedValue}
    </text>
  );
}

/** The date and the figure of the point in view, kept inside the chart, above the point (below it at the top). */
function ChartTooltip({ point, left, top, width, text }: { point: ChartPoint; left: number; top: number; width: number; text: string }) {
  return (
    <div
      className="performance-tooltip"
      role="status"
      style={{ left: Math.min(Math.max(left, 70), Math.max(70, width - 70)), top: top - 60 >= 0 ? top - 60 : top + 14 }}
    >
      <span className="performance-tooltip-date">{formatDateFr(point.timestamp)}</span>
      <strong>{text}</strong>
    </div>
  );
}

/** The time and value scales of the points: a day wide at least, and some room when every value is the same. */
function useChartScales(points: readonly ChartPoint[], innerWidth: number, innerHeight: number) {
  return useMemo(() => {
    const times = points.map((p) => p.timestamp * 1000);
    const values = points.map((p) => p.value);
    const minT = Math.min(...times);
    const maxT = Math.max(...times);
    let minV = Math.min(...values);
    let maxV = Math.max(...values);
    if (minV === maxV) {
      minV -= Math.abs(minV) * 0.05 || 1;
      maxV += Math.abs(maxV) * 0.05 || 1;
    }
    return {
      x: scaleTime({ domain: [new Date(minT), new Date(maxT === minT ? maxT + DAY_MS : maxT)], range: [0, innerWidth] }),
      y: scaleLinear({ domain: [minV, maxV], range: [innerHeight, 0], nice: true }),
    };
  }, [points, innerWidth, innerHeight]);
}

/** The lines through the point the finger or the keys are on, and the point itself. */
function Crosshair({ at, innerWidth, innerHeight }: { at: { x: number; y: number }; innerWidth: number; innerHeight: number }) {
  return (
    <g pointerEvents="none">
      <Line from={{ x: at.x, y: 0 }} to={{ x: at.x, y: innerHeight }} stroke="var(--muted)" strokeDasharray="4 3" />
      <Line from={{ x: 0, y: at.y }} to={{ x: innerWidth, y: at.y }} stroke="var(--muted)" strokeDasharray="4 3" />
      <circle cx={at.x} cy={at.y} r={4.5} fill="var(--accent)" stroke="var(--surface)" strokeWidth={2} />
    </g>
  );
}

/** Line-and-area chart of one performance series with a crosshair tooltip (pointer and arrow keys). */
export function PerformanceChart({ points, type, currency, startDate }: PerformanceChartProps) {
  const { parentRef, width } = useParentSize({ debounceTime: 50 });
  const gradientId = useId().replace(/:/g, '');
  const [active, setActive] = useState<number | null>(null);
  const percent = isPercentChart(type);
  const height = width < 600 ? 240 : 320;
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerHeight = height - MARGIN.top - MARGIN.bottom;
  const format = (value: number) => (percent ? formatPercent(value) : formatMoney(value, currency));

  const { x, y } = useChartScales(points, innerWidth, innerHeight);

  const xOf = (p: ChartPoint) => x(new Date(p.timestamp * 1000));
  const yOf = (p: ChartPoint) => y(p.value);
  const first = points[0];
  const last = points.at(-1);
  const activePoint = active === null ? undefined : points[active];

  const onPointerMove = (event: PointerEvent<SVGRectElement>) => {
    const at = localPoint(event);
    if (at === null) return;
    const time = x.invert(at.x - MARGIN.left).getTime() / 1000;
    setActive(nearestIndex(points, time));
  };
  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    if (points.length === 0) return;
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (event.key === 'Home') setActive(0);
    else if (event.key === 'End') setActive(points.length - 1);
    else if (step !== 0) setActive((i) => Math.min(points.length - 1, Math.max(0, (i ?? (step > 0 ? -1 : points.length)) + step)));
    else return;
    event.preventDefault();
  };

  const tooltipLeft = activePoint ? MARGIN.left + xOf(activePoint) : 0;
  const tooltipTop = activePoint ? MARGIN.top + yOf(activePoint) : 0;
  const summary =
    first && last
      ? `${type} chart, ${points.length} points from ${formatDateFr(first.timestamp)} (${format(first.value)}) to ${formatDateFr(last.timestamp)} (${format(last.value)})`
      : `${type} chart`;

  return (
    <div
      ref={parentRef}
      className="performance-chart"
      data-testid="performance-chart"
      data-chart-type={type}
      data-points={points.length}
      data-first={first?.value ?? ''}
      data-last={last?.value ?? ''}
      data-first-ts={first?.timestamp ?? ''}
      data-last-ts={last?.timestamp ?? ''}
      data-start-date={startDate ?? ''}
    >
      {width > 0 ? (
        <svg
          width={width}
          height={height}
          role="img"
          aria-label={summary}
          tabIndex={0}
          onKeyDown={onKeyDown}
          onBlur={() => setActive(null)}
        >
          <LinearGradient id={gradientId} from="var(--accent)" to="var(--accent)" fromOpacity={0.28} toOpacity={0.02} />
          <Group left={MARGIN.left} top={MARGIN.top}>
            <GridRows scale={y} width={innerWidth} numTicks={5} stroke="var(--border)" strokeDasharray="3 3" />
            <AreaClosed
              data={points as ChartPoint[]}
              x={xOf}
              y={yOf}
              yScale={y}
              fill={`url(#${gradientId})`}
            />
            <LinePath data={points as ChartPoint[]} x={xOf} y={yOf} stroke="var(--accent)" strokeWidth={2} />
            <AxisLeft
              scale={y}
              numTicks={5}
              stroke="var(--border)"
              tickStroke="var(--border)"
              tickFormat={(v) => axisValue(Number(v), percent)}
              tickLabelProps={{ fill: 'var(--muted)', fontSize: 12, textAnchor: 'end', dx: -4, dy: '0.33em' }}
              tickComponent={TickLabel}
            />
            <AxisBottom
              top={innerHeight}
              scale={x}
              numTicks={width < 500 ? 3 : 6}
              stroke="var(--border)"
              tickStroke="var(--border)"
              tickFormat={(v) => formatAxisDate((v instanceof Date ? v.getTime() : Number(v)) / 1000)}
              tickLabelProps={{ fill: 'var(--muted)', fontSize: 12, textAnchor: 'middle' }}
              tickComponent={TickLabel}
            />
            {activePoint ? <Crosshair at={{ x: xOf(activePoint), y: yOf(activePoint) }} innerWidth={innerWidth} innerHeight={innerHeight} /> : null}
            <rect
              width={innerWidth}
              height={innerHeight}
              fill="transparent"
              onPointerMove={onPointerMove}
              onPointerDown={onPointerMove}
              onPointerLeave={() => setActive(null)}
            />
          </Group>
        </svg>
      ) : null}
      {activePoint ? <ChartTooltip point={activePoint} left={tooltipLeft} top={tooltipTop} width={width} text={format(activePoint.value)} /> : null}
    </div>
  );
}
