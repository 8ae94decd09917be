import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import { formatClock } from '#shared/format/dates.ts';
import { formatPercent } from '#shared/format/numbers.ts';
import { useConnectivity } from '#client/live/connection-registry.ts';
import { copyQueries } from '#client/api/queries/copy.ts';
import { ROUTES } from '#client/app/paths.ts';
import './bridge-health-line.css';

/**
 * Summary's compact strip of the bridge's health: how many accounts report on time, which do not,
 * the terminals' command success, and a link to the Copy screen's detail.
 */
export function BridgeHealthLine({ portfolio }: { portfolio: Portfolio }) {
  const query = useQuery(copyQueries.health(portfolio));
  const connectivity = useConnectivity();
  // Until the first answer a placeholder keeps the line's place, so the trades below it do not move.
  if (!query.data) return <BridgeHealthPlaceholder />;
  if (query.data.length === 0) return null;
  // Without a connection the line is what the server last said, and says when that was.
  const stale = connectivity === 'offline' || connectivity === 'reconnecting';
  const health = query.data;
  const late = health.filter((h) => h.state === 'silent' || h.state === 'offline');
  const answered = health.filter((h) => h.command_success_pct !== null);
  const success = answered.length ? answered.reduce((s, h) => s + h.command_success_pct!, 0) / answered.length : null;
  const tone = stale ? 'stale' : late.some((h) => h.state === 'offline') ? 'offline' : late.length ? 'silent' : 'live';
  return (
    <p className={`bridge-health-line health-${tone}`} role="status" aria-label="Bridge health">
      <span className="health-dot" aria-hidden="true" />
      <span>
        {stale ? `Connection lost · as of ${formatClock(query.dataUpdatedAt / 1000)}: ` : ''}
        {late.length === 0
          ? `Bridge: all ${health.length} accounts up to date`
          : `Bridge: ${late.map((h) => `${h.account_name} ${h.state}`).join(', ')}`}
        {success === null ? '' : ` · commands ${formatPercent(success)} done`}
      </span>
      <Link to={ROUTES.copy} search={(prev) => prev} className="bridge-health-link">
        Copy quality
      </Link>
    </p>
  );
}

/** The line's place and shape before the bridge's health is known. */
export function BridgeHealthPlaceholder() {
  return (
    <p className="bridge-health-line health-stale" role="status" aria-label="Bridge health" aria-busy="true">
      <span className="health-dot" aria-hidden="true" />
      <span>Bridge: …</span>
    </p>
  );
}
