import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { BridgeHealth, FollowerQuality } from '#shared/contract/copy.ts';
import { DEFAULT_PERIOD, PERIOD_OPTIONS, type Period } from '#shared/domain/constants.ts';
import { hasPermission } from '#shared/domain/permissions.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { formatMoney } from '#shared/format/money.ts';
import { formatPercent } from '#shared/format/numbers.ts';
import { useSession } from '#client/auth/session-store.ts';
import { copyKeys, copyQueries, saveRiskLimits } from '#client/api/queries/copy.ts';
import { useSinglePortfolio } from '#client/app/portfolio.ts';
import { CsvButton } from '#client/export/csv-button.tsx';
import { csvFileName, localIsoDate } from '#client/export/csv-table.ts';
import { CardList, columnsToFields } from '#client/ui/card-list.tsx';
import { Dropdown } from '#client/ui/dropdown.tsx';
import { PageTitle } from '#client/ui/page-title.tsx';
import { SectionPanel } from '#client/ui/section-panel.tsx';
import { SortableTable } from '#client/ui/sortable-table.tsx';
import { EmptyState, ErrorState, LoadingState } from '#client/ui/states.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { useIsWide } from '#client/ui/use-media-query.ts';
import { GrowthChart } from './growth-chart.tsx';
import { RelationsPanel } from './relations-panel.tsx';
import { BROKER_COLUMNS, BROKER_CSV, FOLLOWER_COLUMNS, FOLLOWER_CSV, MISSES_SHOWN, REASON_LABELS, STATE_LABELS, TRADE_COLUMNS, TRADE_CSV, ageLabel, fmt, masterName, missedTitle, num, points, toneClass, type Report, unitOf } from './copy-columns.tsx';
import './copy.css';

/** The bridge's health: one chip per account (its state and the age of its last update), compact. */
export function HealthStrip({ health }: { health: readonly BridgeHealth[] }) {
  const counts = health.reduce<Record<string, number>>((acc, h) => ({ ...acc, [h.state]: (acc[h.state] ?? 0) + 1 }), {});
  const answered = health.filter((h) => h.command_success_pct !== null);
  const problems = health.filter((h) => h.state === 'silent' || h.state === 'offline');
  return (
    <div className="health-strip" role="group" aria-label="Bridge health">
      <p className="health-summary">
        {(['live', 'simulated', 'statement', 'silent', 'offline'] as const)
          .filter((s) => counts[s])
          .map((s) => `${counts[s]} ${STATE_LABELS[s].toLowerCase()}`)
          .join(' · ')}
        {answered.length ? ` · commands ${formatPercent(answered.reduce((s, h) => s + h.command_success_pct!, 0) / answered.length)} done` : ''}
      </p>
      {problems.length ? <HealthChips health={problems} label="Accounts needing attention" /> : null}
      <details className="health-details">
        <summary>Each account ({health.length})</summary>
        <HealthChips health={health} label="Every account" />
      </details>
    </div>
  );
}

function HealthChips({ health, label }: { health: readonly BridgeHealth[]; label: string }) {
  return (
    <ul className="health-chips" aria-label={label}>
      {health.map((h) => (
        <li key={h.account_id} className={`health-chip health-${h.state}`} title={`${h.account_name} (${h.broker_name}): ${STATE_LABELS[h.state]}, last update ${ageLabel(h.last_update_age_s)} ago${h.command_success_pct === null ? '' : `, commands ${formatPercent(h.command_success_pct)} done`}`}>
          <span className="health-dot" aria-hidden="true" />
          <span className="health-name">{h.account_name}</span>
          <span className="health-age">{ageLabel(h.last_update_age_s)}</span>
        </li>
      ))}
    </ul>
  );
}

function FollowerCardTitle({ f }: { f: FollowerQuality }) {
  return (
    <span className="follower-title">
      <span>{f.account_name}</span>
      <span className="follower-master">{f.master ? `copies ${f.master.account_name}` : masterName(f)}</span>
    </span>
  );
}

