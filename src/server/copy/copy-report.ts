import {
  brokerRanking,
  copiedTrade,
  copyCostEur,
  currencyExposure,
  linkCopies,
  periodGrowth,
  type CopiedTrade,
  type CopyTrade,
} from '#shared/analytics/copy-quality.ts';
import { maxDrawdownFromGrowth } from '#shared/analytics/drawdown.ts';
import { marginLevel } from '#shared/analytics/margin.ts';
import { growthSeries } from '#shared/analytics/performance.ts';
import { mean } from '#shared/analytics/stats.ts';
import type { BridgeHealth, CopyReportResponse, FollowerQuality, MissReason } from '#shared/contract/copy.ts';

type BridgeHealthState = BridgeHealth['state'];
import { periodStart, type Period } from '#shared/domain/constants.ts';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import { allRules } from '#server/db/copy-rules-repo.ts';
import { activeRelations, type Relation } from '#server/db/copy-relations-repo.ts';
import {
  commandOutcomes,
  copyEventsSince,
  firstDealAt,
  ledgerSince,
  riskLimits,
  tradesOpenedSince,
} from '#server/db/copy-repo.ts';
import type { Queryable } from '#server/db/database.ts';
import type { AccountContact, LiveAccount, MarketSnapshot } from '#server/broker/port.ts';

/** How each account's broker connection is doing (the broker stack's contact: src/server/plugins/broker-stack.ts). */
export type ContactOf = (accountIds: readonly number[]) => Promise<Map<number, AccountContact>>;
import { inScope, type Scope } from '#server/auth/scope.ts';

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const list = groups.get(key(item));
    if (list) list.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

/** The most recent copied trades and misses a follower's card lists (the figures count them all). */
const LISTED = 50;
const LIVE_S = 60;
/** A miss the copy engine recorded is matched to a master trade opened this close to it [ours]. */
const RECORD_WINDOW_S = 300;
const SILENT_S = 600;

/** A figure, or null where it cannot be computed (the response schema rounds it: src/shared/contract/copy.ts). */
const orNull = (x: number | null) => (x === null || !Number.isFinite(x) ? null : x);
/** The sum in EUR, or null when any part has no rate (a partial sum would understate the cost). */
const sumOrNull = (xs: readonly (number | null)[]) => (xs.some((x) => x === null) ? null : orNull(xs.reduce<number>((s, x) => s + x!, 0)));

/** A statement-fed account is up while its broker's statements keep arriving: a weekend and a day between two [ours]. */
const STATEMENT_S = 4 * 86_400;

function healthOf(a: LiveAccount, nowS: number, contact: Map<number, AccountContact>, outcomes: Map<number, { done: number; failed: number }>) {
  const age = Math.max(0, Math.round(nowS - a.last_update));
  const c = contact.get(a.id) ?? { feed: 'terminal', lastSeen: null };
  const seen = c.lastSeen ?? null;
  // A terminal is up by its last report, an account fed by statements by the last one booked; an
  // account of a simulated feed (no contact to tell) always is, and says so.
  const state: BridgeHealthState = c.lastSeen === undefined
    ? (c.feed === 'terminal' ? 'offline' : c.feed)
    : seen === null
      ? 'offline'
      : c.feed === 'statement'
        ? nowS - seen <= STATEMENT_S ? 'statement' : 'offline'
        : nowS - seen <= LIVE_S ? 'live' : nowS - seen <= SILENT_S ? 'silent' : 'offline';
  const o = outcomes.get(a.id);
  const answered = o ? o.done + o.failed : 0;
  return {
    account_id: a.account_id,
    account_name: a.account_name,
    broker_name: a.broker.broker_name,
    last_update_age_s: age,
    state,
    command_success_pct: o && answered > 0 ? orNull((o.done / answered) * 100) : null,
  } as const;
}

/**
 * The Copy screen's report for the accounts of one scope: per follower (copies, misses with their
 * reason, duplicates, manual trades, slippage, delay, cost, tracking difference), per broker, the
 * bridge's health, risk thresholds and the net currency exposure. Reads the books and the copy
 * events; the figures are the pure functions of copy-quality.ts.
 */
