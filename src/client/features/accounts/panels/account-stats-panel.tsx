import { memo } from 'react';
import type { HistoricalDealsResponse } from '#shared/contract/deals.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { formatMoney } from '#shared/format/money.ts';
import { formatPercent, formatQuantity, MISSING_VALUE, numberFormat } from '#shared/format/numbers.ts';
import { SectionPanel } from '#client/ui/section-panel.tsx';
import { EmptyState, ErrorState } from '#client/ui/states.tsx';
import { FigureList, toneOf, type Figure } from '#client/ui/figure-list.tsx';
import { Tooltip } from '#client/ui/tooltip.tsx';

type Stats = HistoricalDealsResponse['dealsStats'][number]['all']['stats'];
type Trade = NonNullable<Stats['best_trade']>;

function TradeCard({ title, trade, currency, tone }: { title: string; trade: Trade | null; currency: string; tone: 'positive' | 'negative' }) {
  return (
    <div className={`trade-card trade-card-${tone}`}>
      <span className="trade-card-title">{title}</span>
      {trade === null ? (
        <span className="trade-card-empty">{MISSING_VALUE}</span>
      ) : (
        <>
          <strong className={`figure-${toneOf(trade.profit) ?? tone}`}>{formatMoney(trade.profit, currency)}</strong>
          <span className="trade-card-detail">
            {trade.symbol} · {trade.type}
          </span>
          <span className="trade-card-detail">{formatDateFr(trade.datetime)}</span>
        </>
      )}
    </div>
  );
}

const ratio = (value: number | null): string =>
  value === null ? MISSING_VALUE : numberFormat('fr-FR', { maximumFractionDigits: 2, minimumFractionDigits: 2 }).format(value);

interface RiskFigure extends Figure {
  /** How the figure is computed (docs/copy-quality.md, "Risk statistics"). */
  how: string;
  /** This account's inputs, or why the figure is missing. */
  detail: string;
}

/** The risk figures, each label explaining its formula in a tooltip (hover, focus or long press). */
function RiskFigures({ s, currency }: { s: Stats; currency: string }) {
  const days = `${s.return_days} daily ${s.return_days === 1 ? 'return' : 'returns'}`;
  const figures: RiskFigure[] = [
    {
      label: 'Sharpe ratio',
      value: ratio(s.sharpe_ratio),
      raw: s.sharpe_ratio,
      how: 'Mean daily return ÷ standard deviation of the daily returns (n − 1) × √252, risk-free rate 0. Daily returns of the end-of-day NAV on weekdays, deposits and withdrawals taken out.',
      detail: s.sharpe_ratio === null ? `Needs 2 or more daily returns that vary (${days}).` : `On ${days}.`,
    },
    {
      label: 'Sortino ratio',
      value: ratio(s.sortino_ratio),
      raw: s.sortino_ratio,
      how: 'Mean daily return ÷ downside deviation × √252, where downside deviation = √(Σ min(r, 0)² ÷ n) over all n daily returns.',
      detail: s.sortino_ratio === null ? `Needs 2 or more daily returns, one of them a loss (${days}).` : `On ${days}.`,
    },
    {
      label: 'Expectancy',
      value: s.expectancy === null ? MISSING_VALUE : formatMoney(s.expectancy, currency),
      tone: toneOf(s.expectancy),
      raw: s.expectancy,
      how: 'Average net result per closed trade (profit + swap + commission + fee) = win % × average win + loss % × average loss.',
      detail: s.expectancy === null ? 'No closed trade yet.' : 'A trade closed at exactly 0 counts in the average, as neither a win nor a loss.',
    },
    {
      label: 'Recovery factor',
      value: ratio(s.recovery_factor),
      raw: s.recovery_factor,
      how: 'Net profit ÷ maximum balance drawdown in money: the largest fall of the cumulative trading result from a peak, so deposits and withdrawals are not losses.',
      detail:
        s.recovery_factor === null
          ? 'No drawdown yet.'
          : `${formatMoney(s.net_profit, currency)} ÷ ${formatMoney(s.max_drawdown_money, currency)}.`,
    },
    {
      label: 'Balance drawdown',
      value: formatPercent(s.max_drawdown),
      raw: s.max_drawdown,
      how: 'Largest fall from a peak of the balance, in %, on its time-weighted growth index: closed trades only, withdrawals are not losses.',
      detail: `In money: ${formatMoney(s.max_drawdown_money, currency)} (the recovery factor’s divisor).`,
    },
    {
      label: 'Equity drawdown',
      value: s.equity_drawdown === null ? MISSING_VALUE : formatPercent(s.equity_drawdown),
      raw: s.equity_drawdown,
      how: 'Largest fall from a peak of the end-of-day equity (NAV), in %, with open positions’ floating P/L, deposits and withdrawals taken out.',
      detail: s.equity_drawdown === null ? 'Needs 2 or more end-of-day NAV snapshots.' : `On ${days}.`,
    },
  ];
  return (
    <dl className="figure-list risk-figures" aria-label="Risk statistics">
      {figures.map((f) => (
        <div key={f.label} className="figure" data-figure={f.label} data-value={f.raw ?? undefined}>
          <dt>
            <Tooltip description={f.how} example={f.detail}>
              {f.label}
            </Tooltip>
          </dt>
          <dd className={f.tone ? `figure-${f.tone}` : undefined}>{f.value}</dd>
        </div>
      ))}
    </dl>
  );
}

