import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { CopyRelation } from '#shared/contract/copy-relations.ts';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import { accountQueries } from '#client/api/queries/accounts.ts';
import { copyRuleQueries } from '#client/api/queries/copy-rules.ts';
import { pendingForMaster } from '#client/offline/outbox.ts';
import { useOutbox } from '#client/offline/outbox-store.ts';
import { SectionPanel } from '#client/ui/section-panel.tsx';
import { EmptyState, ErrorState, LoadingState } from '#client/ui/states.tsx';
import { relationQueries } from '#client/api/queries/relations.ts';
import { GuardLegend } from './guard-legend.tsx';
import { MasterCard } from './master-card.tsx';
import { useRelationGuards } from './relation-guards.ts';
import { PairsModal, RelationModal, type Editing } from './relation-dialogs.tsx';

/**
 * Who copies whom in the portfolio (docs/copying.md): each master with the pairs its followers copy
 * and each follower with its sizing, cap and equity stop, and the guards of each (a badge per guard).
 * A write user adds a follower to a master, edits its terms or ends it, sets the master's pairs, and
 * sets, re-arms or removes guards; others read.
 */
export function RelationsPanel({ portfolio, canWrite }: { portfolio: Portfolio; canWrite: boolean }) {
  const relations = useQuery(relationQueries.list(portfolio));
  const accounts = useQuery(accountQueries.info(portfolio));
  const rules = useQuery(copyRuleQueries.infos());
  const kept = useOutbox();
  const [editing, setEditing] = useState<Editing | null>(null);
  const { guards, error: guardsError } = useRelationGuards(relations.data ?? [], canWrite ? (accounts.data ?? []).filter((a) => a.is_master) : []);

  let body;
  if (relations.isPending || accounts.isPending) body = <LoadingState>Loading copy relations...</LoadingState>;
  else if (relations.isError) body = <ErrorState onRetry={() => void relations.refetch()}>{relations.error.message}</ErrorState>;
  else if (accounts.isError) body = <ErrorState onRetry={() => void accounts.refetch()}>{accounts.error.message}</ErrorState>;
  else {
    const byId = new Map(accounts.data.map((a) => [a.account_id, a]));
    const ruleOf = new Map((rules.data ?? []).map((r) => [r.master_id, r]));
    const followersOf = new Map<string, CopyRelation[]>();
    for (const r of relations.data) followersOf.set(r.master.account_id, [...(followersOf.get(r.master.account_id) ?? []), r]);
    // Masters with followers here; a write user also sees the masters without any, to add one.
    const masters = accounts.data.filter((a) => a.is_master && (canWrite || followersOf.has(a.account_id)));
    body =
      masters.length === 0 ? (
        <EmptyState>No account copies another in this portfolio.</EmptyState>
      ) : (
        <div className="relation-masters">
          {guardsError ? <p className="copy-note relation-masters-note">Guards could not be read: {guardsError.message}</p> : null}
          {guards.length ? <GuardLegend /> : null}
          {masters.map((m) => (
            <MasterCard
              key={m.account_id}
              master={m}
              rule={ruleOf.get(m.account_id)}
              keptPairs={pendingForMaster(kept, m.account_id)}
              followers={followersOf.get(m.account_id) ?? []}
              guards={guards}
              canWrite={canWrite}
              onPairs={() => setEditing({ kind: 'pairs', master: m, rule: ruleOf.get(m.account_id) })}
              onEdit={(r) => setEditing({ kind: 'edit', relation: r, master: m, follower: byId.get(r.follower.account_id) })}
              onAdd={() => setEditing({ kind: 'add', master: m })}
            />
          ))}
        </div>
      );
  }

  const close = () => setEditing(null);
  return (
    <SectionPanel title="Copy relations" className="copy-relations">
      {body}
      {editing?.kind === 'pairs' ? <PairsModal master={editing.master} rule={editing.rule} onDone={close} /> : null}
      {editing?.kind === 'add' || editing?.kind === 'edit' ? (
        <RelationModal
          editing={editing}
          market={(rules.data ?? []).find((r) => r.master_id === (editing.kind === 'add' ? editing.master.account_id : editing.relation.master.account_id))?.market_type ?? 'Forex'}
          candidates={(accounts.data ?? []).filter(
            (a) => a.is_master && a.account_id !== editing.master?.account_id && !(relations.data ?? []).some((r) => r.master.account_id === a.account_id),
          )}
          onDone={close}
        />
      ) : null}
    </SectionPanel>
  );
}

