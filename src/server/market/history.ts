import { excursion } from '#shared/analytics/excursions.ts';
import { adjustHwmForCashFlow, settleProfitSharing } from '#shared/analytics/rebates.ts';
import type { Database, Queryable } from '#server/db/database.ts';
import { insertMany } from '#server/db/bulk.ts';
import { INSTRUMENTS, type Instrument } from './instruments.ts';
import { dayOf, DAY_S, isWeekend, PricePath } from './price-path.ts';
import { Random } from './random.ts';
import { ACCOUNTS, BROKERS, INITIAL_RULES, PROFIT_SHARING_RATE, type AccountSeed, type BrokerSeed } from './seed-data.ts';
import {
  cents,
  commissionFor,

  entryPrice,
  exitPrice,
  feeFor,
  nightlySwap,
  pnlInCurrency,
  rebateFor,
  type Side,
} from './trading.ts';

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

interface DealRow {
  account: Acct;
  kind: 'trade' | 'deposit' | 'withdrawal';
  symbol: string | null;
  type: Side | null;
  category: 'Forex' | 'Equities' | null;
  quantity: number;
  open_price: number | null;
  close_price: number | null;
  opened_at: number | null;
  datetime: number;
  amount: number;
  profit: number;
  swap: number;
  commission: number;
  fee: number;
  rebate: number;
  mae: number | null;
  mfe: number | null;
  exec_duration_ms: number | null;
  is_rebalancing: boolean;
  /** for equity: floating valuation while open */
  inst: Instrument | null;
}

const ROLLOVER_S = 22 * 3600;

function nightsHeld(openT: number, closeT: number): number {
  let n = 0;
  for (let d = dayOf(openT); d <= dayOf(closeT); d++) {
    const roll = d * DAY_S + ROLLOVER_S;
    if (roll > openT && roll <= closeT && !isWeekend(d)) n++;
  }
  return n;
}

function startOfMonthUtc(epochMs: number, monthsBack: number): number {
  const d = new Date(epochMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - monthsBack, 1) / 1000;
}

