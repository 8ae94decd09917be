import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Scale, Shape } from '@visx/visx';
import type { BarSegment } from '#shared/analytics/dashboard.ts';
import { allowedPairsOf, pairsOfMarket, selectionFromAllowed, togglePair } from '#shared/domain/pairs.ts';
import { formatMoney } from '#shared/format/money.ts';
import { formatPercent } from '#shared/format/numbers.ts';
import { copyRuleKeys, copyRuleMutations, copyRuleQueries } from '#client/api/queries/copy-rules.ts';
import { UPDATE_FAILED } from '#client/api/queries/write.ts';
import { KEPT_TOAST, pairsText, pendingForMaster } from '#client/offline/outbox.ts';
import { PendingNote } from '#client/offline/outbox-review.tsx';
import { useOutbox } from '#client/offline/outbox-store.ts';
import { BrokerIcon } from '#client/ui/broker-icon.tsx';
import { DropdownMenu } from '#client/ui/dropdown.tsx';
import { Skeleton } from '#client/ui/skeleton.tsx';
import { useToast } from '#client/ui/toast.tsx';

export interface SectionHeaderProps {
  title: string;
  /** Total volume in EUR. */
  totalAmount: number;
  barSegments: readonly BarSegment[];
  /** A master's account_id: write users get its Pairs selector here. */
  masterId?: string;
  canWrite?: boolean;
  subtitle?: string;
}

/** Where each stacked segment starts: the running total of the values before it. */
export function stackStarts(values: readonly number[]): number[] {
  const out: number[] = [];
  values.reduce((acc, v) => {
    out.push(acc);
    return acc + v;
  }, 0);
  return out;
}

/** Volumes per broker in EUR as a segmented bar drawn with visx (docs/product.md#purpose: the dashboard's section header). */
export function VolumeBar({ segments, total, label }: { segments: readonly BarSegment[]; total: number; label: string }) {
  if (segments.length === 0 || total <= 0) return <p className="summary-sub">No open volume.</p>;
  const x = Scale.scaleLinear({ domain: [0, total], range: [0, 100] });
  const starts = stackStarts(segments.map((s) => s.volume));
  return (
    <svg className="summary-bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label={label}>
      {segments.map((s, i) => {
        const start = starts[i] ?? 0;
        return (
          <Shape.Bar key={s.broker} x={x(start)} y={0} width={Math.max(0, x(s.volume))} height={10} fill={s.color}>
            <title>{`${s.broker}: ${formatMoney(s.volume, 'EUR')} (${formatPercent(s.percentage)})`}</title>
          </Shape.Bar>
        );
      })}
    </svg>
  );
}

/** Placeholder sections shaped like SectionHeader, so the panel keeps its height when the volumes arrive. */
export function SectionsSkeleton({ count, canWrite }: { count: number; canWrite: boolean }) {
  return (
    <div role="status" aria-busy="true" className="summary-sections">
      <span className="ui-visually-hidden">Loading volumes...</span>
      {Array.from({ length: Math.max(1, count) }, (_, i) => (
        <div key={i} className={canWrite ? 'summary-section-header summary-section-write' : 'summary-section-header'} aria-hidden="true">
          <div className="summary-section-top">
            <div className="summary-section-title">
              <Skeleton width="60%" height={18} />
            </div>
            <Skeleton width={96} height={34} />
          </div>
          <Skeleton className="summary-bar" />
        </div>
      ))}
    </div>
  );
}

