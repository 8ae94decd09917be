import { excursionStats, toPips, type ExcursionStats } from '#shared/analytics/excursions.ts';
import type { Queryable } from '#server/db/database.ts';

const MAX_AGE_MS = 60_000;

/** MAE/MFE in pips per symbol over all closed trades, recomputed at most once a minute. */
export class ExcursionCache {
  private stats = new Map<string, ExcursionStats & { count: number }>();
  private loadedAt = -Infinity;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly now: () => number,
  ) {}

  get(symbol: string): (ExcursionStats & { count: number }) | undefined {
    return this.stats.get(symbol);
  }

  async refresh(force = false): Promise<void> {
    if (!force && this.now() - this.loadedAt < MAX_AGE_MS) return;
    this.loading ??= (async () => {
      const rows = await this.db.query<{ symbol: string; mae: number; mfe: number }>(
        "SELECT symbol, mae, mfe FROM deals WHERE kind = 'trade' AND mae IS NOT NULL AND mfe IS NOT NULL",
      );
      const bySymbol = new Map<string, { mae: number; mfe: number }[]>();
      for (const r of rows) {
        const list = bySymbol.get(r.symbol) ?? [];
        list.push({ mae: toPips(r.mae, r.symbol), mfe: toPips(r.mfe, r.symbol) });
        bySymbol.set(r.symbol, list);
      }
      this.stats = new Map([...bySymbol].map(([s, items]) => [s, { ...excursionStats(items), count: items.length }]));
      this.loadedAt = this.now();
    })().finally(() => {
      this.loading = undefined;
    });
    await this.loading;
  }
}
