import { memo, useCallback, useDeferredValue, useMemo, useState } from 'react';
import { liveFeeds } from '#shared/contract/live.ts';
import { useQuery } from '@tanstack/react-query';
import type { Account, Broker } from '#shared/contract/accounts.ts';
import type { Position } from '#shared/contract/positions.ts';
import { brokerVolumes, type GridBy } from '#shared/analytics/dashboard.ts';
import { sum } from '#shared/analytics/stats.ts';
import { DASHBOARD_PALETTE, SKELETON_ROWS, SKELETON_ROWS_MOBILE } from '#shared/domain/constants.ts';
import { hasPermission } from '#shared/domain/permissions.ts';
import { dashboardPanels, isEquityCategory, isForexCategory } from '#shared/domain/positions-filter.ts';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import { accountQueries } from '#client/api/queries/accounts.ts';
import { useSinglePortfolio } from '#client/app/portfolio.ts';
import { useSession } from '#client/auth/session-store.ts';
import { useLivePositions } from '#client/live/use-live-positions.ts';
import { BridgeHealthLine, BridgeHealthPlaceholder } from './components/bridge-health-line.tsx';
import { PageTitle } from '#client/ui/page-title.tsx';
import { SegmentedControl } from '#client/ui/segmented-control.tsx';
import { SkeletonCards, SkeletonRows } from '#client/ui/skeleton.tsx';
import { useIsWide } from '#client/ui/use-media-query.ts';
import { useNearViewport } from '#client/ui/use-near-viewport.ts';
import { useElapsed, useStagedMount } from '#client/ui/use-staged-mount.ts';
import { AccountInfoPanel, AccountPicker, AccountStatsPanel, BrokerSidebar, DistributionPanel } from './components/account-panels.tsx';
import { firstReported, hasReported } from '#client/offline/first-report.ts';
import { ExecutionPanel } from './components/execution-grid.tsx';
import { positionKey } from './components/live-model.ts';
import { TradesPanel } from './components/panel.tsx';
import { ClosePositionModal, EditPositionModal } from './components/position-modals.tsx';
import { SectionHeader, SectionsSkeleton } from './components/section-header.tsx';
import { KeyFigures, KeyFiguresFrame } from './components/key-figures.tsx';
import './summary.css';

type MasterMode = 'masters' | 'all';

/**
 * How long the panels below the trades wait for the feed's first snapshot (it comes within a second
 * on a good connection): past it they are drawn anyway, with their skeletons, and a late snapshot
 * moves them once rather than leave them out on a feed that does not answer.
 */
const FIRST_SNAPSHOT_WAIT_MS = 3_000;

type Action = { kind: 'edit' | 'close'; position: Position };

// docs/product.md#states's master filter modes, for the header's volume bars: one bar per master, or one for every
// account. The trades panels have their own filter (masters' or followers' positions): each control
// carries a visible label saying what it filters.
const MASTER_MODES = [
  { value: 'masters', label: 'Masters' },
  { value: 'all', label: 'All' },
] as const;

const feedProblem = (status: string, error: string | null) => (status === 'reconnecting' || status === 'offline' ? error : null);

interface Section {
  key: string;
  title: string;
  subtitle: string;
  rows: readonly Position[];
  masterId: string | undefined;
}

/** Master sections with their volume bars; skeleton sections keep the panel's final height until the data is in. */
const MastersPanel = memo(function MastersPanel({
  sections,
  placeholders,
  portfolio,
  mode,
  onMode,
  canWrite,
}: {
  sections: readonly Section[] | null;
  placeholders: number;
  portfolio: Portfolio;
  mode: MasterMode;
  onMode: (mode: MasterMode) => void;
  canWrite: boolean;
}) {
  const headers = useMemo(
    () =>
      sections?.map((s) => ({
        ...s,
        total: sum(s.rows.map((p) => Math.abs(p.quantity_currency))),
        segments: brokerVolumes(s.rows, DASHBOARD_PALETTE),
      })) ?? null,
    [sections],
  );
  return (
    <section className="summary-panel summary-header" aria-labelledby="summary-masters-title">
      <header className="summary-panel-header">
        <h2 id="summary-masters-title">Master accounts</h2>
        <div className="summary-filter">
          <span className="summary-filter-label" aria-hidden="true">
            Volume bars of
          </span>
          <SegmentedControl label="Volume bars of" options={MASTER_MODES} value={mode} onChange={onMode} />
        </div>
      </header>
      {headers === null ? (
        <SectionsSkeleton count={placeholders} canWrite={canWrite} />
      ) : headers.length === 0 ? (
        <p className="summary-sub">No master accounts in {portfolio}.</p>
      ) : (
        <div className="summary-sections">
          {headers.map((s) => (
            <SectionHeader
              key={s.key}
              title={s.title}
              subtitle={s.subtitle}
              totalAmount={s.total}
              barSegments={s.segments}
              masterId={s.masterId}
              canWrite={canWrite}
            />
          ))}
        </div>
      )}
    </section>
  );
});