export function SectionHeader({ title, totalAmount, barSegments, masterId, canWrite = false, subtitle }: SectionHeaderProps) {
  return (
    <section
      className={canWrite && masterId ? 'summary-section-header summary-section-write' : 'summary-section-header'}
      data-master-id={masterId}
      aria-label={title}
    >
      <div className="summary-section-top">
        <div className="summary-section-title">
          <h3>{title}</h3>
          {subtitle ? <span className="summary-sub">{subtitle}</span> : null}
        </div>
        <div className="summary-section-total">
          <span className="summary-sub">Volume</span>
          <strong>{formatMoney(totalAmount, 'EUR')}</strong>
        </div>
        {canWrite && masterId ? <PairsSelector masterId={masterId} /> : null}
      </div>
      <VolumeBar segments={barSegments} total={totalAmount} label={`Trade volumes per broker, ${title}`} />
      {barSegments.length ? (
        <ul className="summary-legend">
          {barSegments.map((s) => (
            <li key={s.broker}>
              <span className="summary-swatch" style={{ background: s.color }} aria-hidden="true" />
              <BrokerIcon broker={s.broker} size={18} />
              <span className="summary-legend-name">{s.broker}</span>
              <span className="summary-legend-value">
                {formatMoney(s.volume, 'EUR')} · {formatPercent(s.percentage)}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/**
 * A master's allowed pairs (docs/product.md#states pair toggle), sent to allowed-pairs on every change;
 * without a connection the change is kept on the device (docs/client.md, "Edits made offline").
 */
export function PairsSelector({ masterId }: { masterId: string }) {
  const client = useQueryClient();
  const toast = useToast();
  const rules = useQuery(copyRuleQueries.infos());
  const rule = rules.data?.find((r) => r.master_id === masterId);
  const kept = pendingForMaster(useOutbox(), masterId);
  const [pending, setPending] = useState<string[] | null>(null);
  const mutation = useMutation({
    ...copyRuleMutations.allowedPairsOrKeep(rule ?? { master_id: masterId, account_name: '', allowed_pairs: [] }),
    onMutate: (body) => setPending(body.new_allowed_pairs),
    onSuccess: (outcome) => {
      if (outcome.kept) toast.show(KEPT_TOAST);
    },
    onError: (err) => toast.show(err instanceof Error && err.message ? err.message : UPDATE_FAILED, 'error'),
    onSettled: async (outcome) => {
      // A change kept offline changed nothing on the server: the rules need not be read again (they could not be).
      if (!outcome?.kept) await client.invalidateQueries({ queryKey: copyRuleKeys.all() });
      setPending(null);
    },
  });
  // Reserve the selector's place while the rules load, so the section does not grow under the reader.
  if (!rule) return rules.isPending ? <div className="summary-pairs summary-pairs-pending" aria-hidden="true" /> : null;
  const universe = pairsOfMarket(rule.market_type);
  // The equity pair list is empty (docs/product.md#fields): nothing to choose for an equity master.
  if (universe.length === 0) return null;
  const allowed = pending ?? kept?.request.new_allowed_pairs ?? rule.allowed_pairs;
  const selection = selectionFromAllowed(allowed);
  const enabledCount = universe.filter((p) => allowed.includes(p)).length;

  return (
    <div className="summary-pairs">
      <DropdownMenu label={`Pairs of ${rule.account_name}`} trigger={`Pairs ${enabledCount}/${universe.length}`} maxHeight={400} align="left">
        <ul className="summary-pair-list">
            {universe.map((pair) => {
              // docs/product.md#states: an enabled pair is copied long; a disabled one has no position (null).
              const position = selection.find((item) => item.name === pair && item.enabled)?.position ?? null;
              return (
              <li key={pair} data-position={position ?? 'null'}>
                <label className="summary-pair">
                  <input
                    type="checkbox"
                    checked={allowed.includes(pair)}
                    disabled={mutation.isPending}
                    onChange={(e) => mutation.mutate({ master_id: masterId, new_allowed_pairs: allowedPairsOf(togglePair(selection, pair, e.target.checked)) })}
                  />
                  <span>{pair}</span>
                  <span className="summary-sub">{position ?? 'no position'}</span>
                </label>
              </li>
              );
            })}
        </ul>
      </DropdownMenu>
      {kept ? <PendingNote detail={pairsText(kept.request.new_allowed_pairs)} /> : null}
      {mutation.isPending ? (
        <span className="summary-updating" role="status">
          <span className="ui-spinner summary-spinner" aria-hidden="true" />
          <span className="ui-visually-hidden">Updating...</span>
        </span>
      ) : null}
    </div>
  );
}
