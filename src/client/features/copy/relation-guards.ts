import { useQueries } from '@tanstack/react-query';
import type { Account } from '#shared/contract/accounts.ts';
import type { CopyRelation } from '#shared/contract/copy-relations.ts';
import type { Guard } from '#shared/contract/guards.ts';
import { guardQueries } from '#client/api/queries/guards.ts';
import type { GuardChoice } from './guard-form-values.ts';
import { isEquityStop } from './guard-labels.ts';

/** What a guard set from a follower's row may apply to: the relation, or every relation into the follower. */
export function followerChoices(r: CopyRelation): [GuardChoice, GuardChoice] {
  return [
    { ref: { scope: 'relation', target: r.id }, label: 'This relation', hint: `Copies of ${r.master.account_name} into ${r.follower.account_name}, measured on the follower's equity.`, currency: r.follower.currency },
    { ref: { scope: 'follower', target: r.follower.account_id }, label: 'The follower', hint: `Every relation into ${r.follower.account_name}, measured on its equity.`, currency: r.follower.currency },
  ];
}

/** A master guard: every follower of the master, measured on the master's own equity. */
export function masterChoices(m: Account): [GuardChoice] {
  return [{ ref: { scope: 'master', target: m.account_id }, label: 'The master', hint: `Every follower of ${m.account_name} stops as set when the master's own equity falls.`, currency: m.currency }];
}

/** A master's own guards (master scope). */
export const guardsOfMaster = (guards: readonly Guard[], m: Pick<Account, 'account_id'>): Guard[] =>
  guards.filter((g) => g.scope === 'master' && g.account?.account_id === m.account_id);

/**
 * A relation's badges: its guards and its follower's. Its equity stop is on its line already ('stop
 * …', set in the relation's form): no badge of its own.
 */
export const guardsOfRelation = (guards: readonly Guard[], r: CopyRelation): Guard[] =>
  guards.filter((g) => (g.scope === 'relation' && g.relation?.id === r.id && !isEquityStop(g)) || (g.scope === 'follower' && g.account?.account_id === r.follower.account_id));

/**
 * The guards of the accounts on the panel, read per account and taken once each: each follower's
 * (its own, its relations', its master's), and each master's without followers (shown to write users,
 * to add a guard).
 */
export function useRelationGuards(relations: readonly CopyRelation[], masters: readonly Account[]) {
  const lone = masters.filter((m) => !relations.some((r) => r.master.account_id === m.account_id)).map((m) => m.account_id);
  const ids = [...new Set([...relations.map((r) => r.follower.account_id), ...lone])];
  return useQueries({
    queries: ids.map((id) => guardQueries.ofAccount(id)),
    combine: (results) => {
      const byId = new Map<number, Guard>();
      for (const r of results) for (const g of r.data ?? []) byId.set(g.id, g);
      return { guards: [...byId.values()], error: results.find((r) => r.error)?.error ?? null };
    },
  });
}