/**
 * Summary mounts in steps (useStagedMount): first its frame, at once, then the screen with its
 * feeds and queries, then the execution grid, then the accounts area. Each step is a transition,
 * so React renders it in short slices and runs its effects (the fetches, the sockets) in tasks of
 * their own: no step holds a phone's main thread for long. The frame has every panel above the
 * fold in its final place and shape, so nothing moves when the screen replaces it.
 */
export function SummaryPage() {
  const stage = useStagedMount(3);
  return stage === 0 ? <SummaryFrame /> : <SummaryScreen stage={stage} />;
}

const noop = () => undefined;

/**
 * Summary's first frame: what lies above the fold, as light skeletons, before any feed or query
 * starts. The screen that replaces it draws new elements, so nothing on screen moves (a layout
 * shift is an element that was there and moved); it only has to look like what comes.
 */
function SummaryFrame() {
  const portfolio = useSinglePortfolio();
  const wide = useIsWide();
  const panels = dashboardPanels(portfolio, []);
  const titles = [panels.fx ? 'FX trades' : null, panels.equity ? 'Equity trades' : null].filter((t) => t !== null);
  return (
    <div className="summary">
      <PageTitle>Summary</PageTitle>
      <KeyFiguresFrame portfolio={portfolio} />
      <BridgeHealthPlaceholder />
      <MasterOnlySwitch checked disabled onChange={noop} />
      <div className={titles.length === 2 ? 'summary-trades summary-trades-two' : 'summary-trades'}>
        {titles.map((title) => (
          <section key={title} className="summary-panel summary-trades-panel" aria-label={title} aria-busy="true">
            <header className="summary-panel-header">
              <h2>{title}</h2>
            </header>
            {wide ? (
              <SkeletonRows rows={SKELETON_ROWS} columns={6} label="Loading live positions..." />
            ) : (
              <SkeletonCards rows={SKELETON_ROWS_MOBILE} label="Loading live positions..." />
            )}
          </section>
        ))}
      </div>
    </div>
  );
}

/** The switch between the masters' positions and the followers' (the copies) in the trades panels. */
function MasterOnlySwitch({ checked, disabled = false, onChange }: { checked: boolean; disabled?: boolean; onChange: (checked: boolean) => void }) {
  return (
    <div className="summary-toolbar">
      <label className="summary-switch">
        <input type="checkbox" role="switch" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
        <span className="summary-switch-track" aria-hidden="true" />
        <span>Master only</span>
      </label>
      <span className="summary-sub" role="status">
        {checked ? 'Trades below: masters’ positions only' : 'Trades below: followers’ positions (the copies)'}
      </span>
    </div>
  );
}

/**
 * The master sections of the header: one per master with its positions (or one for every account in
 * 'All' mode), null until the positions and the accounts are in; how many placeholders show meanwhile.
 */
function useMasterSections(positions: readonly Position[] | null, masters: readonly Account[] | null, mode: MasterMode, portfolio: Portfolio) {
  const sections = useMemo((): Section[] | null => {
    if (!positions || masters === null) return null;
    if (mode === 'all') {
      return [{ key: 'all', title: 'All accounts', subtitle: `${portfolio}`, rows: positions, masterId: undefined }];
    }
    return masters.map((m) => ({
      key: m.account_id,
      title: m.account_name,
      subtitle: m.broker_name,
      rows: positions.filter((p) => p.account_name === m.account_name),
      masterId: m.account_id,
    }));
  }, [positions, masters, mode, portfolio]);
  // Before the accounts arrive the number of masters is unknown: one placeholder (the phone strip shows one at a time).
  const placeholders = mode === 'all' || masters === null ? 1 : Math.max(1, masters.length);
  return { sections, placeholders };
}

