import { cents } from '#shared/domain/money.ts';
import type { Database, Queryable } from '#server/db/database.ts';
import { countAccounts, insertAccount, insertBroker, writeBooks } from '#server/db/accounts-repo.ts';
import { insertAlerts } from '#server/db/alerts-repo.ts';
import type { NewAlert } from '#server/ledger/port.ts';
import { initBridgeState } from '#server/db/bridge-repo.ts';
import { insertRule } from '#server/db/copy-rules-repo.ts';
import { startRelationAt } from '#server/db/copy-relations-repo.ts';
import { insertDeals } from '#server/db/deals-repo.ts';
import { lockFirstStart, writeMarketState } from '#server/db/market-state-repo.ts';
import { insertNav } from '#server/db/nav-repo.ts';
import { addRebates, setProfitSharing } from '#server/db/rebates-repo.ts';
import { insertFees } from '#server/db/fees-repo.ts';
import type { FeeEntry } from '#shared/domain/fees.ts';
import { copyLot, lotUnitOf } from '#shared/domain/copy-lot.ts';
import { bookCashFlow, bookTrade, closeDay, endDay, openBook } from '#server/ledger/books.ts';
import type { Book, NavEntry, ProfitSharingEntry, RebateEntry } from '#server/ledger/port.ts';
import { isWeekend, rolloversBetween } from '#server/ledger/calendar.ts';
import { DAY_S, dayOf, monthOf } from '#shared/domain/days.ts';
import { marginAlertMessage, silenceAlertMessage } from '#server/ledger/rules.ts';
import type { ClosedTrade } from '#shared/domain/book-events.ts';
import type { Deal } from '#shared/domain/deal.ts';
import { INSTRUMENTS, type Instrument } from './instruments.ts';
import { PricePath } from './price-path.ts';
import { masterSize, Random } from './random.ts';
import { ACCOUNTS, BROKERS, INITIAL_RULES, type AccountSeed, type BrokerSeed } from './seed-data.ts';
import { commissionFor, entryPrice, exitPrice, feeFor, nightlySwap, pnlInCurrency, rebateFor } from './trading.ts';
import type { Side } from '#shared/domain/side.ts';

export interface HistoryOptions {
  seed: number;
  /** End of the generated history (epoch ms): the first start's clock. */
  now: number;
  /** Months of history before the current month. */
  months: number;
}

export interface HistoryResult {
  accounts: number;
  deals: number;
  navRows: number;
  rebateRows: number;
  alerts: number;
  firstDay: number;
}

interface Acct {
  seed: AccountSeed;
  id: number;
  broker: BrokerSeed;
  onboard: number;
  ratio: number;
  followers: Acct[];
}

/** A generated trade: what the broker reports when it closes, and its instrument for valuing it while open. */
interface Trade extends ClosedTrade {
  inst: Instrument;
  /** Generation order: deals written in one second keep it. */
  n: number;
}

function startOfMonthUtc(epochMs: number, monthsBack: number): number {
  const d = new Date(epochMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - monthsBack, 1) / 1000;
}

/** Has the database been given its brokers, accounts and history already? */
export async function hasHistory(db: Queryable): Promise<boolean> {
  return (await countAccounts(db)) > 0;
}

/**
 * First start: brokers, accounts, copy rules and months of history, deterministic from the seed. The
 * simulated brokers report trades and cash flows; the ledger's own rules (books.ts) turn them into
 * deals, balances, end-of-day NAV, monthly rebates, profit sharing and drawdown alerts, exactly as
 * they do for the live market. Written in one transaction so a crash leaves nothing half-made.
 * `alongside` runs first in the same transaction (the demo users). Instances starting together on
 * one PostgreSQL database take turns (an advisory lock); the later one finds the history there and
 * returns null.
 */
