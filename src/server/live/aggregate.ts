import { aggregateBreakeven } from '#shared/analytics/breakeven.ts';
import type { Position } from '#shared/contract/positions.ts';
import { finiteOrZero } from '#shared/analytics/stats.ts';
import { roundTo } from '#shared/domain/money.ts';
import { convert } from '#shared/domain/fx.ts';
import type { LiveAccount, LivePosition, MarketSnapshot } from '#server/broker/port.ts';

export interface ExcursionCache {
  get(symbol: string): { avg_mae: number | null; median_mae: number | null; avg_mfe: number | null; median_mfe: number | null } | undefined;
}

export type GroupBy = 'symbol' | 'account' | 'broker';

const finiteOrNull = (x: number | null | undefined): number | null => (x !== null && x !== undefined && Number.isFinite(x) ? x : null);

/**
 * Rows of a live feed: the positions given, grouped per symbol and direction (and per account or broker),
 * with VWAP open price, breakeven (docs/figures.md B1) and EUR totals (`fee_currency` the fees, `commission_currency`
 * the commission). NaN and Infinity become null here, before anything is serialised.
 */
export function aggregatePositions(
  snapshot: MarketSnapshot,
  positions: readonly LivePosition[],
  groupBy: GroupBy,
  excursions: ExcursionCache,
): Position[] {
  const groups = new Map<string, { legs: LivePosition[]; accounts: LiveAccount[] }>();
  for (const p of positions) {
    const acct = snapshot.accounts.get(p.account_id);
    if (!acct) continue;
    const owner = groupBy === 'account' ? `a${acct.id}` : groupBy === 'broker' ? `b${acct.broker.id}` : '';
    const key = `${p.symbol}|${p.type}|${owner}`;
    const g = groups.get(key) ?? { legs: [], accounts: [] };
    g.legs.push(p);
    g.accounts.push(acct);
    groups.set(key, g);
  }
  const rates = snapshot.rates;
  // A currency without a rate yet (a terminal that sends no quotes) is shown unconverted: the feed's
  // money fields cannot be null (docs/decisions/0013-eur-conversion-missing-rate.md).
  const convertAmount = (amount: number, from: string, to: string) => convert(amount, from, to, rates, 'unconverted');
  const eur = (amount: number, currency: string) => convertAmount(amount, currency, 'EUR');
  const rows: Position[] = [];
  for (const { legs, accounts } of groups.values()) {
    const first = legs[0]!;
    const a0 = accounts[0]!;
    const inst = snapshot.instruments.get(first.symbol);
    if (!inst) continue;
    const lots = legs.reduce((s, p) => s + p.quantity, 0);
    const currencies = new Set(accounts.map((a) => a.currency));
    const currency = currencies.size === 1 ? a0.currency : 'EUR';
    const inRowCurrency = (amount: number, from: string) => convertAmount(amount, from, currency);
    const profit = legs.reduce((s, p, i) => s + inRowCurrency(p.profit, accounts[i]!.currency), 0);
    const profitEur = legs.reduce((s, p, i) => s + eur(p.profit, accounts[i]!.currency), 0);
    const feeEur = legs.reduce((s, p, i) => s + eur(p.fee, accounts[i]!.currency), 0);
    const commissionEur = legs.reduce((s, p, i) => s + eur(p.commission, accounts[i]!.currency), 0);
    const swapEur = legs.reduce((s, p, i) => s + eur(p.swap, accounts[i]!.currency), 0);
    const be = aggregateBreakeven(
      first.type,
      legs.map((p, i) => ({
        lots: p.quantity,
        openPrice: p.price_open,
        costsQuote: convertAmount(p.commission + p.fee + p.swap, accounts[i]!.currency, inst.quote),
      })),
      inst.contract,
    );
    const vwap = be?.vwap ?? first.price_open;
    const sameAccount = new Set(accounts.map((a) => a.id)).size === 1;
    const sameBroker = new Set(accounts.map((a) => a.broker.id)).size === 1;
    const names = [...new Set(accounts.map((a) => a.account_name))];
    const ex = excursions.get(first.symbol);
    const durations = legs.map((p) => p.exec_duration_ms);
    const sl = legs.every((p) => p.sl === first.sl) ? first.sl : null;
    const tp = legs.every((p) => p.tp === first.tp) ? first.tp : null;
    rows.push({
      account_name: sameAccount ? a0.account_name : `${names.length} accounts`,
      account_nameBis: names.join(', '),
      u_symbol: first.symbol,
      type: first.type,
      category: inst.category,
      teiko_category: new Set(accounts.map((a) => a.teiko_category)).size === 1 ? a0.teiko_category : 'mixed',
      time: Math.min(...legs.map((p) => p.opened_at)),
      price_open: roundTo(vwap, inst.digits + 1),
      price_current: roundTo(legs.reduce((s, p) => s + p.price_current * p.quantity, 0) / lots, inst.digits + 1),
      // Money and lots are rounded where the row is serialised (the Position schema).
      quantity: finiteOrZero(lots),
      quantity_currency: finiteOrZero(eur(lots * inst.contract * vwap, inst.quote)),
      profit: finiteOrZero(profit),
      profit_currency: finiteOrZero(profitEur),
      fee_currency: finiteOrZero(feeEur),
      commission_currency: finiteOrZero(commissionEur),
      swap_currency: finiteOrZero(swapEur),
      sl: finiteOrNull(sl),
      tp: finiteOrNull(tp),
      breakeven: finiteOrNull(be?.breakeven),
      breakevenMax: finiteOrNull(be?.breakevenMax),
      breakevenMin: finiteOrNull(be?.breakevenMin),
      is_master: accounts.every((a) => a.is_master),
      equity_market: inst.exchange,
      broker_name: sameBroker ? a0.broker.broker_name : `${new Set(accounts.map((a) => a.broker.id)).size} brokers`,
      img_path: sameBroker ? a0.broker.img_path : '',
      server: sameAccount ? a0.server : '',
      server_name: sameAccount ? a0.server_name : '',
      login: sameAccount ? a0.account : '',
      currency,
      exec_duration_ms: finiteOrNull(durations.reduce((s, d) => s + d, 0) / durations.length),
      avgMae: finiteOrNull(ex?.avg_mae),
      medianMae: finiteOrNull(ex?.median_mae),
      avgMfe: finiteOrNull(ex?.avg_mfe),
      medianMfe: finiteOrNull(ex?.median_mfe),
      legs: legs.length,
      ...(legs.some((p) => p.as_of !== undefined) ? { as_of: Math.min(...legs.flatMap((p) => (p.as_of === undefined ? [] : [p.as_of]))) } : {}),
      ...(legs.some((p) => p.unconfirmed_since !== undefined)
        ? { unconfirmed_since: Math.min(...legs.flatMap((p) => (p.unconfirmed_since === undefined ? [] : [p.unconfirmed_since]))) }
        : {}),
    });
  }
  return rows.sort((a, b) => a.u_symbol.localeCompare(b.u_symbol) || a.type.localeCompare(b.type) || a.account_name.localeCompare(b.account_name));
}