function SummaryScreen({ stage }: { stage: number }) {
  const session = useSession();
  const canWrite = hasPermission(session?.restrictions, 'write');
  const portfolio = useSinglePortfolio();
  const wide = useIsWide();

  const [gridTab, setGridTab] = useState<GridBy>('account');
  const [masterOnly, setMasterOnly] = useState(true);
  const [mode, setMode] = useState<MasterMode>('masters');
  const [action, setAction] = useState<Action | null>(null);
  const [accountId, setAccountId] = useState<string | null>(null);

  // One feed per account position serves the header, the trades panels, the Accounts grid and the distribution.
  const live = useLivePositions({ path: liveFeeds.aggregateBy.path, params: { portfolio, aggregate_by: 'account' } });
  const byBroker = useLivePositions({
    path: liveFeeds.aggregateBy.path,
    params: { portfolio, aggregate_by: 'broker' },
    enabled: gridTab === 'broker',
  });
  const accounts = useQuery(accountQueries.info(portfolio));
  const brokers = useQuery(accountQueries.brokers(portfolio));

  // A snapshot arrives every second and every panel derives from it: rendering it as a transition
  // lets React split that work into short slices instead of one long task per message.
  const positions = useDeferredValue(live.positions);
  const brokerPositions = useDeferredValue(byBroker.positions);
  // Query results come as urgent (synchronous) renders; the panels they fill render from deferred
  // copies, in a transition React can slice, like the live feed above.
  const accountsData = useDeferredValue(accounts.data);
  const brokersData = useDeferredValue(brokers.data);
  const accountsLoading = accountsData === undefined && !accounts.isError;
  const brokersLoading = brokersData === undefined && !brokers.isError;
  const accountList = useMemo(() => accountsData ?? [], [accountsData]);
  const masters = useMemo(() => accountList.filter((a) => a.is_master), [accountList]);
  // An account that never reported is never the default (it has no figures yet).
  const account = accountList.find((a) => a.account_id === accountId) ?? firstReported(masters.filter(hasReported)) ?? firstReported(accountList) ?? null;

  const panels = useMemo(() => dashboardPanels(portfolio, positions ?? []), [portfolio, positions]);
  const shown = useMemo(() => (positions ? positions.filter((p) => p.is_master === masterOnly) : null), [positions, masterOnly]);
  const fxRows = useMemo(() => (shown ? shown.filter((p) => isForexCategory(p.category)) : null), [shown]);
  const equityRows = useMemo(() => (shown ? shown.filter((p) => isEquityCategory(p.category)) : null), [shown]);
  const liveError = feedProblem(live.status, live.error);

  const onEdit = useCallback((position: Position) => setAction({ kind: 'edit', position }), [setAction]);
  const onClose = useCallback((position: Position) => setAction({ kind: 'close', position }), [setAction]);
  const onDone = useCallback(() => setAction(null), [setAction]);
  const current = action && positions ? (positions.find((p) => positionKey(p) === positionKey(action.position)) ?? null) : null;

  const { sections, placeholders } = useMasterSections(positions, accountsLoading ? null : masters, mode, portfolio);

  // What lies below the trades waits for their first snapshot (or for the feed to say it is down, or
  // FIRST_SNAPSHOT_WAIT_MS): added then, it is new on the page and moves nothing, where drawn before it
  // would be pushed down or pulled up by however many positions the snapshot holds. On a phone the
  // second trades panel waits too, for the same reason (on a desktop the two sit side by side).
  const waited = useElapsed(FIRST_SNAPSHOT_WAIT_MS);
  const tradesIn = positions !== null || waited || live.status === 'reconnecting' || live.status === 'offline' || live.status === 'closed';
  const bothPanels = panels.fx && panels.equity;
  // The positions come first, on a phone and on a desktop (issue 40): the master sections follow the trades.
  const mastersPanel = (
    <MastersPanel sections={sections} placeholders={placeholders} portfolio={portfolio} mode={mode} onMode={setMode} canWrite={canWrite} />
  );

  return (
    <div className="summary">
      <PageTitle>Summary</PageTitle>

      <KeyFigures accounts={accountsData} portfolio={portfolio} />

      <BridgeHealthLine portfolio={portfolio} />

      <MasterOnlySwitch checked={masterOnly} onChange={setMasterOnly} />

      <div className={bothPanels ? 'summary-trades summary-trades-two' : 'summary-trades'}>
        {panels.fx ? (
          <TradesPanel title="FX trades" positions={fxRows} feedError={liveError} canWrite={canWrite} wide={wide} onEdit={onEdit} onClose={onClose} grouped={!masterOnly} />
        ) : null}
        {panels.equity && (wide || !panels.fx || tradesIn) ? (
          <TradesPanel title="Equity trades" positions={equityRows} feedError={liveError} canWrite={canWrite} wide={wide} onEdit={onEdit} onClose={onClose} grouped={!masterOnly} />
        ) : null}
      </div>

      {tradesIn ? mastersPanel : null}

      {stage >= 2 && tradesIn ? (
        <ExecutionPanel
          accountRows={positions}
          brokerRows={brokerPositions}
          brokerError={feedProblem(byBroker.status, byBroker.error)}
          tab={gridTab}
          onTab={setGridTab}
          wide={wide}
        />
      ) : null}

      {stage >= 3 && tradesIn ? (
        <AccountsArea
          brokers={brokersData}
          brokersLoading={brokersLoading}
          accounts={accountList}
          account={account}
          accountsLoading={accountsLoading}
          accountsError={accounts.isError ? accounts.error.message : null}
          positions={positions}
          onAccount={setAccountId}
        />
      ) : null}

      {action?.kind === 'edit' ? (
        <EditPositionModal key={positionKey(action.position)} position={current} selected={action.position} portfolio={portfolio} onDone={onDone} />
      ) : null}
      {action?.kind === 'close' ? (
        <ClosePositionModal key={positionKey(action.position)} position={current} selected={action.position} portfolio={portfolio} onDone={onDone} />
      ) : null}
    </div>
  );
}

