import { useQuery } from '@tanstack/react-query';
import { Scale, Shape } from '@visx/visx';
import type { Account, Broker } from '#shared/contract/accounts.ts';
import type { Position } from '#shared/contract/positions.ts';
import { distribution } from '#shared/analytics/dashboard.ts';
import { tradingCosts } from '#shared/analytics/trade-stats.ts';
import { DASHBOARD_PALETTE } from '#shared/domain/constants.ts';
import { formatMoney } from '#shared/format/money.ts';
import { formatPercent } from '#shared/format/numbers.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { accountQueries } from '#client/api/queries/accounts.ts';
import { lossFigures, useAccountLosses } from '#client/features/accounts/account-losses.ts';
import { categoryLabel } from '#shared/domain/portfolios.ts';
import { dealQueries } from '#client/api/queries/deals.ts';
import { BrokerIcon } from '#client/ui/broker-icon.tsx';
import { Dropdown } from '#client/ui/dropdown.tsx';
import { SkeletonRows } from '#client/ui/skeleton.tsx';
import { useNearViewport } from '#client/ui/use-near-viewport.ts';
import { stackStarts } from './section-header.tsx';
import { EmptyState, ErrorState, LoadingState } from '#client/ui/states.tsx';
import { hasReported, WAITING_FIRST_REPORT } from '#client/offline/first-report.ts';

export const NO_ACCOUNT_INFO = 'No account information available';
export const NO_ACCOUNT_STATS = 'No account stats available';
export const ACCOUNT_STATS_ERROR = 'Error loading account stats';
export const NO_DISTRIBUTION = 'No distribution data available';
export const STATS_NOT_KEPT = 'Offline: these stats were not saved on this device yet';

/** Account chooser shared by the info and stats panels. */
export function AccountPicker({ accounts, value, onChange }: { accounts: readonly Account[]; value: string | null; onChange: (id: string) => void }) {
  return (
    <Dropdown
      label="Account"
      options={accounts.map((a) => ({
        value: a.account_id,
        label: (
          <span className="summary-owner">
            <BrokerIcon broker={a.broker_name} size={18} />{' '}
            {a.account_name}
            {/* Spaces around the name, as read: 'AFTERPRIMEConsolidated' and 'Mastermaster' were not the visible words (WCAG 2.5.3). */}
            {a.is_master ? <> <span className="summary-badge">master</span></> : null}
          </span>
        ),
      }))}
      value={value}
      onChange={onChange}
      placeholder="Select an account"
      maxHeight={400}
      className="summary-account-picker"
    />
  );
}

/** Balance, Gross profit, Net profit, Max Drawdown, Margin level, Fees, Swap, Category (docs/product.md#screens). */
export function AccountInfoPanel({ account, loading, error }: { account: Account | null; loading: boolean; error: string | null }) {
  const drawdown = useQuery(accountQueries.maxDrawdown(account?.account_id));
  const losses = useAccountLosses(account?.account_id);
  let body;
  if (loading) body = <LoadingState>Loading account data...</LoadingState>;
  else if (error) body = <ErrorState>{error}</ErrorState>;
  else if (!account) body = <EmptyState>{NO_ACCOUNT_INFO}</EmptyState>;
  else if (!hasReported(account))
    body = <EmptyState>{WAITING_FIRST_REPORT}: this account's figures appear once its terminal reports.</EmptyState>;
  else {
    const money = (v: number) => formatMoney(v, account.currency);
    const items: [string, string, string?][] = [
      ['Balance', money(account.balance)],
      ['Gross profit', money(account.gross_profit), account.gross_profit < 0 ? 'neg' : 'pos'],
      ['Net profit', money(account.net_profit), account.net_profit < 0 ? 'neg' : 'pos'],
      [
        'Max Drawdown',
        drawdown.data ? formatPercent(drawdown.data.max_drawdown_percentage) : drawdown.isError ? drawdown.error.message : '…',
      ],
      ['Margin level', account.margin_level === null ? 'No open margin' : formatPercent(account.margin_level)],
      // Fees on screen are the trading costs: commission and fees.
      ['Fees', money(tradingCosts(account))],
      ['Swap', money(account.total_swap)],
      ['Category', categoryLabel(account.teiko_category)],
      ...lossFigures(losses, account.currency).map((f): [string, string, string?] => [f.label, f.value, f.tone === 'negative' ? 'neg' : undefined]),
    ];
    body = (
      <dl className="summary-info">
        {items.map(([label, value, tone]) => (
          <div key={label} className="summary-info-item">
            <dt>{label}</dt>
            <dd className={tone === 'neg' ? 'summary-neg' : undefined}>{value}</dd>
          </div>
        ))}
      </dl>
    );
  }
  return (
    <section className="summary-panel" aria-labelledby="summary-info-title">
      <header className="summary-panel-header">
        <h2 id="summary-info-title">Account info</h2>
        {account ? <span className="summary-sub">{account.account_name}</span> : null}
      </header>
      {body}
    </section>
  );
}

