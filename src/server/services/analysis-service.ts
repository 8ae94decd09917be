import { tradeAnalysis } from '#shared/analytics/trade-analysis.ts';
import type { SessionUser } from '#server/auth/auth-store.ts';
import { callerScope } from '#server/auth/scope.ts';
import { utcOffsetOfAccount } from '#server/db/agents-repo.ts';
import type { Database } from '#server/db/database.ts';
import { dealEntriesOf } from '#server/db/deals-repo.ts';
import { findAccount } from './account-lookup.ts';
import type { CachedRead } from './cached-read.ts';

/**
 * GET /api/stats/analysis: the analysis of one account's closed trades (src/shared/analytics/trade-analysis.ts,
 * docs/figures.md), for an account of the caller's portfolios (another answers as an unknown one, 404).
 * Figures go out as computed: the response schema rounds them.
 */
export class AnalysisService {
  constructor(private readonly db: Database) {}

  analysis(user: SessionUser, query: { ref: string; utcOffsetMinutes: number | undefined }) {
    const { ref, utcOffsetMinutes } = query;
    return {
      // The account is looked up inside: the same reference means the same account for the same scope.
      key: JSON.stringify(['stats/analysis', callerScope(user).categories, ref, utcOffsetMinutes ?? null]),
      compute: async () => {
        const account = await findAccount(this.db, user, ref);
        const [deals, reported] = await Promise.all([
          dealEntriesOf(this.db, account.id),
          utcOffsetMinutes === undefined ? utcOffsetOfAccount(this.db, account.id) : null,
        ]);
        return { account: account.account_id, currency: account.currency, ...tradeAnalysis(deals, utcOffsetMinutes ?? reported ?? 0) };
      },
    } satisfies CachedRead<unknown>;
  }
}