export async function copyReport(
  q: Queryable,
  snapshot: MarketSnapshot,
  scope: Scope,
  portfolio: Portfolio | undefined,
  period: Period,
  nowMs: number,
  contactOf: ContactOf,
): Promise<CopyReportResponse['data']> {
  // periodStart answers epoch seconds (the start_date of the account screens).
  const from = periodStart(period, nowMs) ?? null;
  const fromS = from ?? 0;
  const nowS = nowMs / 1000;
  const accounts = [...snapshot.accounts.values()].filter((a) => inScope(a.teiko_category, scope)).sort((a, b) => a.id - b.id);
  // Followers are the accounts with a relation in force (the database's, not the market's copy of it).
  const relationOf = new Map((await activeRelations(q)).map((r) => [r.followerId, r]));
  const followers = accounts.filter((a) => relationOf.has(a.id));
  const masterIds = new Set(followers.map((f) => relationOf.get(f.id)!.masterId));
  const masters = new Map([...snapshot.accounts.values()].filter((a) => masterIds.has(a.id)).map((a) => [a.id, a]));
  const ids = [...new Set([...accounts.map((a) => a.id), ...masterIds])];

  const [trades, events, ledger, firsts, rules, seen, outcomes] = await Promise.all([
    tradesOpenedSince(q, ids, fromS),
    copyEventsSince(q, scope, fromS),
    ledgerSince(q, ids, fromS),
    firstDealAt(q, ids),
    allRules(q),
    contactOf(ids),
    commandOutcomes(q, ids, fromS),
  ]);
  const tradesOf = groupBy(trades, (t) => t.accountId);
  const eventsOf = groupBy(events, (e) => e.followerAccountId);
  const allowed = new Map(rules.map((r) => [r.master_id, new Set(r.allowed_pairs)]));
  const growthOf = (id: number) => periodGrowth(ledger.entries.get(id) ?? [], ledger.opening.get(id) ?? 0);

  const rankingRows: { broker_name: string; trade: CopiedTrade }[] = [];
  const report: FollowerQuality[] = followers.map((f) => {
    const relation: Relation = relationOf.get(f.id)!;
    const master = masters.get(relation.masterId);
    // A master outside the caller's portfolios is not named, nor its growth shown (as any account there).
    const masterVisible = master !== undefined && inScope(master.teiko_category, scope);
    const base = {
      account_id: f.account_id,
      account_name: f.account_name,
      broker_name: f.broker.broker_name,
      currency: f.currency,
      relation_id: relation.id,
      sizing: relation.terms.sizing,
      max_lot: relation.terms.maxLot,
      copy_ratio: relation.terms.sizing.mode === 'ratio' ? relation.terms.sizing.ratio : null,
      equity_stop: relation.equityStop,
      equity_stopped: relation.equityStoppedAt !== null,
    };
    if (!master) {
      return {
        ...base, is_copy: false, master: null, copied: 0, inferred_links: 0, missed: 0, missed_by_reason: [], duplicates: 0, manual: 0,
        avg_entry_slippage_pips: null, avg_slippage_cost_eur: null, avg_delay_ms: null, worst_delay_ms: null, cost_eur: null,
        follower_growth: null, master_growth: null, tracking_difference: null, trades: [], misses: [],
      };
    }
    const ctx = { currency: f.currency, masterCurrency: master.currency, terms: relation.terms, rates: snapshot.rates };
    // Master trades are the follower's to copy from its relation's start (and its first deal) on.
    const since = Math.max(fromS, firsts.get(f.id) ?? Infinity, relation.startedAt);
    const linked = linkCopies(tradesOf.get(master.id) ?? [], tradesOf.get(f.id) ?? [], since);
    const copied = linked.links.map((l) => copiedTrade(l, ctx));
    for (const t of copied) rankingRows.push({ broker_name: f.broker.broker_name, trade: t });

    // Misses: what the copy engine and the terminals recorded, and master trades that closed with no
    // copy and no record (their reason inferred: a pair the rule does not allow, else unknown).
    const recorded = (eventsOf.get(f.id) ?? []).filter((e) => e.kind === 'missed');
    const duplicatesRecorded = (eventsOf.get(f.id) ?? []).filter((e) => e.kind === 'duplicate').length;
    // A recorded miss stands for its master trade: the same position, or (a terminal's deals carry no
    // position of ours) the same symbol and side opened within RECORD_WINDOW_S of the record.
    const isRecorded = (m: CopyTrade) =>
      recorded.some((e) => (m.positionId !== null && e.masterPositionId === m.positionId) || (e.symbol === m.symbol && e.type === m.type && Math.abs(e.at - m.openedAt) <= RECORD_WINDOW_S));
    const misses = [
      ...recorded.map((e) => ({ at: e.at, symbol: e.symbol, type: e.type, reason: e.reason as MissReason, message: e.message, inferred: false })),
      ...linked.uncopied
        .filter((m) => !isRecorded(m))
        .map((m) => ({
          at: m.openedAt,
          symbol: m.symbol,
          type: m.type,
          reason: inferredReason(allowed.get(master.id), m.symbol),
          message: null,
          inferred: true,
        })),
    ].sort((a, b) => b.at - a.at);
    const byReason = new Map<MissReason, number>();
    for (const m of misses) byReason.set(m.reason, (byReason.get(m.reason) ?? 0) + 1);
    const fx = copied.filter((t) => t.category === 'Forex').map((t) => t.entry_slippage);
    const delays = copied.map((t) => t.delay_ms);
    const followerGrowth = growthOf(f.id);
    const masterGrowth = growthOf(master.id);
    return {
      ...base,
      is_copy: true,
      master: masterVisible ? { account_id: master.account_id, account_name: master.account_name } : null,
      copied: copied.length,
      inferred_links: copied.filter((t) => t.inferred).length,
      missed: misses.length,
      missed_by_reason: [...byReason].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count),
      duplicates: Math.max(linked.duplicates.length, duplicatesRecorded),
      manual: linked.manual.length,
      avg_entry_slippage_pips: orNull(mean(fx)),
      avg_slippage_cost_eur: orNull(mean(copied.map((t) => t.slippage_cost_eur).filter((x): x is number => x !== null))),
      avg_delay_ms: orNull(mean(delays)),
      worst_delay_ms: delays.length ? Math.max(...delays) : null,
      cost_eur: sumOrNull(linked.links.map((l, i) => copyCostEur(l, ctx, copied[i]))),
      follower_growth: orNull(followerGrowth),
      master_growth: masterVisible ? orNull(masterGrowth) : null,
      tracking_difference: masterVisible ? orNull(followerGrowth - masterGrowth) : null,
      trades: copied.slice(-LISTED).reverse().map((t) => ({ ...t, slippage_cost: orNull(t.slippage_cost), slippage_cost_eur: orNull(t.slippage_cost_eur) })),
      misses: misses.slice(0, LISTED),
    };
  });

  const limits = portfolio ? (await riskLimits(q, [portfolio]))[0] : undefined;
  const breaches: CopyReportResponse['data']['breaches'] = [];
  for (const a of accounts) {
    const level = marginLevel(a.equity, a.margin);
    if (limits?.min_margin_level_pct != null && level !== null && level < limits.min_margin_level_pct) {
      breaches.push({ account_id: a.account_id, account_name: a.account_name, kind: 'margin_level', value: level, limit: limits.min_margin_level_pct });
    }
    const stop = relationOf.get(a.id)?.equityStop ?? null;
    if (stop !== null && a.equity <= stop) {
      breaches.push({ account_id: a.account_id, account_name: a.account_name, kind: 'equity_stop', value: a.equity, limit: stop, currency: a.currency });
    }
  }
  if (limits?.max_drawdown_pct != null) {
    for (const a of accounts) {
      const growth = growthSeries(ledger.entries.get(a.id) ?? [], ledger.opening.get(a.id) ?? 0);
      const dd = maxDrawdownFromGrowth(growth);
      if (dd > limits.max_drawdown_pct) {
        breaches.push({ account_id: a.account_id, account_name: a.account_name, kind: 'drawdown', value: dd, limit: limits.max_drawdown_pct });
      }
    }
  }

  const inScopeIds = new Set(accounts.map((a) => a.id));
  const exposure = currencyExposure(
    snapshot.positions
      .filter((p) => inScopeIds.has(p.account_id))
      .map((p) => ({ symbol: p.symbol, type: p.type, category: p.category, quantity: p.quantity, price: p.price_current })),
    snapshot.rates,
  ).map((e) => ({ currency: e.currency, exposure: e.exposure, exposure_eur: orNull(e.exposure_eur) }));

  return {
    period,
    from,
    followers: report,
    brokers: brokerRanking(rankingRows).map((b) => ({
      ...b,
      avg_entry_slippage_pips: orNull(b.avg_entry_slippage_pips),
      worst_entry_slippage_pips: orNull(b.worst_entry_slippage_pips),
      avg_slippage_cost_eur: orNull(b.avg_slippage_cost_eur),
      avg_delay_ms: orNull(b.avg_delay_ms),
    })),
    health: accounts.map((a) => healthOf(a, nowS, seen, outcomes)),
    exposure,
    limits: { max_drawdown_pct: limits?.max_drawdown_pct ?? null, min_margin_level_pct: limits?.min_margin_level_pct ?? null },
    breaches,
  };
}