const TRADE_FIGURES = ['Win', 'Loss', 'Longs won', 'Shorts won', 'Average win', 'Average loss', 'Lots', 'Profit factor', 'Commissions', 'Swap'];
const RISK_FIGURES = ['Sharpe ratio', 'Sortino ratio', 'Expectancy', 'Recovery factor', 'Balance drawdown', 'Equity drawdown'];

/** One line of a figure or a trade card, as high as the text that replaces it (it holds a space of the same font). */
const Line = ({ width }: { width: string }) => (
  <span className="skeleton-text" style={{ width }}>
    {'\u00a0'}
  </span>
);

/**
 * The stats as they will be laid out, their values still to come: the panel has its final height
 * from the start, so what lies below it (the performance chart on a large screen) does not move
 * when the deal history arrives.
 */
function StatsSkeleton() {
  // The risk figures' labels are tooltips' anchors, a box of their own.
  const figures = (labels: readonly string[], anchored: boolean) => (
    <dl className="figure-list">
      {labels.map((figure) => (
        <div key={figure} className="figure">
          <dt>{anchored ? <span className="ui-tooltip-anchor">{figure}</span> : figure}</dt>
          <dd>
            <Line width="55%" />
          </dd>
        </div>
      ))}
    </dl>
  );
  return (
    <div className="stats-skeleton" role="status" aria-busy="true">
      <span className="ui-visually-hidden">Loading account data...</span>
      <div aria-hidden="true">
        <div className="trade-cards">
          {(['Best trade', 'Worst trade'] as const).map((title, i) => (
            <div key={title} className={`trade-card trade-card-${i === 0 ? 'positive' : 'negative'}`}>
              <span className="trade-card-title">{title}</span>
              <strong>
                <Line width="60%" />
              </strong>
              <span className="trade-card-detail">
                <Line width="70%" />
              </span>
              <span className="trade-card-detail">
                <Line width="80%" />
              </span>
            </div>
          ))}
        </div>
        {figures(TRADE_FIGURES, false)}
        <h3 className="stats-subheading">Risk</h3>
        {figures(RISK_FIGURES, true)}
      </div>
    </div>
  );
}

/** Offline, for an account whose stats were never fetched on this device: not an error, a missing copy. */
export const STATS_NOT_KEPT = 'Offline: these stats were not saved on this device yet';

export interface AccountStatsPanelProps {
  isPending: boolean;
  isError: boolean;
  data: HistoricalDealsResponse | undefined;
}

/**
 * Account stats (docs/product.md#screens): best and worst trade cards, the MT5 report figures (docs/figures.md) and the
 * risk figures (docs/copy-quality.md, "Risk statistics"), all time.
 */
export const AccountStatsPanel = memo(function AccountStatsPanel({ isPending, isError, data }: AccountStatsPanelProps) {
  const account = data?.dealsStats[0];
  let body;
  // The last answer (the device's copy offline) is shown whatever a later refetch did.
  if (data === undefined && isPending) body = navigator.onLine ? <StatsSkeleton /> : <EmptyState>{STATS_NOT_KEPT}</EmptyState>;
  else if (data === undefined && isError)
    body = navigator.onLine ? <ErrorState>Error loading account stats</ErrorState> : <EmptyState>{STATS_NOT_KEPT}</EmptyState>;
  else if (account === undefined || account.all.stats.win + account.all.stats.loss === 0 && account.all.stats.lots === 0)
    body = <EmptyState>No account stats available</EmptyState>;
  else {
    const s = account.all.stats;
    const c = account.currency;
    body = (
      <>
        <div className="trade-cards">
          <TradeCard title="Best trade" trade={s.best_trade} currency={c} tone="positive" />
          <TradeCard title="Worst trade" trade={s.worst_trade} currency={c} tone="negative" />
        </div>
        <FigureList
          label="Trade statistics"
          figures={[
            { label: 'Win', value: String(s.win), raw: s.win },
            { label: 'Loss', value: String(s.loss), raw: s.loss },
            { label: 'Longs won', value: formatPercent(s.longs_won), raw: s.longs_won },
            { label: 'Shorts won', value: formatPercent(s.shorts_won), raw: s.shorts_won },
            { label: 'Average win', value: formatMoney(s.average_win, c), tone: toneOf(s.average_win), raw: s.average_win },
            { label: 'Average loss', value: formatMoney(s.average_loss, c), tone: toneOf(s.average_loss), raw: s.average_loss },
            { label: 'Lots', value: formatQuantity(s.lots), raw: s.lots },
            { label: 'Profit factor', value: ratio(s.profit_factor), raw: s.profit_factor },
            { label: 'Commissions', value: formatMoney(s.commissions, c), raw: s.commissions },
            { label: 'Swap', value: formatMoney(s.swap, c), tone: toneOf(s.swap), raw: s.swap },
          ]}
        />
        <h3 className="stats-subheading">Risk</h3>
        <RiskFigures s={s} currency={c} />
      </>
    );
  }
  return (
    <SectionPanel title="Stats" className="account-stats-panel">
      {body}
    </SectionPanel>
  );
});
