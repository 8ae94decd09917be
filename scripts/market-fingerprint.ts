/**
 * The simulated market's fingerprint: the figures of a seeded history (3 months to 2026-09-30 20:00
 * UTC, seed 42) and of 6,000 live ticks of 5 s after it (a rollover, a day end and a month end).
 * Run it before and after a change that should not move any figure, and diff the two outputs:
 *   node --import tsx scripts/market-fingerprint.ts > before.txt
 */
import { openPglite } from '#server/db/database.ts';
import { migrate } from '#server/db/migrations.ts';
import { generateHistory } from '#server/broker/simulated/history.ts';
import { SimulatedMarket } from '#server/broker/simulated/simulated-market.ts';
import { booksStore } from '#server/db/books-store.ts';
import { Ledger } from '#server/ledger/ledger.ts';
import { CopyEngine } from '#server/copy/copy-engine.ts';

const db = await openPglite(null);
await migrate(db);
let clock = Date.UTC(2026, 8, 30, 20, 0, 0);
await generateHistory(db, { seed: 42, now: clock, months: 3 });
const dump = async (label: string) => {
  const q = async (sql: string) => JSON.stringify(await db.query(sql));
  console.log(label);
  console.log(await q(`SELECT count(*)::int n, round(sum(profit),2) p, round(sum(swap),2) s, round(sum(commission),2) c, round(sum(fee),2) f, round(sum(rebate),2) r, round(sum(amount),2) a, round(sum(mae),6) mae, round(sum(quantity),4) q FROM deals`));
  console.log(await q(`SELECT id, balance, equity, hwm FROM accounts ORDER BY id`));
  console.log(await q(`SELECT count(*)::int n, round(sum(balance),2) b, round(sum(equity),2) e FROM nav_snapshots`));
  console.log(await q(`SELECT account_id, to_char(month,'YYYY-MM') m, lots, total_rebate, profit_sharing_amount, balance FROM rebates ORDER BY 1,2`));
  console.log(await q(`SELECT type, message, datetime FROM alerts ORDER BY datetime, message`));
  console.log(await q(`SELECT count(*)::int n, round(sum(price_open),4) po, round(sum(profit),2) p, round(sum(swap),2) s FROM positions`));
};
await dump('HISTORY');
const ledger = new Ledger(booksStore(db));
const market = new SimulatedMarket(db, ledger, { seed: 42, now: () => clock, tickMs: 0, autoTrade: true, flushEvery: 3 });
const copier = new CopyEngine(db, market);
await copier.start();
await market.start();
for (let i = 0; i < 6000; i++) {
  clock += 5000;
  await market.tick();
}
await market.stop();
await dump('LIVE');
await db.close();