export async function generateHistory(
  db: Database,
  options: HistoryOptions,
  alongside?: (tx: Queryable) => Promise<void>,
): Promise<HistoryResult | null> {
  const rng = new Random(options.seed);
  const nowS = Math.floor(options.now / 1000);
  const start = startOfMonthUtc(options.now, options.months);
  const firstDay = dayOf(start);
  const today = dayOf(nowS);
  const path = new PricePath(firstDay, today, rng);

  return db.transaction(async (tx) => {
    await lockFirstStart(tx);
    if (await hasHistory(tx)) return null;
    await alongside?.(tx);
    // Brokers and accounts
    const brokerIds = new Map<string, number>();
    for (const b of BROKERS) {
      const id = await insertBroker(tx, {
        broker_name: b.broker_name,
        img_path: `/brokers/${b.slug}.svg`,
        spread_pips: b.spread_pips,
        latency_ms: b.latency_ms,
        commission_per_lot: b.commission_per_lot,
        rebate_per_lot: b.rebate_per_lot,
      });
      brokerIds.set(b.broker_name, id);
    }
    const accts: Acct[] = [];
    const byName = new Map<string, Acct>();
    let login = 5_100_000;
    for (const [i, a] of ACCOUNTS.entries()) {
      const broker = BROKERS.find((b) => b.broker_name === a.broker)!;
      const masterAcct = a.master ? byName.get(a.master) : undefined;
      login += 1_379 + i * 17;
      const serverNo = (i % 3) + 1;
      const ratio = masterAcct ? Number(((a.deposit / masterAcct.seed.deposit) * rng.range(0.85, 1.15)).toFixed(4)) : 1;
      const id = await insertAccount(tx, {
        account_id: `${broker.slug}-${login}`,
        account: String(login),
        account_name: a.account_name,
        broker_id: brokerIds.get(a.broker)!,
        server: `${broker.slug}-live-${serverNo}`,
        server_name: `${broker.broker_name} Live ${serverNo}`,
        teiko_category: a.category,
        currency: a.currency,
        is_master: !a.master,
        master_id: masterAcct?.id ?? null,
        copy_ratio: ratio,
        leverage: a.market === 'Forex' ? 100 : 5,
        ping: Math.round(broker.latency_ms * rng.range(0.6, 1.1)),
        last_update: nowS,
        source: 'simulated',
      });
      const acct: Acct = {
        seed: a,
        id,
        broker,
        onboard: masterAcct ? start + rng.int(0, 20) * DAY_S + 9 * 3600 : start + 8 * 3600,
        ratio,
        followers: [],
      };
      masterAcct?.followers.push(acct);
      // The follower has copied its master since it joined the history.
      if (masterAcct) await startRelationAt(tx, id, new Date(acct.onboard * 1000));
      accts.push(acct);
      byName.set(a.account_name, acct);
    }
    for (const [name, pairs] of Object.entries(INITIAL_RULES)) {
      const m = byName.get(name)!;
      await insertRule(tx, { master_id: m.id, market_type: m.seed.market, allowed_pairs: [...pairs] });
    }

    // Two maintenance windows in which the bridge was off and nothing was copied.
    const windows: [number, number][] = [0.35, 0.7].map((f) => {
      const from = start + Math.floor(((nowS - start) * f) / DAY_S) * DAY_S + 6 * 3600;
      return [from, from + rng.int(20, 30) * 3600];
    });
    const bridgeOff = (t: number) => windows.some(([a, b]) => t >= a && t < b);

    // Trades: masters trade, followers copy allowed symbols while the bridge is on.
    const trades: Trade[] = [];
    const lastClose = nowS - 15 * 60;
    for (const m of accts.filter((a) => !a.seed.master)) {
      const universe = INSTRUMENTS.filter((i) => i.category === m.seed.market);
      const allowed = new Set(INITIAL_RULES[m.seed.account_name] ?? []);
      for (let day = dayOf(m.onboard); day < today; day++) {
        if (isWeekend(day)) continue;
        const count = m.seed.market === 'Forex' ? rng.int(1, 4) : rng.int(0, 3);
        for (let k = 0; k < count; k++) {
          const inst = rng.pick(universe);
          const dayStart = day * DAY_S;
          const openT = Math.floor(
            inst.category === 'Forex' ? dayStart + rng.range(1, 20) * 3600 : dayStart + rng.range(14.5, 19.5) * 3600,
          );
          const closeT = Math.floor(
            inst.category === 'Forex'
              ? openT + rng.range(0.5, 30) * 3600
              : Math.min(openT + rng.range(0.25, 6) * 3600, dayStart + 21 * 3600),
          );
          if (closeT > lastClose || openT < m.onboard) continue;
          const midOpen = path.at(inst.symbol, openT, rng, inst.digits);
          const midClose = path.at(inst.symbol, closeT, rng, inst.digits);
          const natural: Side = midClose >= midOpen ? 'Buy' : 'Sell';
          // Masters worth copying: a modest edge (about 56 % of trades go their way).
          const type: Side = rng.chance(0.56) ? natural : natural === 'Buy' ? 'Sell' : 'Buy';
          const sigmaHold = inst.vol * Math.sqrt((closeT - openT) / (252 * DAY_S)) * midOpen;
          const low = Math.min(midOpen, midClose) - Math.abs(rng.normal()) * sigmaHold * 0.6;
          const high = Math.max(midOpen, midClose) + Math.abs(rng.normal()) * sigmaHold * 0.6;
          const baseQty = masterSize(rng, inst.category);
          const legs: { acct: Acct; qty: number }[] = [{ acct: m, qty: baseQty }];
          if (allowed.has(inst.symbol) && !bridgeOff(openT)) {
            for (const f of m.followers) {
              if (f.onboard > openT) continue;
              legs.push({ acct: f, qty: copyLot(baseQty, f.ratio, lotUnitOf(inst.symbol)) });
            }
          }
          for (const { acct, qty } of legs) {
            const mids = path.mids(dayOf(closeT));
            const cur = acct.seed.currency;
            const open = entryPrice(inst, midOpen, acct.broker, type, rng.normal() * 0.15);
            const close = exitPrice(inst, midClose, acct.broker, type);
            trades.push({
              accountId: acct.id,
              symbol: inst.symbol,
              type,
              category: inst.category,
              quantity: qty,
              openPrice: open,
              closePrice: close,
              openedAt: openT,
              closedAt: closeT + Math.floor(acct.broker.latency_ms / 1000),
              profit: cents(pnlInCurrency(inst, type, open, close, qty, cur, mids)),
              swap: cents(rolloversBetween(openT, closeT) * nightlySwap(inst, type, qty, open, cur, mids)),
              commission: cents(commissionFor(inst, acct.broker, qty, cur, mids)),
              fee: cents(feeFor(inst, qty, open, cur, mids)),
              rebate: cents(rebateFor(inst, acct.broker, qty, cur, mids)),
              low,
              high,
              execMs: Math.round(acct.broker.latency_ms * rng.range(0.7, 1.6) + (acct === m ? 0 : 15)),
              inst,
              n: trades.length,
            });
          }
        }
      }
    }

    // Per account, in time order, through the ledger's rules: cash flows, closed trades, day ends
    // (NAV, drawdown alerts) and month ends (profit sharing).
    const deals: (Deal & { n: number })[] = [];
    const navs: NavEntry[] = [];
    const rebates: RebateEntry[] = [];
    const sharing: ProfitSharingEntry[] = [];
    const fees: FeeEntry[] = [];
    const alerts: NewAlert[] = [];
    const books: Book[] = [];
    const tradesByAccount = new Map<number, Trade[]>();
    for (const t of trades) {
      const list = tradesByAccount.get(t.accountId) ?? [];
      list.push(t);
      tradesByAccount.set(t.accountId, list);
    }

    for (const acct of accts) {
      const closing = (tradesByAccount.get(acct.id) ?? []).sort((a, b) => a.closedAt - b.closedAt);
      const byOpen = [...closing].sort((a, b) => a.openedAt - b.openedAt);
      const cur = acct.seed.currency;
      let book = openBook(acct.id, acct.seed.account_name, acct.seed.category, acct.seed.currency);
      let nextFlow = acct.onboard + rng.int(40, 110) * DAY_S;
      let ti = 0;
      let openPtr = 0;
      const active = new Set<Trade>();

      const flow = (at: number, amount: number, rebalancing: boolean) => {
        const step = bookCashFlow(book, { accountId: acct.id, at, amount, rebalancing });
        book = step.book;
        deals.push({ ...step.deal, n: trades.length + deals.length });
      };
      flow(acct.onboard, acct.seed.deposit, false);

      for (let day = dayOf(acct.onboard); day <= today; day++) {
        const dayEnd = Math.min((day + 1) * DAY_S, nowS);
        while (nextFlow < dayEnd) {
          const deposit = rng.chance(0.6);
          const amount = Math.round((book.balance * (deposit ? rng.range(0.05, 0.2) : -rng.range(0.05, 0.15))) / 100) * 100;
          if (amount !== 0) flow(nextFlow, amount, rng.chance(0.2));
          nextFlow += rng.int(40, 110) * DAY_S;
        }
        while (ti < closing.length && closing[ti]!.closedAt < dayEnd) {
          const t = closing[ti++]!;
          const step = bookTrade(book, t);
          book = step.book;
          deals.push({ ...step.deal, n: t.n });
          rebates.push(step.rebate);
        }
        while (openPtr < byOpen.length && byOpen[openPtr]!.openedAt < dayEnd) active.add(byOpen[openPtr++]!);
        let floating = 0;
        const mids = path.mids(day);
        for (const t of active) {
          if (t.closedAt < dayEnd) {
            active.delete(t);
            continue;
          }
          const mark = exitPrice(t.inst, path.close(t.symbol, day), acct.broker, t.type);
          floating += pnlInCurrency(t.inst, t.type, t.openPrice, mark, t.quantity, cur, mids);
        }
        const equity = cents(book.balance + floating);
        if (day === today) {
          const sofar = endDay(book, day, equity, dayEnd);
          book = sofar.book;
          if (sofar.alert) alerts.push(sofar.alert);
          // The month under way: its row exists from the start, with the balance so far.
          rebates.push({ accountId: acct.id, month: monthOf(day * DAY_S), lots: 0, rebate: 0, balance: book.balance });
        } else {
          const ended = closeDay(book, day, equity, dayEnd);
          book = ended.book;
          navs.push(ended.nav);
          if (ended.alert) alerts.push(ended.alert);
          if (ended.sharing) sharing.push(ended.sharing);
          fees.push(...ended.fees);
        }
      }
      books.push({ ...book, hwm: cents(book.hwm) });
    }

    // Operational alerts of the last weeks: margin level and silent accounts, and the bridge windows.
    for (let i = 0; i < 14; i++) {
      const acct = rng.pick(accts);
      const at = nowS - rng.int(1, 40) * DAY_S + rng.int(0, 86_000);
      alerts.push(
        rng.chance(0.5)
          ? { type: 'margin', message: marginAlertMessage(acct.seed.account_name, rng.int(118, 149)), at, accountId: acct.id }
          : {
              type: 'ping',
              message: silenceAlertMessage(acct.seed.account_name, rng.int(3, 12), acct.broker.broker_name),
              at,
              accountId: acct.id,
            },
      );
    }
    for (const [from, to] of windows) {
      alerts.push({ type: 'bridge', message: 'Data bridge stopped for maintenance: copying paused.', at: from, accountId: null });
      alerts.push({ type: 'bridge', message: 'Data bridge started: copying resumed.', at: to, accountId: null });
    }

    await insertDeals(tx, deals.sort((a, b) => a.at - b.at || a.n - b.n));
    await insertNav(tx, navs);
    await addRebates(tx, rebates);
    await setProfitSharing(tx, sharing);
    await insertFees(tx, fees);
    await insertAlerts(tx, alerts);
    await writeBooks(tx, books, new Map(books.map((b) => [b.accountId, b.balance])));
    await initBridgeState(tx, true, windows[1]![1]);
    await writeMarketState(tx, 'history', { seed: options.seed, generated_at: options.now, first_day: firstDay, rng: rng.seedState });
    return {
      accounts: accts.length,
      deals: deals.length,
      navRows: navs.length,
      rebateRows: new Set([...rebates, ...sharing].map((r) => `${r.accountId}|${r.month}`)).size,
      alerts: alerts.length,
      firstDay,
    };
  });
}