function TradeCard({ kind, trade, currency }: { kind: 'Best trade' | 'Worst trade'; trade: { datetime: number; symbol: string; type: string; profit: number } | null; currency: string }) {
  return (
    <article className={`summary-trade-card summary-trade-${kind === 'Best trade' ? 'best' : 'worst'}`} aria-label={kind}>
      <h3>{kind}</h3>
      {trade ? (
        <>
          <strong className={trade.profit < 0 ? 'summary-neg' : 'summary-pos'}>{formatMoney(trade.profit, currency)}</strong>
          <span>
            {trade.symbol} {trade.type}
          </span>
          <span className="summary-sub">{formatDateFr(trade.datetime)}</span>
        </>
      ) : (
        <span className="summary-sub">No closed trade yet</span>
      )}
    </article>
  );
}

/**
 * Best and worst trade cards of the account's closed deals (docs/product.md#screens). The stats come with the
 * account's whole deal history (the historical-deals response, hundreds of kilobytes for an active
 * account), so the panel asks for it only once it comes within half a screen of the viewport: a phone
 * that opens Summary and never scrolls down does not download and parse it every 30 s.
 */
export function AccountStatsPanel({ account }: { account: Account | null }) {
  const { ref, near } = useNearViewport('50%');
  const query = dealQueries.historical({ account: account?.account_id, filterRebalancing: true });
  const deals = useQuery({ ...query, enabled: query.enabled === true && near });
  const stats = deals.data?.dealsStats[0];
  let body;
  if (!account) body = <EmptyState>{NO_ACCOUNT_STATS}</EmptyState>;
  // The last answer (the device's copy offline) is shown whatever a later refetch did; offline
  // without one is a missing copy, not an error.
  else if (!deals.data && !navigator.onLine) body = <EmptyState>{STATS_NOT_KEPT}</EmptyState>;
  else if (!deals.data && deals.isPending) body = <SkeletonRows rows={2} columns={1} label="Loading account stats..." />;
  else if (!deals.data && deals.isError) body = <ErrorState>{ACCOUNT_STATS_ERROR}</ErrorState>;
  else if (!stats || (!stats.all.stats.best_trade && !stats.all.stats.worst_trade)) body = <EmptyState>{NO_ACCOUNT_STATS}</EmptyState>;
  else
    body = (
      <>
        <div className="summary-trade-cards">
          <TradeCard kind="Best trade" trade={stats.all.stats.best_trade} currency={stats.currency} />
          <TradeCard kind="Worst trade" trade={stats.all.stats.worst_trade} currency={stats.currency} />
        </div>
        <p className="summary-sub summary-stats-line">
          {stats.all.stats.win} won · {stats.all.stats.loss} lost · average win {formatMoney(stats.all.stats.average_win, stats.currency)} · average loss{' '}
          {formatMoney(stats.all.stats.average_loss, stats.currency)}
        </p>
      </>
    );
  return (
    <section ref={ref} className="summary-panel" aria-labelledby="summary-stats-title">
      <header className="summary-panel-header">
        <h2 id="summary-stats-title">Account stats</h2>
      </header>
      {body}
    </section>
  );
}