/** Why a master trade with no copy and no record was missed: a pair its rule does not allow, else unknown. */
function inferredReason(allowed: ReadonlySet<string> | undefined, symbol: string): MissReason {
  return allowed?.has(symbol) ? 'unknown' : 'pair_not_allowed';
}

/** The bridge's health alone (Summary's strip): every account in scope, commands over the last month. */
export async function bridgeHealth(q: Queryable, snapshot: MarketSnapshot, scope: Scope, nowMs: number, contactOf: ContactOf) {
  const accounts = [...snapshot.accounts.values()].filter((a) => inScope(a.teiko_category, scope)).sort((a, b) => a.id - b.id);
  const ids = accounts.map((a) => a.id);
  const [seen, outcomes] = await Promise.all([contactOf(ids), commandOutcomes(q, ids, periodStart('1m', nowMs) ?? 0)]);
  return accounts.map((a) => healthOf(a, nowMs / 1000, seen, outcomes));
}

/** Growth of a follower and of its master over the period, for the chart. */
export async function copyGrowth(q: Queryable, follower: LiveAccount, master: LiveAccount, period: Period, nowMs: number) {
  const fromS = periodStart(period, nowMs) ?? 0;
  const ledger = await ledgerSince(q, [follower.id, master.id], fromS);
  const series = (id: number) =>
    growthSeries(ledger.entries.get(id) ?? [], ledger.opening.get(id) ?? 0).map((p) => ({ timestamp: p.timestamp, value: p.value }));
  return { account_name: follower.account_name, master_name: master.account_name, follower: series(follower.id), master: series(master.id) };
}
