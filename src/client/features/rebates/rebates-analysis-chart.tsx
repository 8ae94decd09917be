import { useQuery } from '@tanstack/react-query';
import { Axis, Group, Responsive, Scale, Shape } from '@visx/visx';
import { rebateAnalysis } from '#shared/analytics/rebate-analysis.ts';
import { cycleColor, REBATE_BAR_COLORS, REBATE_LINE_COLORS } from '#shared/domain/constants.ts';
import { monthOrdinal } from '#shared/domain/nav-rules.ts';
import { ALL_PORTFOLIOS } from '#shared/domain/portfolios.ts';
import { aggregateRebates } from '#shared/domain/rebate-rules.ts';
import { monthLabel } from '#shared/domain/reports.ts';
import { formatRebateMoney } from '#shared/format/money.ts';
import { numberFormat } from '#shared/format/numbers.ts';
import { rebateQueries } from '#client/api/queries/rebates.ts';
import { EmptyState, ErrorState, LoadingState } from '#client/ui/states.tsx';

const HEIGHT = 360;
const MARGIN = { top: 16, right: 72, bottom: 44, left: 64 };
/** Below this the chart scrolls sideways inside the modal rather than squeezing the bars. */
const MIN_WIDTH = 640;

const axisTick = (value: number) => numberFormat('fr-FR', { maximumFractionDigits: 0, notation: 'compact' }).format(value);

function shortMonth(key: string): string {
  const ordinal = monthOrdinal(key);
  if (ordinal === null) return key;
  const date = new Date(Date.UTC(Math.floor(ordinal / 12), ordinal % 12, 1));
  return new Intl.DateTimeFormat('en-US', { month: 'short', year: '2-digit', timeZone: 'UTC' }).format(date);
}

const tickLabel = { fill: 'var(--text-2)', fontSize: 12, fontFamily: 'inherit' };

const barColor = (i: number) => cycleColor(REBATE_BAR_COLORS, i);
const lineColor = (i: number) => cycleColor(REBATE_LINE_COLORS, i);

/** The bars per portfolio and currency by month, and the cumulative line per currency on the right-hand axis. */
function AnalysisPlot({ analysis, width }: { analysis: ReturnType<typeof rebateAnalysis>; width: number }) {
  const innerWidth = width - MARGIN.left - MARGIN.right;
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x0 = Scale.scaleBand<string>({ domain: analysis.months, range: [0, innerWidth], padding: 0.2 });
  const x1 = Scale.scaleBand<string>({
    domain: analysis.bars.map((b) => b.key),
    range: [0, x0.bandwidth()],
    padding: 0.08,
  });
  const maxBar = Math.max(1, ...analysis.bars.flatMap((b) => b.values));
  const maxLine = Math.max(1, ...analysis.lines.flatMap((l) => l.values));
  const yBars = Scale.scaleLinear<number>({ domain: [0, maxBar * 1.1], range: [innerHeight, 0], nice: true });
  const yLine = Scale.scaleLinear<number>({ domain: [0, maxLine * 1.1], range: [innerHeight, 0], nice: true });
  const centre = (month: string) => (x0(month) ?? 0) + x0.bandwidth() / 2;
  return (
    <svg width={width} height={HEIGHT} role="img" aria-label="Monthly Rebates Analysis chart">
      <Group.Group left={MARGIN.left} top={MARGIN.top}>
        {yBars.ticks(5).map((t) => (
          <line key={t} x1={0} x2={innerWidth} y1={yBars(t)} y2={yBars(t)} className="rebates-grid" />
        ))}
        {analysis.months.map((month, mi) => (
          <Group.Group key={month} left={x0(month) ?? 0}>
            {analysis.bars.map((series, si) => {
              const value = series.values[mi] ?? 0;
              if (value === 0) return null;
              const y = yBars(value);
              return (
                <rect
                  key={series.key}
                  className="rebates-bar"
                  data-series={series.key}
                  data-month={month}
                  x={x1(series.key) ?? 0}
                  y={y}
                  width={Math.max(1, x1.bandwidth())}
                  height={Math.max(0, innerHeight - y)}
                  fill={barColor(si)}
                >
                  <title>{`${series.key}, ${monthLabel(month)}: ${formatRebateMoney(value, series.currency)}`}</title>
                </rect>
              );
            })}
          </Group.Group>
        ))}
        {analysis.lines.map((line, li) => (
          <Group.Group key={line.currency}>
            <Shape.LinePath
              className="rebates-line"
              data-currency={line.currency}
              data={line.values.map((v, i) => ({ month: analysis.months[i] ?? '', v }))}
              x={(d) => centre(d.month)}
              y={(d) => yLine(d.v)}
              stroke={lineColor(li)}
              strokeWidth={2.5}
              fill="none"
            />
            {line.values.map((v, i) => {
              const month = analysis.months[i] ?? '';
              return (
                <circle key={month} cx={centre(month)} cy={yLine(v)} r={3.5} fill={lineColor(li)}>
                  <title>{`Cumulative ${line.currency}, ${monthLabel(month)}: ${formatRebateMoney(v, line.currency)}`}</title>
                </circle>
              );
            })}
          </Group.Group>
        ))}
        <Axis.AxisLeft
          scale={yBars}
          numTicks={5}
          tickFormat={(v) => axisTick(Number(v))}
          stroke="var(--border)"
          tickStroke="var(--border)"
          tickLabelProps={() => ({ ...tickLabel, textAnchor: 'end', dx: -4, dy: '0.33em' })}
          label="Monthly rebates"
          labelProps={{ ...tickLabel, textAnchor: 'middle' }}
          labelOffset={40}
        />
        <Axis.AxisRight
          axisClassName="rebates-axis-right"
          left={innerWidth}
          scale={yLine}
          numTicks={5}
          tickFormat={(v) => axisTick(Number(v))}
          stroke="var(--border)"
          tickStroke="var(--border)"
          tickLabelProps={() => ({ ...tickLabel, textAnchor: 'start', dx: 4, dy: '0.33em' })}
          label="Cumulative total"
          labelProps={{ ...tickLabel, textAnchor: 'middle' }}
          labelOffset={44}
        />
        <Axis.AxisBottom
          top={innerHeight}
          scale={x0}
          tickFormat={shortMonth}
          stroke="var(--border)"
          tickStroke="var(--border)"
          tickLabelProps={() => ({ ...tickLabel, textAnchor: 'middle' })}
        />
      </Group.Group>
    </svg>
  );
}

