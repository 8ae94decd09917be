import { memo, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Account } from '#shared/contract/accounts.ts';
import { portfolioKeyFigures } from '#shared/analytics/key-figures.ts';
import { formatMoney } from '#shared/format/money.ts';
import { MISSING_VALUE } from '#shared/format/numbers.ts';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import { accountQueries } from '#client/api/queries/accounts.ts';
import { interval } from '#client/config/runtime-config.ts';
import { useStaleAsOf } from '#client/offline/stale.ts';
import { asOf } from '#client/offline/as-of.ts';
import { FigureList, toneOf } from '#client/ui/figure-list.tsx';

const eur = (value: number | null) => (value === null ? MISSING_VALUE : formatMoney(value, 'EUR'));

/**
 * The portfolio's key numbers, first on Summary: equity, floating P/L and realised P/L over 24 hours
 * and 7 days (docs/product.md#constants's loss windows), in EUR. Placeholder tiles keep their place while loading.
 */
export const KeyFigures = memo(function KeyFigures({ accounts, portfolio }: { accounts: readonly Account[] | undefined; portfolio: string }) {
  const losses = useQuery(accountQueries.historicalLosses());
  // The same query as the screen's (shared): when its figures were fetched.
  const info = useQuery(accountQueries.info(portfolio as Portfolio));
  // Figures kept from an earlier visit are not marked while their first refresh of this visit is
  // under way (nothing jumps as the screen fills); offline that refresh is paused, and they are.
  const refreshing = !info.isFetchedAfterMount && info.fetchStatus === 'fetching';
  const staleAsOf = useStaleAsOf(accounts && !refreshing ? info.dataUpdatedAt : undefined, interval('accounts_info_ms'));
  const figures = useMemo(() => (accounts ? portfolioKeyFigures(accounts, losses.data) : null), [accounts, losses.data]);
  // The realised P/L waits for its own answer: no 0,00 € before the figure.
  return <KeyFiguresView figures={figures} realised={losses.data ? figures : null} portfolio={portfolio} staleAsOf={staleAsOf} />;
});

/** The key figures' place and shape before any figure is asked for (Summary's first frame). */
export function KeyFiguresFrame({ portfolio }: { portfolio: string }) {
  return <KeyFiguresView figures={null} realised={null} portfolio={portfolio} />;
}

type Figures = ReturnType<typeof portfolioKeyFigures>;

function KeyFiguresView({
  figures,
  realised,
  portfolio,
  staleAsOf = null,
}: {
  figures: Figures | null;
  realised: Figures | null;
  portfolio: string;
  /** Set while the figures are stale (feed down, offline, older than their refresh period): muted, with their time. */
  staleAsOf?: number | null;
}) {
  return (
    <section
      className={`summary-panel summary-key-figures${staleAsOf === null ? '' : ' is-stale'}`}
      aria-label={`Key figures of ${portfolio}`}
      aria-busy={figures === null}
      data-stale={staleAsOf === null ? undefined : staleAsOf}
    >
      <FigureList
        label={`Key figures of ${portfolio}, in EUR`}
        figures={[
          { label: 'Equity', value: figures ? eur(figures.equity) : MISSING_VALUE, raw: figures?.equity },
          { label: 'Floating P/L', value: figures ? eur(figures.floatingPnl) : MISSING_VALUE, tone: toneOf(figures?.floatingPnl), raw: figures?.floatingPnl },
          { label: 'P/L 24 hours', value: eur(realised?.pnl24Hours ?? null), tone: toneOf(realised?.pnl24Hours), raw: realised?.pnl24Hours },
          { label: 'P/L 7 days', value: eur(realised?.pnl7Days ?? null), tone: toneOf(realised?.pnl7Days), raw: realised?.pnl7Days },
        ]}
      />
      {staleAsOf === null ? null : <p className="stale-as-of">Not live: figures {asOf(staleAsOf)}</p>}
    </section>
  );
}
