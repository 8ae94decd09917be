import type { HistoricalDealsResponse } from '#shared/contract/deals.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { formatMoney } from '#shared/format/money.ts';
import { formatPercent, formatQuantity, MISSING_VALUE, numberFormat } from '#shared/format/numbers.ts';
import { SectionPanel } from '#client/ui/section-panel.tsx';
import { EmptyState, ErrorState, LoadingState } from '#client/ui/states.tsx';
import { FigureList, toneOf } from '#client/ui/figure-list.tsx';

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

export interface AccountStatsPanelProps {
  isPending: boolean;
  isError: boolean;
  data: HistoricalDealsResponse | undefined;
}

/** Account stats (SPEC §2): best and worst trade cards and the MT5 report figures (DOMAIN.md), all time. */
export function AccountStatsPanel({ isPending, isError, data }: AccountStatsPanelProps) {
  const account = data?.dealsStats[0];
  let body;
  if (isPending) body = <LoadingState>Loading account data...</LoadingState>;
  else if (isError) body = <ErrorState>Error loading account stats</ErrorState>;
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
            { label: 'Profit factor', value: s.profit_factor === null ? MISSING_VALUE : numberFormat('fr-FR', { maximumFractionDigits: 2, minimumFractionDigits: 2 }).format(s.profit_factor), raw: s.profit_factor },
            { label: 'Commissions', value: formatMoney(s.commissions, c), raw: s.commissions },
            { label: 'Swap', value: formatMoney(s.swap, c), tone: toneOf(s.swap), raw: s.swap },
          ]}
        />
      </>
    );
  }
  return (
    <SectionPanel title="Stats" className="account-stats-panel">
      {body}
    </SectionPanel>
  );
}
