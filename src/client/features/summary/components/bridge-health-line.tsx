import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import { formatPercent } from '#shared/format/numbers.ts';
import { copyQueries } from '#client/api/queries/copy.ts';
import { ROUTES } from '#client/app/paths.ts';
import './bridge-health-line.css';

/**
 * Summary's compact strip of the bridge's health: how many accounts report on time, which do not,
 * the terminals' command success, and a link to the Copy screen's detail.
 */
export function BridgeHealthLine({ portfolio }: { portfolio: Portfolio }) {
  const query = useQuery(copyQueries.health(portfolio));
  if (!query.data || query.data.length === 0) return null;
  const health = query.data;
  const late = health.filter((h) => h.state === 'silent' || h.state === 'offline');
  const answered = health.filter((h) => h.command_success_pct !== null);
  const success = answered.length ? answered.reduce((s, h) => s + h.command_success_pct!, 0) / answered.length : null;
  const tone = late.some((h) => h.state === 'offline') ? 'offline' : late.length ? 'silent' : 'live';
  return (
    <p className={`bridge-health-line health-${tone}`} role="status" aria-label="Bridge health">
      <span className="health-dot" aria-hidden="true" />
      <span>
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
