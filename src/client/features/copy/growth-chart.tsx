import { useMemo } from 'react';
import { AxisBottom, AxisLeft } from '@visx/axis';
import { GridRows } from '@visx/grid';
import { Group } from '@visx/group';
import { useParentSize } from '@visx/responsive';
import { scaleLinear, scaleTime } from '@visx/scale';
import { LinePath } from '@visx/shape';
import { formatAxisDate } from '#shared/format/dates.ts';
import { formatPercent, numberFormat } from '#shared/format/numbers.ts';

interface Point {
  timestamp: number;
  value: number;
}

const MARGIN = { top: 12, right: 16, bottom: 28, left: 48 };

/** A follower's growth against its master's over the period: two lines, a legend, the last values. */
export function GrowthChart({ follower, master, followerName, masterName }: { follower: readonly Point[]; master: readonly Point[]; followerName: string; masterName: string }) {
  const { parentRef, width } = useParentSize({ debounceTime: 50 });
  const height = width < 600 ? 220 : 280;
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerHeight = height - MARGIN.top - MARGIN.bottom;
  const { x, y } = useMemo(() => {
    const all = [...follower, ...master];
    const times = all.map((p) => p.timestamp * 1000);
    const values = [0, ...all.map((p) => p.value)];
    const minT = Math.min(...times);
    const maxT = Math.max(...times);
    return {
      x: scaleTime({ domain: [new Date(minT), new Date(maxT === minT ? maxT + 86_400_000 : maxT)], range: [0, innerWidth] }),
      y: scaleLinear({ domain: [Math.min(...values), Math.max(...values)], range: [innerHeight, 0], nice: true }),
    };
  }, [follower, master, innerWidth, innerHeight]);
  const compact = numberFormat('fr-FR', { notation: 'compact', maximumFractionDigits: 1 });
  const last = (xs: readonly Point[]) => xs.at(-1)?.value ?? 0;
  return (
    <figure className="growth-chart" aria-label={`Growth of ${followerName} against ${masterName}`}>
      <figcaption className="growth-legend">
        <span className="legend-follower">
          {followerName} {formatPercent(last(follower))}
        </span>
        <span className="legend-master">
          {masterName} (master) {formatPercent(last(master))}
        </span>
      </figcaption>
      <div ref={parentRef} className="growth-chart-area" style={{ height }}>
        {width > 0 ? (
          <svg width={width} height={height} role="img" aria-hidden="true">
            <Group left={MARGIN.left} top={MARGIN.top}>
              <GridRows scale={y} width={innerWidth} numTicks={4} className="chart-grid" />
              <LinePath data={[...master]} x={(p) => x(new Date(p.timestamp * 1000))} y={(p) => y(p.value)} className="line-master" />
              <LinePath data={[...follower]} x={(p) => x(new Date(p.timestamp * 1000))} y={(p) => y(p.value)} className="line-follower" />
              <AxisLeft scale={y} numTicks={4} tickFormat={(v) => `${compact.format(Number(v))} %`} hideAxisLine hideTicks tickClassName="chart-tick" />
              <AxisBottom
                top={innerHeight}
                scale={x}
                numTicks={width < 600 ? 3 : 6}
                tickFormat={(d) => formatAxisDate((d as Date).getTime() / 1000)}
                hideTicks
                tickClassName="chart-tick"
              />
            </Group>
          </svg>
        ) : null}
      </div>
    </figure>
  );
}
