import type { ScopeFilter } from './scope-filter.ts';
import { matchAccountRef, type AccountMatch } from '#shared/domain/account-ref.ts';
import type { Queryable } from './database.ts';
import type { LiveAccount } from '#server/broker/port.ts';
import { insertRelation, IS_MASTER, ROLE_JOIN } from './copy-relations-repo.ts';
import type { Book } from '#server/ledger/port.ts';

/** A broker as stored: its terms and logo. */
export interface BrokerRow {
  id: number;
  broker_name: string;
  img_path: string;
  spread_pips: number;
  latency_ms: number;
  commission_per_lot: number;
  rebate_per_lot: number;
}

/** An account as stored. */
export interface AccountRow {
  id: number;
  account_id: string;
  account: string;
  account_name: string;
  broker_id: number;
  server: string;
  server_name: string;
  teiko_category: string;
  currency: string;
  /** A master unless it follows one: read from its copy relation (docs/copying.md). */
  is_master: boolean;
  /** The account it copies now (its active copy relation); null for a master. */
  master_id: number | null;
  leverage: number;
  balance: number;
  equity: number;
  margin: number;
  ping: number;
  /** epoch seconds */
  last_update: number;
}

/** The broker adapter that feeds an account: one of the registry's sources (src/server/broker/registry.ts). */
export type AccountSource = string;

export type NewBroker = Omit<BrokerRow, 'id'>;
/**
 * A new account. Its role comes from copy relations; `master_id` (with `copy_ratio`, default 1)
 * creates its relation to that master, by ratio, in the same write. `is_master` is ignored: an
 * account is a master unless it follows one.
 */
export type NewAccount = Omit<AccountRow, 'id' | 'balance' | 'equity' | 'margin' | 'is_master' | 'master_id'> & {
  source: AccountSource;
  master_id?: number | null;
  copy_ratio?: number;
  is_master?: boolean;
};

/** What an account's live figures are stored as between ticks. */
export interface AccountLiveState {
  id: number;
  equity: number;
  margin: number;
  ping: number;
  /** epoch seconds */
  last_update: number;
}

/** An account a caller names, with what its routes need to answer. */
export interface AccountRef {
  id: number;
  account_id: string;
  account: string;
  account_name: string;
  broker_name: string;
  teiko_category: string;
  currency: string;
  server: string;
}

/** An account's row of accounts/info, before the live figures and the deal totals are laid over it. */
export interface AccountInfoRow extends AccountRef {
  /** The adapter that feeds it (accounts.source). */
  source: string;
  img_path: string;
  server_name: string;
  is_master: boolean;
  balance: number;
  equity: number;
  margin: number;
  ping: number;
  /** epoch seconds */
  last_update: number;
}

const epoch = (d: Date): number => Math.floor(d.getTime() / 1000);

export async function countAccounts(q: Queryable): Promise<number> {
  const rows = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts');
  return rows[0]?.n ?? 0;
}

export async function listBrokers(q: Queryable): Promise<BrokerRow[]> {
  return q.query<BrokerRow>(
    'SELECT id, broker_name, img_path, spread_pips, latency_ms, commission_per_lot, rebate_per_lot FROM brokers ORDER BY id',
  );
}

/** The account's master (its relation in force) and whether it is a master itself. */
const ROLE_COLUMNS = `cr.master_id, ${IS_MASTER} AS is_master`;

export async function listAccounts(q: Queryable, source: AccountSource): Promise<AccountRow[]> {
  const rows = await q.query<Omit<AccountRow, 'last_update'> & { last_update: Date }>(
    `SELECT a.id, a.account_id, a.account, a.account_name, a.broker_id, a.server, a.server_name, a.teiko_category, a.currency,
            ${ROLE_COLUMNS}, a.leverage, a.balance, a.equity, a.margin, a.ping, a.last_update
     FROM accounts a ${ROLE_JOIN} WHERE a.source = $1 ORDER BY a.id`,
    [source],
  );
  return rows.map((r) => ({ ...r, last_update: epoch(r.last_update) }));
}

/** Every source the accounts name (checked against the broker registry at start). */
export async function accountSources(q: Queryable): Promise<string[]> {
  return (await q.query<{ source: string }>('SELECT DISTINCT source FROM accounts ORDER BY source')).map((r) => r.source);
}

/** The accounts of one source as the broker port sees them: each with its broker. */
export async function liveAccounts(q: Queryable, source: AccountSource): Promise<LiveAccount[]> {
  const brokers = new Map((await listBrokers(q)).map((b) => [b.id, b]));
  return (await listAccounts(q, source)).map(({ broker_id, ...a }) => ({ ...a, broker: brokers.get(broker_id)! }));
}