/** Forex vs Equities amounts (EUR notional of open positions) and a bar per instrument, 20-colour palette (docs/product.md#screens, §9). */
export function DistributionPanel({ positions }: { positions: readonly Position[] | null }) {
  let body;
  if (positions === null) body = <SkeletonRows rows={2} columns={2} label="Loading distribution..." />;
  else {
    const d = distribution(positions, DASHBOARD_PALETTE);
    if (d.total <= 0) body = <EmptyState>{NO_DISTRIBUTION}</EmptyState>;
    else {
      const x = Scale.scaleLinear({ domain: [0, d.total], range: [0, 100] });
      const starts = stackStarts(d.instruments.map((s) => s.value));
      body = (
        <>
          <div className="summary-dist-totals">
            <div>
              <span className="summary-sub">Forex</span>
              <strong data-amount="forex">{formatMoney(d.forex, 'EUR')}</strong>
            </div>
            <div>
              <span className="summary-sub">Equities</span>
              <strong data-amount="equities">{formatMoney(d.equities, 'EUR')}</strong>
            </div>
          </div>
          <svg className="summary-bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="Distribution by instrument">
            {d.instruments.map((s, i) => {
              const start = starts[i] ?? 0;
              return (
                <Shape.Bar key={s.symbol} x={x(start)} y={0} width={Math.max(0, x(s.value))} height={10} fill={s.color}>
                  <title>{`${s.symbol}: ${formatMoney(s.value, 'EUR')} (${formatPercent(s.percentage)})`}</title>
                </Shape.Bar>
              );
            })}
          </svg>
          <ul className="summary-legend summary-legend-compact">
            {d.instruments.map((s) => (
              <li key={s.symbol}>
                <span className="summary-swatch" style={{ background: s.color }} aria-hidden="true" />
                <span className="summary-legend-name">{s.symbol}</span>
                <span className="summary-legend-value">{formatPercent(s.percentage)}</span>
              </li>
            ))}
          </ul>
        </>
      );
    }
  }
  return (
    <section className="summary-panel" aria-labelledby="summary-dist-title">
      <header className="summary-panel-header">
        <h2 id="summary-dist-title">Distribution</h2>
      </header>
      {body}
    </section>
  );
}

/** Brokers of the portfolio with their icons (docs/product.md#screens, §3); choosing one shows its first account. */
export function BrokerSidebar({
  brokers,
  accounts,
  selectedBroker,
  onSelect,
  loading,
}: {
  brokers: readonly Broker[];
  accounts: readonly Account[];
  selectedBroker: string | null;
  onSelect: (broker: string) => void;
  loading: boolean;
}) {
  return (
    <nav className="summary-panel summary-brokers" aria-label="Brokers">
      <h2>Brokers</h2>
      {loading ? (
        <SkeletonRows rows={4} label="Loading brokers..." />
      ) : brokers.length === 0 ? (
        <EmptyState>No brokers for this portfolio.</EmptyState>
      ) : (
        <ul>
          {brokers.map((b) => {
            const n = accounts.filter((a) => a.broker_name === b.broker_name).length;
            return (
              <li key={b.broker_name}>
                <button type="button" className="summary-broker" aria-pressed={selectedBroker === b.broker_name} onClick={() => onSelect(b.broker_name)}>
                  <BrokerIcon broker={b.broker_name} size={28} />
                  <span className="summary-broker-name">{b.broker_name}</span>
                  <span className="summary-sub">{n}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </nav>
  );
}
