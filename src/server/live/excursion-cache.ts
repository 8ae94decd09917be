import { excursionStats, toPips, type ExcursionStats } from '#shared/analytics/excursions.ts';
import type { Queryable } from '#server/db/database.ts';
import { excursionRows, tradedSymbols } from '#server/db/deals-repo.ts';

const MAX_AGE_MS = 60_000;
/** A symbol not known yet is looked for again at most this often (it may have been traded since the last load). */
const UNKNOWN_RETRY_MS = 5_000;

type Item = { mae: number; mfe: number };

/**
 * MAE/MFE in pips per symbol over the closed trades of the accounts a caller may see (a set of
 * account categories), reloaded once a minute (sooner for a symbol not known yet); each scope's
 * figures are computed once per load.
 */
export class ExcursionCache {
  /** symbol → account category → items. */
  private items = new Map<string, Map<string, Item[]>>();
  /** Every symbol a closed trade was booked in, with excursions or not (a terminal's trades carry none). */
  private traded = new Set<string>();
  private computed = new Map<string, (ExcursionStats & { count: number }) | undefined>();
  private loadedAt = -Infinity;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly now: () => number,
  ) {}

  /**
   * Has any account traded this symbol? Known as of the last load; a symbol not known then makes
   * a new load if the last one is older than UNKNOWN_RETRY_MS (whatever names a caller tries, the
   * deals are read again at most that often).
   */
  async has(symbol: string): Promise<boolean> {
    if (this.traded.has(symbol)) return true;
    if (this.now() - this.loadedAt >= UNKNOWN_RETRY_MS) await this.refresh(true);
    return this.traded.has(symbol);
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
      const [rows, forex, equities] = await Promise.all([excursionRows(this.db), tradedSymbols(this.db, 'Forex'), tradedSymbols(this.db, 'Equities')]);
      const items = new Map<string, Map<string, Item[]>>();
      for (const r of rows) {
        const byCategory = items.get(r.symbol) ?? new Map<string, Item[]>();
        const list = byCategory.get(r.teiko_category) ?? [];
        list.push({ mae: toPips(r.mae, r.symbol), mfe: toPips(r.mfe, r.symbol) });
        byCategory.set(r.teiko_category, list);
        items.set(r.symbol, byCategory);
      }
      this.items = items;
      this.traded = new Set([...forex, ...equities, ...items.keys()]);
      this.computed = new Map();
      this.loadedAt = this.now();
    })().finally(() => {
      this.loading = undefined;
    });
    await this.loading;
  }
}