/**
 * 'Monthly Rebates Analysis' (docs/product.md#screens): bars per portfolio and currency by month on the left axis,
 * a cumulative total line per currency on the right-hand axis. Amounts of different currencies are
 * not converted: each series stays in its own currency.
 */
export function RebatesAnalysisChart() {
  // Account rows carry each account's portfolio; broker rows mix portfolios, so the analysis always reads accounts.
  const query = useQuery(rebateQueries.list({ portfolio: ALL_PORTFOLIOS, groupBy: 'account' }));
  if (query.isPending) return <LoadingState>Loading rebate data...</LoadingState>;
  if (query.isError && !query.data) return <ErrorState>{query.error.message}</ErrorState>;
  const entries = aggregateRebates(query.data ?? [], 'account').flatMap((a) => a.monthlyBreakdown);
  const analysis = rebateAnalysis(entries);
  if (analysis.months.length === 0) return <EmptyState>No rebate data found.</EmptyState>;

  return (
    <figure className="rebates-chart" aria-labelledby="rebates-chart-title">
      <figcaption id="rebates-chart-title" className="rebates-chart-title">
        Monthly Rebates Analysis
      </figcaption>
      <div className="rebates-chart-scroll">
        {/* ParentSize measures this box, at least MIN_WIDTH wide and HEIGHT high; narrower screens scroll it. */}
        <div className="rebates-chart-canvas" style={{ minWidth: MIN_WIDTH, height: HEIGHT }}>
          <Responsive.ParentSize debounceTime={50}>
            {({ width }) => <AnalysisPlot analysis={analysis} width={Math.max(MIN_WIDTH, width)} />}
          </Responsive.ParentSize>
        </div>
      </div>
      <ul className="rebates-legend" aria-label="Legend">
        {analysis.bars.map((series, i) => (
          <li key={series.key}>
            <span className="rebates-swatch" style={{ background: barColor(i) }} aria-hidden="true" />
            {series.key}
          </li>
        ))}
        {analysis.lines.map((line, i) => (
          <li key={line.currency}>
            <span className="rebates-swatch rebates-swatch-line" style={{ background: lineColor(i) }} aria-hidden="true" />
            Cumulative {line.currency} (right axis)
          </li>
        ))}
      </ul>
    </figure>
  );
}