/** The follower's equity stop as its relation holds it (edited under Copy relations). */
function EquityStopLine({ follower }: { follower: FollowerQuality }) {
  const state = follower.equity_stopped ? 'fired: copying to it is stopped' : 'armed';
  return (
    <p className="equity-stop-line">
      Equity stop: {follower.equity_stop === null ? 'none' : `${formatMoney(follower.equity_stop, follower.currency)} (${state})`}
    </p>
  );
}

function RiskLimitsForm({ report, portfolio }: { report: Report; portfolio: ReturnType<typeof useSinglePortfolio> }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [drawdown, setDrawdown] = useState(report.limits.max_drawdown_pct === null ? '' : String(report.limits.max_drawdown_pct));
  const [margin, setMargin] = useState(report.limits.min_margin_level_pct === null ? '' : String(report.limits.min_margin_level_pct));
  const parse = (v: string) => (v.trim() === '' ? null : Number(v.replace(',', '.')));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      toast.show(await saveRiskLimits({ portfolio, max_drawdown_pct: parse(drawdown), min_margin_level_pct: parse(margin) }), 'success');
      await queryClient.invalidateQueries({ queryKey: copyKeys.all() });
    } catch (err) {
      toast.show(err instanceof Error ? err.message : 'Update failed.', 'error');
    }
  };
  return (
    <form className="risk-form" onSubmit={(e) => void submit(e)}>
      <label>
        Max drawdown (%)
        <input inputMode="decimal" value={drawdown} onChange={(e) => setDrawdown(e.target.value)} placeholder="none" />
      </label>
      <label>
        Min margin level (%)
        <input inputMode="decimal" value={margin} onChange={(e) => setMargin(e.target.value)} placeholder="none" />
      </label>
      <button type="submit" className="button">
        Save thresholds
      </button>
    </form>
  );
}