/**
 * Broker sidebar, account picker and the info, stats and distribution panels. They sit below the
 * trades and the execution grid, several screens down on a phone: they are drawn once the area
 * comes within a screen of the viewport (at once on a large screen that shows it), with a skeleton
 * until then.
 */
const AccountsArea = memo(function AccountsArea({
  brokers,
  brokersLoading,
  accounts,
  account,
  accountsLoading,
  accountsError,
  positions,
  onAccount,
}: {
  brokers: readonly Broker[] | undefined;
  brokersLoading: boolean;
  accounts: readonly Account[];
  account: Account | null;
  accountsLoading: boolean;
  accountsError: string | null;
  positions: readonly Position[] | null;
  onAccount: (id: string) => void;
}) {
  const { ref, near } = useNearViewport('100%');
  if (!near) {
    return (
      <div ref={ref} className="summary-accounts">
        <SkeletonRows rows={4} columns={2} label="Loading accounts..." />
      </div>
    );
  }
  return (
    <div className="summary-accounts">
      <BrokerSidebar
        brokers={brokers ?? []}
        accounts={accounts}
        selectedBroker={account?.broker_name ?? null}
        loading={brokersLoading}
        onSelect={(broker) => {
          const first = accounts.find((a) => a.broker_name === broker);
          if (first) onAccount(first.account_id);
        }}
      />
      <div className="summary-account-panels">
        {accounts.length ? (
          <div className="summary-picker-row">
            <AccountPicker accounts={accounts} value={account?.account_id ?? null} onChange={onAccount} />
          </div>
        ) : null}
        <div className="summary-account-grid">
          <AccountInfoPanel account={account} loading={accountsLoading} error={accountsError} />
          <AccountStatsPanel account={account} />
          <DistributionPanel positions={positions} />
        </div>
      </div>
    </div>
  );
});