export async function insertBroker(q: Queryable, b: NewBroker): Promise<number> {
  const rows = await q.query<{ id: number }>(
    `INSERT INTO brokers (broker_name, img_path, spread_pips, latency_ms, commission_per_lot, rebate_per_lot)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [b.broker_name, b.img_path, b.spread_pips, b.latency_ms, b.commission_per_lot, b.rebate_per_lot],
  );
  return rows[0]!.id;
}

export async function insertAccount(q: Queryable, a: NewAccount): Promise<number> {
  const rows = await q.query<{ id: number }>(
    `INSERT INTO accounts (account_id, account, account_name, broker_id, server, server_name, teiko_category,
       currency, leverage, ping, last_update, source)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
    [
      a.account_id, a.account, a.account_name, a.broker_id, a.server, a.server_name, a.teiko_category, a.currency,
      a.leverage, a.ping, new Date(a.last_update * 1000), a.source,
    ],
  );
  const id = rows[0]!.id;
  if (a.master_id !== undefined && a.master_id !== null) {
    await insertRelation(q, {
      masterId: a.master_id,
      followerId: id,
      terms: { sizing: { mode: 'ratio', ratio: a.copy_ratio ?? 1 }, maxLot: null },
      equityStop: null,
      startedAt: new Date(),
    });
  }
  return id;
}

/**
 * The books of these accounts (all when ids is undefined), locked until the transaction ends. The lock
 * is FOR NO KEY UPDATE: it serialises writers of the books without blocking rows that only reference
 * the account (a command, a copy event, an alert), which FOR UPDATE would, deadlocking an order's
 * transaction against an agent's batch.
 */
export async function readBooks(q: Queryable, ids?: readonly number[]): Promise<Book[]> {
  const rows = await q.query<{
    id: number; account_name: string; teiko_category: string; currency: string; balance: number; equity: number;
    hwm: number; fee_accrued: number; dd_peak: number | null; dd_breach: boolean;
  }>(
    `SELECT id, account_name, teiko_category, currency, balance, equity, hwm, fee_accrued, dd_peak, dd_breach FROM accounts
     ${ids ? 'WHERE id = ANY($1::int[])' : ''} ORDER BY id FOR NO KEY UPDATE`,
    ids ? [[...ids]] : [],
  );
  return rows.map((r) => ({
    accountId: r.id,
    accountName: r.account_name,
    category: r.teiko_category,
    currency: r.currency,
    balance: r.balance,
    equity: r.equity,
    hwm: r.hwm,
    accrued: r.fee_accrued,
    peak: r.dd_peak,
    inBreach: r.dd_breach,
  }));
}

/** Stores books (balance, high-water mark, management fee accrued, drawdown state); with `equity`, the accounts' equity too. */
export async function writeBooks(q: Queryable, books: readonly Book[], equity?: ReadonlyMap<number, number>): Promise<void> {
  if (books.length === 0) return;
  await q.query(
    `UPDATE accounts a SET balance = u.balance, hwm = u.hwm, fee_accrued = u.accrued, dd_peak = u.peak, dd_breach = u.breach,
       equity = coalesce(u.equity, a.equity)
     FROM unnest($1::int[], $2::numeric[], $3::numeric[], $4::numeric[], $5::boolean[], $6::numeric[], $7::numeric[])
       AS u(id, balance, hwm, peak, breach, equity, accrued)
     WHERE a.id = u.id`,
    [
      books.map((b) => b.accountId),
      books.map((b) => b.balance),
      books.map((b) => b.hwm),
      books.map((b) => b.peak),
      books.map((b) => b.inBreach),
      books.map((b) => equity?.get(b.accountId) ?? null),
      books.map((b) => b.accrued),
    ],
  );
}

/** Stores the accounts' live figures (equity, margin, ping, last update). */
export async function saveLiveState(q: Queryable, accounts: readonly AccountLiveState[]): Promise<void> {
  if (accounts.length === 0) return;
  await q.query(
    `UPDATE accounts a SET equity = u.equity, margin = u.margin, ping = u.ping, last_update = to_timestamp(u.seen)
     FROM unnest($1::int[], $2::numeric[], $3::numeric[], $4::int[], $5::float8[]) AS u(id, equity, margin, ping, seen)
     WHERE a.id = u.id`,
    [
      accounts.map((a) => a.id),
      accounts.map((a) => a.equity),
      accounts.map((a) => a.margin),
      accounts.map((a) => a.ping),
      accounts.map((a) => a.last_update),
    ],
  );
}

/**
 * The account an `account` parameter names: by account_id first, else the one account with that
 * login (matchAccountRef). With a scope, only its accounts are candidates.
 */
