import { excursionStats, toPips, type ExcursionStats } from '#shared/analytics/excursions.ts';
import type { Queryable } from '#server/db/database.ts';
import { excursionRows } from '#server/db/deals-repo.ts';

const MAX_AGE_MS = 60_000;

type Item = { mae: number; mfe: number };

/**
 * MAE/MFE in pips per symbol over the closed trades of the accounts a caller may see (a set of
 * account categories), reloaded at most once a minute; each scope's figures are computed once per load.
 */
export class ExcursionCache {
  /** symbol → account category → items. */
  private items = new Map<string, Map<string, Item[]>>();
  private computed = new Map<string, (ExcursionStats & { count: number }) | undefined>();
  private loadedAt = -Infinity;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly now: () => number,
  ) {}

  /** Has any account traded this symbol (as of the last load)? */
  has(symbol: string): boolean {
    return this.items.has(symbol);
  }

  /** The figures of a symbol over the trades of accounts in these categories. */
  get(symbol: string, categories: readonly string[]): (ExcursionStats & { count: number }) | undefined {
    const key = `${symbol}|${categories.join(',')}`;
    if (this.computed.has(key)) return this.computed.get(key);
    const bySymbol = this.items.get(symbol);
    const items = bySymbol ? categories.flatMap((c) => bySymbol.get(c) ?? []) : [];
    const stats = items.length ? { ...excursionStats(items), count: items.length } : undefined;
    this.computed.set(key, stats);
    return stats;
  }

  async refresh(force = false): Promise<void> {
    if (!force && this.now() - this.loadedAt < MAX_AGE_MS) return;
    this.loading ??= (async () => {
      const rows = await excursionRows(this.db);
      const items = new Map<string, Map<string, Item[]>>();
      for (const r of rows) {
        const byCategory = items.get(r.symbol) ?? new Map<string, Item[]>();
        const list = byCategory.get(r.teiko_category) ?? [];
        list.push({ mae: toPips(r.mae, r.symbol), mfe: toPips(r.mfe, r.symbol) });
        byCategory.set(r.teiko_category, list);
        items.set(r.symbol, byCategory);
      }
      this.items = items;
      this.computed = new Map();
      this.loadedAt = this.now();
    })().finally(() => {
      this.loading = undefined;
    });
    await this.loading;
  }
}
