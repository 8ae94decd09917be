import { NoTerminal } from '#server/broker/errors.ts';
import type { MissReason } from '#server/db/copy-repo.ts';

/** Why a copy order failed, from the adapter's refusal. */
export function missReasonOf(err: unknown): { reason: MissReason; message: string } {
  const message = err instanceof Error ? err.message : String(err);
  if (/margin/i.test(message)) return { reason: 'no_margin', message };
  if (err instanceof NoTerminal) return { reason: 'agent_offline', message };
  return { reason: 'rejected', message };
}

/** What a missed copy's alert says of its reason. */
export const MISS_TEXT: Record<MissReason, string> = {
  pair_not_allowed: 'the pair is not allowed by the copy rule',
  bridge_off: 'the data bridge was stopped',
  agent_offline: "the follower's terminal is not connected",
  server_down: 'no server was copying when it opened, and it opened too long ago to copy now',
  rejected: 'the order was rejected',
  expired: 'the terminal answered that the order had expired',
  unanswered: 'the terminal took the order and never answered',
  no_margin: 'not enough margin',
  equity_stop: "the follower's equity stop has fired",
  guard_close_only: 'a guard of the relation is in close-only: no new copies',
  guard_closed: 'a guard of the relation closed its copies: copying is disabled until it is re-armed',
  no_size: 'its size could not be computed (an equity in EUR is unknown or not positive)',
};


/**
 * Which missed copies call for an alert (and a push): the ones something went wrong for. A copy the
 * setup chose not to make — the pair outside the master's rule, the bridge stopped, a guard or an
 * equity stop holding copies back (each told once by its own alert) — is a record on the Copy screen,
 * not an alert per trade and follower.
 */
export function missCallsForAlert(reason: MissReason): boolean {
  switch (reason) {
    case 'pair_not_allowed':
    case 'bridge_off':
    case 'guard_close_only':
    case 'guard_closed':
    case 'equity_stop':
      return false;
    case 'agent_offline':
    case 'server_down':
    case 'rejected':
    case 'expired':
    case 'unanswered':
    case 'no_margin':
    case 'no_size':
      return true;
  }
}