function FollowerDetail({ report, period }: { report: Report; period: Period }) {
  const copies = report.followers.filter((f) => f.is_copy);
  const [chosen, setChosen] = useState<string | undefined>(copies[0]?.account_id);
  const follower = copies.find((f) => f.account_id === chosen) ?? copies[0];
  const growth = useQuery(copyQueries.growth(follower?.account_id, period));
  const [showAll, setShowAll] = useState(false);
  const wide = useIsWide();
  if (!follower) return <EmptyState>No copy account in this portfolio.</EmptyState>;
  return (
    <SectionPanel
      title="Follower against master"
      className="copy-detail"
      actions={
        <Dropdown
          label="Follower"
          options={copies.map((f) => ({ value: f.account_id, label: f.account_name }))}
          value={follower.account_id}
          onChange={setChosen}
          align="right"
        />
      }
    >
      {growth.isPending ? (
        <LoadingState>Loading chart data...</LoadingState>
      ) : growth.isError ? (
        <ErrorState onRetry={() => void growth.refetch()}>Error loading chart data</ErrorState>
      ) : growth.data.follower.length + growth.data.master.length === 0 ? (
        <EmptyState>No trades in this period.</EmptyState>
      ) : (
        <GrowthChart follower={growth.data.follower} master={growth.data.master} followerName={growth.data.account_name} masterName={growth.data.master_name} />
      )}
      <EquityStopLine follower={follower} />
      <div className="copy-subhead">
        <h3>Recent copies</h3>
        <CsvButton
          table={`copies of ${follower.account_name}`}
          build={(now) => ({ fileName: csvFileName('copies', follower.account_name, localIsoDate(now)), columns: TRADE_CSV, rows: follower.trades })}
          disabled={follower.trades.length === 0}
        />
      </div>
      {follower.trades.some((t) => t.inferred) ? <p className="copy-note">* linked by symbol, side and time (no record of the copy engine).</p> : null}
      {wide ? (
        <SortableTable columns={TRADE_COLUMNS} rows={follower.trades} rowKey={(t) => `${t.opened_at}|${t.symbol}|${t.quantity}`} label={`Copies of ${follower.account_name}`} emptyText="No copy in this period." maxHeight="40vh" />
      ) : (
        <CardList
          items={follower.trades}
          itemKey={(t) => `${t.opened_at}|${t.symbol}|${t.quantity}`}
          fields={columnsToFields(TRADE_COLUMNS)}
          face={(t) => ({ title: `${t.type} ${t.symbol} ${t.quantity}${t.inferred ? ' *' : ''}`, subtitle: formatDateFr(t.opened_at), figure: fmt(t.entry_slippage, 2, unitOf(t)), tone: -t.entry_slippage })}
          label={`Copies of ${follower.account_name}`}
          emptyText="No copy in this period."
        />
      )}
      <h3 className="copy-subhead-plain">Missed copies</h3>
      {follower.misses.length === 0 ? (
        <p className="copy-note">None in this period.</p>
      ) : (
        <p className="copy-note">
          {follower.missed} in the period: {missedTitle(follower)}
          {follower.misses.length < follower.missed ? ` (the latest ${follower.misses.length} listed)` : ''}.
        </p>
      )}
      {follower.misses.length === 0 ? null : (
        <ul className="miss-list" aria-label={`Missed copies of ${follower.account_name}`}>
          {follower.misses.slice(0, showAll ? undefined : MISSES_SHOWN).map((m) => (
            <li key={`${m.at}|${m.symbol}|${m.type}|${m.reason}`}>
              <span className="miss-when">{formatDateFr(m.at)}</span>
              <span className="miss-what">
                {m.type} {m.symbol}
              </span>
              <span className="miss-reason">
                {REASON_LABELS[m.reason]}
                {m.inferred ? ' (inferred)' : ''}
                {m.message ? `: ${m.message}` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
      {follower.misses.length > MISSES_SHOWN ? (
        <button type="button" className="button ghost" aria-expanded={showAll} onClick={() => setShowAll((v) => !v)}>
          {showAll ? 'Show fewer' : `Show all ${follower.misses.length}`}
        </button>
      ) : null}
    </SectionPanel>
  );
}

/** The Copy screen (docs/copy-quality.md): did the followers copy their masters, at what cost, and where did it go wrong. */
export function CopyPage() {
  const portfolio = useSinglePortfolio();
  const session = useSession();
  const canWrite = hasPermission(session?.restrictions, 'write');
  const [period, setPeriod] = useState<Period>(DEFAULT_PERIOD);
  const wide = useIsWide();
  const query = useQuery(copyQueries.report(portfolio, period));

  let body;
  if (query.isPending) body = <LoadingState>Loading copy quality...</LoadingState>;
  else if (query.isError) body = <ErrorState onRetry={() => void query.refetch()}>{query.error.message}</ErrorState>;
  else {
    const report = query.data;
    const brokers = report.brokers.map((b, i) => ({ ...b, rank: i + 1 }));
    body = (
      <>
        <SectionPanel title="Bridge health">
          <HealthStrip health={report.health} />
        </SectionPanel>
        <SectionPanel
          title="Followers"
          actions={
            <CsvButton
              table="Followers"
              build={(now) => ({ fileName: csvFileName('copy_followers', portfolio, period, localIsoDate(now)), columns: FOLLOWER_CSV, rows: report.followers })}
              disabled={report.followers.length === 0}
            />
          }
        >
          {wide ? (
            <SortableTable columns={FOLLOWER_COLUMNS} rows={report.followers} rowKey={(f) => f.account_id} label="Followers" emptyText="No follower in this portfolio." />
          ) : (
            <CardList
              items={report.followers}
              itemKey={(f) => f.account_id}
              face={(f) => ({
                title: <FollowerCardTitle f={f} />,
                subtitle: f.is_copy ? `${f.copied} copied · ${f.missed} missed · slippage ${fmt(f.avg_entry_slippage_pips, 2, ' pips')}` : 'Not a copy account',
                figure: points(f.tracking_difference),
                tone: f.tracking_difference ?? 0,
                note: 'vs master',
              })}
              hint="On the right, the tracking difference: the follower's return minus its master's, in percentage points (pts). Tap a follower for its figures."
              fields={columnsToFields(FOLLOWER_COLUMNS).slice(2)}
              label="Followers"
              emptyText="No follower in this portfolio."
            />
          )}
        </SectionPanel>
        <FollowerDetail report={report} period={period} />
        {/* Who copies whom comes after how well they copy: the quality is what an investor opens the screen for. */}
        <RelationsPanel portfolio={portfolio} canWrite={canWrite} />
        <SectionPanel
          title="Brokers by copy quality"
          actions={
            <CsvButton table="Brokers by copy quality" build={(now) => ({ fileName: csvFileName('copy_brokers', portfolio, period, localIsoDate(now)), columns: BROKER_CSV, rows: brokers })} disabled={brokers.length === 0} />
          }
        >
          {wide ? (
            <SortableTable columns={BROKER_COLUMNS} rows={brokers} rowKey={(b) => b.broker_name} label="Brokers by copy quality" emptyText="No copy in this period." />
          ) : (
            <CardList
              items={brokers}
              itemKey={(b) => b.broker_name}
              face={(b) => ({ title: `${b.rank}. ${b.broker_name}`, subtitle: `${b.trades} copies · ${fmt(b.avg_delay_ms, 0, ' ms')} avg delay`, figure: fmt(b.avg_entry_slippage_pips, 2, ' pips'), tone: -(b.avg_entry_slippage_pips ?? 0), note: 'avg slippage' })}
              hint="Average entry slippage against the master, in pips (positive: a worse price). Tap a broker for its figures."
              fields={columnsToFields(BROKER_COLUMNS).slice(2)}
              label="Brokers by copy quality"
              emptyText="No copy in this period."
            />
          )}
        </SectionPanel>
        <SectionPanel title="Risk">
          {report.breaches.length ? (
            <ul className="breach-list" aria-label="Thresholds crossed">
              {report.breaches.map((b) => (
                <li key={`${b.account_id}|${b.kind}`}>
                  <strong>{b.account_name}</strong>:{' '}
                  {b.kind === 'equity_stop'
                    ? `equity ${num(2).format(b.value)} ${b.currency} at or under its stop ${num(2).format(b.limit)} ${b.currency}`
                    : b.kind === 'drawdown'
                      ? `drawdown ${formatPercent(b.value)} over ${formatPercent(b.limit)}`
                      : `margin level ${formatPercent(b.value)} under ${formatPercent(b.limit)}`}
                </li>
              ))}
            </ul>
          ) : (
            <p className="copy-note">No threshold crossed.</p>
          )}
          {canWrite ? <RiskLimitsForm key={`${portfolio}|${report.limits.max_drawdown_pct}|${report.limits.min_margin_level_pct}`} report={report} portfolio={portfolio} /> : null}
          <h3 className="copy-subhead-plain">Net currency exposure</h3>
          {report.exposure.length === 0 ? (
            <p className="copy-note">No open position.</p>
          ) : (
            <ul className="exposure-list" aria-label="Net currency exposure">
              {report.exposure.map((e) => (
                <li key={e.currency}>
                  <span className="exposure-currency">{e.currency}</span>
                  <span className={toneClass(e.exposure_eur ?? e.exposure)}>{e.exposure_eur === null ? formatMoney(e.exposure, e.currency) : formatMoney(e.exposure_eur, 'EUR')}</span>
                </li>
              ))}
            </ul>
          )}
        </SectionPanel>
      </>
    );
  }

  return (
    <div className="copy-page">
      <PageTitle>{`Copy quality - ${portfolio}`}</PageTitle>
      <div className="copy-toolbar">
        <Dropdown label="Period" options={PERIOD_OPTIONS} value={period} onChange={setPeriod} />
      </div>
      {body}
    </div>
  );
}
