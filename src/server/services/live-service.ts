import type { WebSocket } from 'ws';
import { LIVE_CLOSE } from '#shared/contract/live.ts';
import { ambiguousAccountMessage, matchAccountRef } from '#shared/domain/account-ref.ts';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import type { SessionUser } from '#server/auth/auth-store.ts';
import { inScope, scopeFor } from '#server/auth/scope.ts';
import { Forbidden } from '#server/errors.ts';
import type { LiveHub, Subscription } from '#server/live/live-hub.ts';
import type { BrokerAdapter } from '#server/broker/port.ts';

/** Why a socket is closed instead of fed: its close code (src/shared/contract/live.ts) and reason. */
export interface Refusal {
  code: number;
  reason: string;
}

/** The one portfolio a feed shows (the same rule as every HTTP route's, in its 'one' form), or why not. */
function choosePortfolio(user: SessionUser, requested: Portfolio | undefined): Portfolio | Refusal {
  try {
    return scopeFor(user, requested, 'one').portfolios[0]!;
  } catch (err) {
    if (err instanceof Forbidden) return { code: LIVE_CLOSE.forbidden, reason: err.message };
    throw err;
  }
}

/** The query of the feed by account or broker, its portfolio parsed. */
export interface AggregateByQuery {
  portfolio: Portfolio | undefined;
  aggregate_by: 'account' | 'broker';
  account?: string | undefined;
  broker_name?: string | undefined;
}

/**
 * The live feeds (src/shared/contract/live.ts): which rows a signed-in user's socket gets, and its
 * place in the hub that pushes them. The socket's transport (budgets, close codes) is the route's.
 */
export class LiveService {
  constructor(
    private readonly hub: LiveHub,
    private readonly market: BrokerAdapter | null,
  ) {}

  /** The portfolio's positions by symbol; the refusal to close the socket with, if any. */
  openAggregate(socket: WebSocket, user: SessionUser, requested: Portfolio | undefined, deltas = false): Refusal | undefined {
    return this.open(socket, user, deltas, () => {
      const portfolio = choosePortfolio(user, requested);
      return typeof portfolio === 'string' ? { portfolio, groupBy: 'symbol' } : portfolio;
    });
  }

  /** The portfolio's positions by account (or one account's), or by broker (or one broker's, per account). */
  openAggregateBy(socket: WebSocket, user: SessionUser, q: AggregateByQuery, deltas = false): Refusal | undefined {
    return this.open(socket, user, deltas, (market) => {
      const portfolio = choosePortfolio(user, q.portfolio);
      if (typeof portfolio !== 'string') return portfolio;
      const snap = market.snapshot();
      if (q.aggregate_by === 'account') {
        if (q.account === undefined) return { portfolio, groupBy: 'account' };
        // Among the portfolio's accounts only: one outside it is answered exactly like an unknown one.
        const match = matchAccountRef(
          [...snap.accounts.values()].filter((a) => inScope(a.teiko_category, [portfolio])),
          q.account,
        );
        if ('ambiguous' in match) return { code: LIVE_CLOSE.notFound, reason: ambiguousAccountMessage(q.account, match.ambiguous) };
        if ('missing' in match) return { code: LIVE_CLOSE.notFound, reason: `Account not found: ${q.account}` };
        return { portfolio, groupBy: 'account', accountId: match.found.id };
      }
      if (q.broker_name === undefined) return { portfolio, groupBy: 'broker' };
      const known = [...snap.accounts.values()].some((a) => a.broker.broker_name === q.broker_name);
      if (!known) return { code: LIVE_CLOSE.notFound, reason: `Broker not found: ${q.broker_name}` };
      // One broker's live trades are listed per account (its Acc and Ser columns).
      return { portfolio, groupBy: 'account', brokerName: q.broker_name };
    });
  }

  /** A socket of deltas that missed one asks for the whole snapshot. */
  resync(socket: WebSocket): void {
    this.hub.resync(socket);
  }

  private open(socket: WebSocket, user: SessionUser, deltas: boolean, build: (market: BrokerAdapter) => Subscription | Refusal): Refusal | undefined {
    const market = this.market;
    if (!market) return { code: LIVE_CLOSE.unavailable, reason: 'The data bridge is not connected to any broker' };
    const sub = build(market);
    if ('code' in sub) return sub;
    this.hub.add(socket, sub, market.snapshot(), { userId: user.id, apiKeyId: user.apiKeyId }, deltas);
    return undefined;
  }
}