const monthKey = (epochSeconds: number): string => {
  const d = new Date(epochSeconds * 1000);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-01`;
};

/** Has the database been given its brokers, accounts and history already? */
export async function hasHistory(db: Queryable): Promise<boolean> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts');
  return (rows[0]?.n ?? 0) > 0;
}

/**
 * First start: brokers, accounts, copy rules and months of history (deals with costs and rebates,
 * cash flows, end-of-day NAV, monthly rebates and profit sharing, alerts), deterministic from the seed,
 * written in one transaction so a crash leaves nothing half-made. `alongside` runs first in the same
 * transaction (the demo users), so they too are written whole or not at all. Instances starting
 * together on one PostgreSQL database take turns (an advisory lock); the later one finds the history
 * there and returns null.
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
    await tx.query('SELECT pg_advisory_xact_lock(724302)');
    if (await hasHistory(tx)) return null;
    await alongside?.(tx);
    // Brokers and accounts
    const brokerIds = new Map<string, number>();
    for (const b of BROKERS) {
      const rows = await tx.query<{ id: number }>(
        `INSERT INTO brokers (broker_name, img_path, spread_pips, latency_ms, commission_per_lot, rebate_per_lot)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [b.broker_name, `/brokers/${b.slug}.svg`, b.spread_pips, b.latency_ms, b.commission_per_lot, b.rebate_per_lot],
      );
      brokerIds.set(b.broker_name, rows[0]!.id);
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
      const rows = await tx.query<{ id: number }>(
        `INSERT INTO accounts (account_id, account, account_name, broker_id, server, server_name, teiko_category,
           currency, is_master, master_id, copy_ratio, leverage, ping, last_update)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
        [
          `${broker.slug}-${login}`,
          String(login),
          a.account_name,
          brokerIds.get(a.broker),
          `${broker.slug}-live-${serverNo}`,
          `${broker.broker_name} Live ${serverNo}`,
          a.category,
          a.currency,
          !a.master,
          masterAcct?.id ?? null,
          ratio,
          a.market === 'Forex' ? 100 : 5,
          Math.round(broker.latency_ms * rng.range(0.6, 1.1)),
          new Date(options.now),
        ],
      );
      const acct: Acct = {
        seed: a,
        id: rows[0]!.id,
        broker,
        onboard: masterAcct ? start + rng.int(0, 20) * DAY_S + 9 * 3600 : start + 8 * 3600,
        ratio,
        followers: [],
      };
      masterAcct?.followers.push(acct);
      accts.push(acct);
      byName.set(a.account_name, acct);
    }
    for (const [name, pairs] of Object.entries(INITIAL_RULES)) {
      const m = byName.get(name)!;
      await tx.query('INSERT INTO copy_rules (master_id, market_type, allowed_pairs) VALUES ($1, $2, $3)', [
        m.id,
        m.seed.market,
        [...pairs],
      ]);
    }

    // Two maintenance windows in which the bridge was off and nothing was copied.
    const windows: [number, number][] = [0.35, 0.7].map((f) => {
      const from = start + Math.floor(((nowS - start) * f) / DAY_S) * DAY_S + 6 * 3600;
      return [from, from + rng.int(20, 30) * 3600];
    });
    const bridgeOff = (t: number) => windows.some(([a, b]) => t >= a && t < b);

    // Trades: masters trade, followers copy allowed symbols while the bridge is on.
    const deals: DealRow[] = [];
    const lastClose = nowS - 15 * 60;
    for (const m of accts.filter((a) => !a.seed.master)) {
      const universe = INSTRUMENTS.filter((i) => i.market === m.seed.market);
      const allowed = new Set(INITIAL_RULES[m.seed.account_name] ?? []);
      for (let day = dayOf(m.onboard); day < today; day++) {
        if (isWeekend(day)) continue;
        const count = m.seed.market === 'Forex' ? rng.int(1, 4) : rng.int(0, 3);
        for (let k = 0; k < count; k++) {
          const inst = rng.pick(universe);
          const dayStart = day * DAY_S;
          const openT = Math.floor(
            inst.market === 'Forex' ? dayStart + rng.range(1, 20) * 3600 : dayStart + rng.range(14.5, 19.5) * 3600,
          );
          const closeT = Math.floor(
            inst.market === 'Forex'
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
          const baseQty = inst.market === 'Forex' ? Number(rng.range(0.5, 3).toFixed(2)) : rng.int(50, 400);
          const legs: { acct: Acct; qty: number }[] = [{ acct: m, qty: baseQty }];
          if (allowed.has(inst.symbol) && !bridgeOff(openT)) {
            for (const f of m.followers) {
              if (f.onboard > openT) continue;
              const qty =
                inst.market === 'Forex'
                  ? Math.max(0.01, Number((baseQty * f.ratio).toFixed(2)))
                  : Math.max(1, Math.round(baseQty * f.ratio));
              legs.push({ acct: f, qty });
            }
          }
          for (const { acct, qty } of legs) {
            const mids = path.mids(dayOf(closeT));
            const cur = acct.seed.currency;
            const open = entryPrice(inst, midOpen, acct.broker, type, rng.normal() * 0.15);
            const close = exitPrice(inst, midClose, acct.broker, type);
            const ex = excursion(type, open, Math.min(low, open, close), Math.max(high, open, close));
            deals.push({
              account: acct,
              kind: 'trade',
              symbol: inst.symbol,
              type,
              category: inst.market,
              quantity: qty,
              open_price: open,
              close_price: close,
              opened_at: openT,
              datetime: closeT + Math.floor(acct.broker.latency_ms / 1000),
              amount: 0,
              profit: cents(pnlInCurrency(inst, type, open, close, qty, cur, mids)),
              swap: cents(nightsHeld(openT, closeT) * nightlySwap(inst, type, qty, open, cur, mids)),
              commission: cents(commissionFor(inst, acct.broker, qty, cur, mids)),
              fee: cents(feeFor(inst, qty, open, cur, mids)),
              rebate: cents(rebateFor(inst, acct.broker, qty, cur, mids)),
              mae: ex.mae,
              mfe: ex.mfe,
              exec_duration_ms: Math.round(acct.broker.latency_ms * rng.range(0.7, 1.6) + (acct === m ? 0 : 15)),
              is_rebalancing: false,
              inst,
            });
          }
        }
      }
    }

    // Per account, in time order: cash flows, balance, end-of-day NAV, monthly rebates and profit sharing.
    const navRows: unknown[][] = [];
    const rebateRows: unknown[][] = [];
    const alertRows: unknown[][] = [];
    const cashRows: DealRow[] = [];
    const finals = new Map<number, { balance: number; hwm: number }>();
    const dealsByAccount = new Map<number, DealRow[]>();
    for (const d of deals) {
      const list = dealsByAccount.get(d.account.id) ?? [];
      list.push(d);
      dealsByAccount.set(d.account.id, list);
    }

    for (const acct of accts) {
      const trades = (dealsByAccount.get(acct.id) ?? []).sort((a, b) => a.datetime - b.datetime);
      const byOpen = [...trades].sort((a, b) => (a.opened_at ?? 0) - (b.opened_at ?? 0));
      const cur = acct.seed.currency;
      const rate = PROFIT_SHARING_RATE[acct.seed.category];
      let balance = 0;
      let hwm = 0;
      let nextFlow = acct.onboard + rng.int(40, 110) * DAY_S;
      let ti = 0;
      let openPtr = 0;
      const active = new Set<DealRow>();
      let month = monthKey(acct.onboard);
      let monthLots = 0;
      let monthRebate = 0;
      let peak = 0;
      let inBreach = false;

      const flow = (t: number, amount: number, rebalancing: boolean) => {
        const row: DealRow = {
          account: acct,
          kind: amount >= 0 ? 'deposit' : 'withdrawal',
          symbol: null,
          type: null,
          category: null,
          quantity: 0,
          open_price: null,
          close_price: null,
          opened_at: null,
          datetime: t,
          amount: cents(amount),
          profit: 0,
          swap: 0,
          commission: 0,
          fee: 0,
          rebate: 0,
          mae: null,
          mfe: null,
          exec_duration_ms: null,
          is_rebalancing: rebalancing,
          inst: null,
        };
        cashRows.push(row);
        balance += row.amount;
        hwm = adjustHwmForCashFlow(hwm, row.amount);
        peak += row.amount;
      };
      flow(acct.onboard, acct.seed.deposit, false);

      for (let day = dayOf(acct.onboard); day <= today; day++) {
        const dayEnd = Math.min((day + 1) * DAY_S, nowS);
        while (nextFlow < dayEnd) {
          const deposit = rng.chance(0.6);
          const amount = Math.round((balance * (deposit ? rng.range(0.05, 0.2) : -rng.range(0.05, 0.15))) / 100) * 100;
          if (amount !== 0) flow(nextFlow, amount, rng.chance(0.2));
          nextFlow += rng.int(40, 110) * DAY_S;
        }
        while (ti < trades.length && trades[ti]!.datetime < dayEnd) {
          const d = trades[ti++]!;
          balance += d.profit + d.swap + d.commission + d.fee;
          monthLots += d.quantity;
          monthRebate += d.rebate;
        }
        while (openPtr < byOpen.length && (byOpen[openPtr]!.opened_at ?? 0) < dayEnd) active.add(byOpen[openPtr++]!);
        let floating = 0;
        const mids = path.mids(day);
        for (const d of active) {
          if (d.datetime < dayEnd) {
            active.delete(d);
            continue;
          }
          const inst = d.inst!;
          const mark = exitPrice(inst, path.close(inst.symbol, day), acct.broker, d.type!);
          floating += pnlInCurrency(inst, d.type!, d.open_price!, mark, d.quantity, cur, mids);
        }
        const equity = cents(balance + floating);
        const isToday = day === today;
        if (!isToday) navRows.push([acct.id, new Date(day * DAY_S * 1000), cents(balance), equity, new Date(dayEnd * 1000)]);

        // Drawdown breach alerts on equity against its peak (peak moved by cash flows, not by trading).
        peak = Math.max(peak, equity);
        const dd = peak > 0 ? ((peak - equity) / peak) * 100 : 0;
        if (!inBreach && dd >= 6) {
          inBreach = true;
          alertRows.push([
            'drawdown',
            `Drawdown breach on ${acct.seed.account_name}: equity ${dd.toFixed(1)} % below its peak.`,
            new Date(dayEnd * 1000 - 3600_000),
            acct.id,
          ]);
        } else if (inBreach && dd < 3) inBreach = false;

        const nextMonth = monthKey((day + 1) * DAY_S);
        if (nextMonth !== month || isToday) {
          let fee = 0;
          if (!isToday) {
            const settled = settleProfitSharing(rate, equity, hwm);
            fee = settled.fee;
            hwm = settled.hwm;
          }
          rebateRows.push([acct.id, month, Number(monthLots.toFixed(4)), cents(monthRebate), cents(fee), cents(balance)]);
          month = nextMonth;
          monthLots = 0;
          monthRebate = 0;
        }
      }
      finals.set(acct.id, { balance: cents(balance), hwm: cents(hwm) });
    }

    // Operational alerts of the last weeks: margin level and silent accounts, and the bridge windows.
    for (let i = 0; i < 14; i++) {
      const acct = rng.pick(accts);
      const t = nowS - rng.int(1, 40) * DAY_S + rng.int(0, 86_000);
      alertRows.push(
        rng.chance(0.5)
          ? ['margin', `Margin level on ${acct.seed.account_name} fell to ${rng.int(118, 149)} % (alert below 150 %).`, new Date(t * 1000), acct.id]
          : [
              'ping',
              `No update from ${acct.seed.account_name} for ${rng.int(3, 12)} minutes (${acct.broker.broker_name}).`,
              new Date(t * 1000),
              acct.id,
            ],
      );
    }
    for (const [from, to] of windows) {
      alertRows.push(['bridge', 'Data bridge stopped for maintenance: copying paused.', new Date(from * 1000), null]);
      alertRows.push(['bridge', 'Data bridge started: copying resumed.', new Date(to * 1000), null]);
    }

    const allDeals = [...deals, ...cashRows];
    await insertMany(
      tx,
      'deals',
      [
        'account_id', 'kind', 'symbol', 'type', 'category', 'quantity', 'open_price', 'close_price', 'opened_at',
        'datetime', 'amount', 'profit', 'swap', 'commission', 'fee', 'rebate', 'mae', 'mfe', 'exec_duration_ms',
        'is_rebalancing',
      ],
      allDeals
        .sort((a, b) => a.datetime - b.datetime)
        .map((d) => [
          d.account.id, d.kind, d.symbol, d.type, d.category, d.quantity, d.open_price, d.close_price,
          d.opened_at === null ? null : new Date(d.opened_at * 1000), new Date(d.datetime * 1000), d.amount, d.profit,
          d.swap, d.commission, d.fee, d.rebate, d.mae, d.mfe, d.exec_duration_ms, d.is_rebalancing,
        ]),
    );
    await insertMany(tx, 'nav_snapshots', ['account_id', 'day', 'balance', 'equity', 'taken_at'], navRows);
    await insertMany(
      tx,
      'rebates',
      ['account_id', 'month', 'lots', 'total_rebate', 'profit_sharing_amount', 'balance'],
      rebateRows,
    );
    await insertMany(tx, 'alerts', ['type', 'message', 'datetime', 'account_id'], alertRows);
    for (const [id, f] of finals) {
      await tx.query('UPDATE accounts SET balance = $2, equity = $2, hwm = $3 WHERE id = $1', [id, f.balance, f.hwm]);
    }
    await tx.query(
      `INSERT INTO bridge_state (id, running, changed_at) VALUES (1, true, $1) ON CONFLICT (id) DO NOTHING`,
      [new Date(windows[1]![1] * 1000)],
    );
    await tx.query(
      `INSERT INTO market_state (key, value) VALUES ('history', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [JSON.stringify({ seed: options.seed, generated_at: options.now, first_day: firstDay, rng: rng.seedState })],
    );
    return {
      accounts: accts.length,
      deals: allDeals.length,
      navRows: navRows.length,
      rebateRows: rebateRows.length,
      alerts: alertRows.length,
      firstDay,
    };
  });
}