export async function findAccountRef(q: Queryable, ref: string, scope?: ScopeFilter): Promise<AccountMatch<AccountRef>> {
  const rows = await q.query<AccountRef>(
    `SELECT a.id, a.account_id, a.account, a.account_name, b.broker_name, a.teiko_category, a.currency, a.server
     FROM accounts a JOIN brokers b ON b.id = a.broker_id
     WHERE (a.account_id = $1 OR a.account = $1) AND ($2::text[] IS NULL OR a.teiko_category = ANY($2))
     ORDER BY a.id`,
    [ref, scope ? [...scope.categories] : null],
  );
  return matchAccountRef(rows, ref);
}

/** An account by its row id. */
export async function accountRefById(q: Queryable, id: number): Promise<AccountRef | undefined> {
  const rows = await q.query<AccountRef>(
    `SELECT a.id, a.account_id, a.account, a.account_name, b.broker_name, a.teiko_category, a.currency, a.server
     FROM accounts a JOIN brokers b ON b.id = a.broker_id WHERE a.id = $1`,
    [id],
  );
  return rows[0];
}

/** The accounts of a scope, by broker then name. */
export async function accountInfoRows(q: Queryable, scope: ScopeFilter): Promise<AccountInfoRow[]> {
  const rows = await q.query<Omit<AccountInfoRow, 'last_update'> & { last_update: Date }>(
    `SELECT a.id, a.account_id, a.account, a.account_name, b.broker_name, b.img_path, a.teiko_category, a.currency,
            a.server, a.server_name, cr.master_id IS NULL AS is_master, a.balance, a.equity, a.margin, a.ping, a.last_update, a.source
     FROM accounts a JOIN brokers b ON b.id = a.broker_id ${ROLE_JOIN}
     WHERE a.teiko_category = ANY($1) ORDER BY b.broker_name, a.account_name`,
    [scope.categories],
  );
  return rows.map((r) => ({ ...r, last_update: epoch(r.last_update) }));
}

/** The brokers holding accounts of a scope, with the categories of those accounts. */
export async function brokersOfScope(
  q: Queryable,
  scope: ScopeFilter,
): Promise<{ broker_name: string; img_path: string; teiko_categories: string[] }[]> {
  return q.query(
    `SELECT b.broker_name, b.img_path, array_agg(DISTINCT a.teiko_category ORDER BY a.teiko_category) AS teiko_categories
     FROM brokers b JOIN accounts a ON a.broker_id = b.id WHERE a.teiko_category = ANY($1)
     GROUP BY b.id ORDER BY b.broker_name`,
    [scope.categories],
  );
}

/** What a terminal reported of its account: the broker's own figures are the truth. */
export async function saveReportedState(
  q: Queryable,
  accountId: number,
  s: { balance: number; equity: number; margin: number; leverage: number; connected?: boolean | undefined; trade_allowed?: boolean | undefined },
  at: Date,
): Promise<void> {
  await q.query(
    `UPDATE accounts SET balance = $2, equity = $3, margin = $4, leverage = $5, last_update = $6, terminal_connected = $7, trade_allowed = $8
      WHERE id = $1`,
    [accountId, s.balance, s.equity, s.margin, s.leverage, at, s.connected ?? null, s.trade_allowed ?? null],
  );
}

/** Whether the account's terminal said, in its last state, that it is connected and may trade (null: it did not say). */
export async function terminalState(q: Queryable, accountId: number): Promise<{ connected: boolean | null; tradeAllowed: boolean | null }> {
  const rows = await q.query<{ connected: boolean | null; trade_allowed: boolean | null }>(
    'SELECT terminal_connected AS connected, trade_allowed FROM accounts WHERE id = $1',
    [accountId],
  );
  return { connected: rows[0]?.connected ?? null, tradeAllowed: rows[0]?.trade_allowed ?? null };
}

/** The accounts reported now (a heartbeat): their freshness dot turns green. */
export async function touchAccounts(q: Queryable, ids: readonly number[], at: Date): Promise<void> {
  if (ids.length) await q.query('UPDATE accounts SET last_update = $2 WHERE id = ANY($1::int[])', [[...ids], at]);
}

/** An account's broker (for its symbol names). */
export async function accountBroker(
  q: Queryable,
  accountId: number,
): Promise<{ id: number; broker_id: number; account: string; currency: string; source: AccountSource } | undefined> {
  const rows = await q.query<{ id: number; broker_id: number; account: string; currency: string; source: AccountSource }>(
    'SELECT id, broker_id, account, currency, source FROM accounts WHERE id = $1',
    [accountId],
  );
  return rows[0];
}

/** Which adapter feeds each of these accounts (accounts.source). */
export async function sourcesOf(q: Queryable, accountIds: readonly number[]): Promise<Map<number, string>> {
  if (accountIds.length === 0) return new Map();
  const rows = await q.query<{ id: number; source: string }>('SELECT id, source FROM accounts WHERE id = ANY($1::int[])', [[...accountIds]]);
  return new Map(rows.map((r) => [r.id, r.source]));
}
