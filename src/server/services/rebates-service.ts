import { portfolioOfCategory, type RebatePortfolio } from '#shared/domain/portfolios.ts';
import type { SessionUser } from '#server/auth/auth-store.ts';
import { scopeFor } from '#server/auth/scope.ts';
import type { Database } from '#server/db/database.ts';
import { listRebates } from '#server/db/rebates-repo.ts';
import type { CachedRead } from './cached-read.ts';

/**
 * The rebates page: one row per account and month ('YYYY-MM'), or per broker, currency and month
 * (account = broker name, login empty). 'All' covers every portfolio the caller is authorised for.
 */
export class RebatesService {
  constructor(private readonly db: Database) {}

  /** Rebate rows change only with the ledger's writes: made once per generation, scope and grouping. */
  rebates(user: SessionUser, portfolio: RebatePortfolio | undefined, groupBy: 'account' | 'broker') {
    const scope = scopeFor(user, portfolio);
    return {
      key: JSON.stringify(['stats/rebates', scope.categories, groupBy]),
      compute: async () => {
        const rows = await listRebates(this.db, scope, groupBy === 'broker');
        return {
          data: rows.map(({ category, ...r }) => ({ ...r, portfolio_category: portfolioOfCategory(category) ?? category })),
        };
      },
    } satisfies CachedRead<unknown>;
  }
}
