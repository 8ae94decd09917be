import { mt5AssetClass } from '#shared/domain/mt5-events.ts';
import { contractSize } from '#shared/domain/instruments.ts';
import type { Database, Queryable } from './database.ts';

interface Migration {
  version: number;
  name: string;
  sql: string;
  /** SQL written from what the database holds, read before the migration's transaction and run first in it. */
  prelude?: (db: Queryable) => Promise<string>;
}

const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * Migration 18's table of the MetaTrader symbols stored so far with what the MetaTrader mapping makes of
 * them (src/shared/domain/mt5-events.ts: the asset class and the contract size), so that the events it
 * writes are the ones the mapping writes from then on.
 */
async function mt5SymbolTable(db: Queryable): Promise<string> {
  const exists = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'broker_deals'");
  const symbols = exists[0]?.n ? await db.query<{ symbol: string }>('SELECT DISTINCT symbol FROM broker_deals WHERE type IN (0, 1)') : [];
  const rows = symbols.map(({ symbol }) => `(${literal(symbol)}, ${literal(mt5AssetClass(symbol))}, ${contractSize(symbol)})`);
  return `CREATE TEMP TABLE mt5_symbols (symbol TEXT PRIMARY KEY, asset_class TEXT NOT NULL, multiplier NUMERIC NOT NULL) ON COMMIT DROP;
    ${rows.length ? `INSERT INTO mt5_symbols VALUES ${rows.join(', ')};` : ''}`;
}

/**
 * Versioned migrations, PostgreSQL dialect, shared by PGlite and PostgreSQL.
 * Never edit a released migration: add the next one.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'users and sessions',
    sql: `
      CREATE TABLE users (
        id SERIAL PRIMARY KEY,
        username TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'active',
        permissions TEXT[] NOT NULL DEFAULT '{}',
        portfolio_auth TEXT[] NOT NULL DEFAULT '{}',
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      CREATE TABLE api_keys (
        id SERIAL PRIMARY KEY,
        user_id INT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        key_hash TEXT NOT NULL UNIQUE,
        created_at TIMESTAMPTZ NOT NULL,
        last_used_at TIMESTAMPTZ NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL,
        revoked_at TIMESTAMPTZ
      );
      CREATE INDEX api_keys_user ON api_keys(user_id);
      CREATE TABLE ws_tickets (
        ticket_hash TEXT PRIMARY KEY,
        api_key_id INT NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
        expires_at TIMESTAMPTZ NOT NULL
      );
      CREATE TABLE audit_log (
        id BIGSERIAL PRIMARY KEY,
        user_id INT REFERENCES users(id) ON DELETE SET NULL,
        action TEXT NOT NULL,
        detail JSONB NOT NULL DEFAULT '{}',
        at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      CREATE TABLE idempotency_keys (
        user_id INT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        route TEXT NOT NULL,
        status INT NOT NULL,
        response JSONB NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, key)
      );
    `,
  },
  {
    version: 2,
    name: 'brokers, accounts, trading and reporting',
    sql: `
      CREATE TABLE brokers (
        id SERIAL PRIMARY KEY,
        broker_name TEXT NOT NULL UNIQUE,
        img_path TEXT NOT NULL,
        spread_pips NUMERIC(10,2) NOT NULL DEFAULT 0,
        latency_ms INT NOT NULL DEFAULT 0,
        commission_per_lot NUMERIC(12,2) NOT NULL DEFAULT 0,
        rebate_per_lot NUMERIC(12,2) NOT NULL DEFAULT 0
      );
      CREATE TABLE accounts (
        id SERIAL PRIMARY KEY,
        account_id TEXT NOT NULL UNIQUE,
        account TEXT NOT NULL,
        account_name TEXT NOT NULL UNIQUE,
        broker_id INT NOT NULL REFERENCES brokers(id),
        server TEXT NOT NULL,
        server_name TEXT NOT NULL,
        teiko_category TEXT NOT NULL,
        currency TEXT NOT NULL,
        is_master BOOLEAN NOT NULL DEFAULT false,
        master_id INT REFERENCES accounts(id),
        copy_ratio NUMERIC(12,4) NOT NULL DEFAULT 1,
        leverage INT NOT NULL DEFAULT 100,
        balance NUMERIC(20,2) NOT NULL DEFAULT 0,
        equity NUMERIC(20,2) NOT NULL DEFAULT 0,
        margin NUMERIC(20,2) NOT NULL DEFAULT 0,
        hwm NUMERIC(20,2) NOT NULL DEFAULT 0,
        ping INT NOT NULL DEFAULT 0,
        last_update TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      CREATE INDEX accounts_category ON accounts(teiko_category);
      CREATE TABLE positions (
        id BIGSERIAL PRIMARY KEY,
        account_id INT NOT NULL REFERENCES accounts(id),
        master_position_id BIGINT,
        symbol TEXT NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('Buy', 'Sell')),
        category TEXT NOT NULL CHECK (category IN ('Forex', 'Equities')),
        quantity NUMERIC(20,4) NOT NULL CHECK (quantity > 0),
        price_open NUMERIC(20,6) NOT NULL,
        price_current NUMERIC(20,6) NOT NULL,
        price_low NUMERIC(20,6) NOT NULL,
        price_high NUMERIC(20,6) NOT NULL,
        sl NUMERIC(20,6),
        tp NUMERIC(20,6),
        profit NUMERIC(20,2) NOT NULL DEFAULT 0,
        swap NUMERIC(20,2) NOT NULL DEFAULT 0,
        commission NUMERIC(20,2) NOT NULL DEFAULT 0,
        fee NUMERIC(20,2) NOT NULL DEFAULT 0,
        exec_duration_ms INT NOT NULL DEFAULT 0,
        opened_at TIMESTAMPTZ NOT NULL
      );
      CREATE INDEX positions_account ON positions(account_id);
      CREATE INDEX positions_master ON positions(master_position_id);
      CREATE TABLE deals (
        id BIGSERIAL PRIMARY KEY,
        account_id INT NOT NULL REFERENCES accounts(id),
        kind TEXT NOT NULL CHECK (kind IN ('trade', 'deposit', 'withdrawal')),
        symbol TEXT,
        type TEXT CHECK (type IN ('Buy', 'Sell')),
        category TEXT CHECK (category IN ('Forex', 'Equities')),
        quantity NUMERIC(20,4) NOT NULL DEFAULT 0,
        open_price NUMERIC(20,6),
        close_price NUMERIC(20,6),
        opened_at TIMESTAMPTZ,
        datetime TIMESTAMPTZ NOT NULL,
        amount NUMERIC(20,2) NOT NULL DEFAULT 0,
        profit NUMERIC(20,2) NOT NULL DEFAULT 0,
        swap NUMERIC(20,2) NOT NULL DEFAULT 0,
        commission NUMERIC(20,2) NOT NULL DEFAULT 0,
        fee NUMERIC(20,2) NOT NULL DEFAULT 0,
        rebate NUMERIC(20,2) NOT NULL DEFAULT 0,
        mae NUMERIC(20,6),
        mfe NUMERIC(20,6),
        exec_duration_ms INT,
        is_rebalancing BOOLEAN NOT NULL DEFAULT false
      );
      CREATE INDEX deals_account_time ON deals(account_id, datetime);
      CREATE INDEX deals_symbol ON deals(symbol);
      CREATE TABLE nav_snapshots (
        account_id INT NOT NULL REFERENCES accounts(id),
        day DATE NOT NULL,
        balance NUMERIC(20,2) NOT NULL,
        equity NUMERIC(20,2) NOT NULL,
        taken_at TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (account_id, day)
      );
      CREATE TABLE rebates (
        account_id INT NOT NULL REFERENCES accounts(id),
        month DATE NOT NULL,
        lots NUMERIC(20,4) NOT NULL DEFAULT 0,
        total_rebate NUMERIC(20,2) NOT NULL DEFAULT 0,
        profit_sharing_amount NUMERIC(20,2) NOT NULL DEFAULT 0,
        balance NUMERIC(20,2) NOT NULL DEFAULT 0,
        PRIMARY KEY (account_id, month)
      );
      CREATE TABLE copy_rules (
        master_id INT NOT NULL REFERENCES accounts(id),
        market_type TEXT NOT NULL CHECK (market_type IN ('Forex', 'Equities')),
        allowed_pairs TEXT[] NOT NULL DEFAULT '{}',
        PRIMARY KEY (master_id, market_type)
      );
      CREATE TABLE alerts (
        id BIGSERIAL PRIMARY KEY,
        type TEXT NOT NULL,
        message TEXT NOT NULL,
        datetime TIMESTAMPTZ NOT NULL,
        account_id INT REFERENCES accounts(id)
      );
      CREATE INDEX alerts_time ON alerts(datetime DESC);
      CREATE TABLE bridge_state (
        id INT PRIMARY KEY CHECK (id = 1),
        running BOOLEAN NOT NULL,
        changed_at TIMESTAMPTZ NOT NULL
      );
      CREATE TABLE market_state (
        key TEXT PRIMARY KEY,
        value JSONB NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'idempotency keys claimed before the write runs',
    sql: `
      ALTER TABLE idempotency_keys ADD COLUMN fingerprint TEXT NOT NULL DEFAULT '';
      ALTER TABLE idempotency_keys ADD COLUMN state TEXT NOT NULL DEFAULT 'done' CHECK (state IN ('pending', 'done'));
      ALTER TABLE idempotency_keys ADD COLUMN claimed_at TIMESTAMPTZ NOT NULL DEFAULT now();
      ALTER TABLE idempotency_keys ALTER COLUMN status DROP NOT NULL;
      ALTER TABLE idempotency_keys ALTER COLUMN response DROP NOT NULL;
    `,
  },
  {
    version: 4,
    name: 'the ledger: each deal keeps its net result; drawdown alert state on the account',
    // The backfill is the one place outside the ledger that restates the net formula: it runs once,
    // on rows written before the ledger stored it.
    sql: `
      ALTER TABLE deals ADD COLUMN net NUMERIC(20,2) NOT NULL DEFAULT 0;
      UPDATE deals SET net = profit + swap + commission + fee WHERE kind = 'trade';
      ALTER TABLE accounts ADD COLUMN dd_peak NUMERIC(20,2);
      ALTER TABLE accounts ADD COLUMN dd_breach BOOLEAN NOT NULL DEFAULT false;
    `,
  },
  {
    version: 5,
    name: 'real accounts: terminal agents, their keys, sessions and batches, broker deals, symbol names',
    sql: `
      ALTER TABLE accounts ADD COLUMN source TEXT NOT NULL DEFAULT 'simulated' CHECK (source IN ('simulated', 'agent'));
      CREATE UNIQUE INDEX accounts_login_server ON accounts(account, server);
      CREATE TABLE agents (
        id SERIAL PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        key_hash TEXT NOT NULL UNIQUE,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        revoked_at TIMESTAMPTZ
      );
      CREATE TABLE agent_accounts (
        agent_id INT NOT NULL REFERENCES agents(id),
        account_id INT NOT NULL REFERENCES accounts(id),
        rights TEXT NOT NULL CHECK (rights IN ('read', 'trade')),
        PRIMARY KEY (agent_id, account_id)
      );
      CREATE TABLE agent_sessions (
        agent_id INT PRIMARY KEY REFERENCES agents(id),
        session TEXT NOT NULL,
        last_seq BIGINT NOT NULL,
        utc_offset_minutes INT NOT NULL,
        clock_skew_s NUMERIC(12,3) NOT NULL DEFAULT 0,
        seen_at TIMESTAMPTZ NOT NULL
      );
      CREATE TABLE ingest_batches (
        agent_id INT NOT NULL REFERENCES agents(id),
        batch_id UUID NOT NULL,
        answer JSONB NOT NULL,
        received_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (agent_id, batch_id)
      );
      CREATE TABLE broker_deals (
        account_id INT NOT NULL REFERENCES accounts(id),
        ticket BIGINT NOT NULL,
        position_id BIGINT NOT NULL,
        type INT NOT NULL,
        entry TEXT NOT NULL,
        symbol TEXT NOT NULL,
        volume NUMERIC(20,4) NOT NULL,
        price NUMERIC(20,6) NOT NULL,
        commission NUMERIC(20,2) NOT NULL,
        fee NUMERIC(20,2) NOT NULL,
        swap NUMERIC(20,2) NOT NULL,
        profit NUMERIC(20,2) NOT NULL,
        time_utc TIMESTAMPTZ NOT NULL,
        broker_time BIGINT NOT NULL,
        comment TEXT,
        PRIMARY KEY (account_id, ticket)
      );
      CREATE INDEX broker_deals_position ON broker_deals(account_id, position_id);
      ALTER TABLE deals ADD COLUMN ticket BIGINT;
      CREATE UNIQUE INDEX deals_ticket ON deals(account_id, ticket) WHERE ticket IS NOT NULL;
      ALTER TABLE positions ADD COLUMN identifier BIGINT;
      CREATE UNIQUE INDEX positions_identifier ON positions(account_id, identifier) WHERE identifier IS NOT NULL;
      CREATE TABLE symbol_map (
        broker_id INT NOT NULL REFERENCES brokers(id),
        broker_symbol TEXT NOT NULL,
        symbol TEXT NOT NULL,
        PRIMARY KEY (broker_id, broker_symbol)
      );
    `,
  },
  {
    version: 6,
    name: 'commands to terminal agents',
    sql: `
      CREATE TABLE commands (
        id UUID PRIMARY KEY,
        agent_id INT NOT NULL REFERENCES agents(id),
        account_id INT NOT NULL REFERENCES accounts(id),
        kind TEXT NOT NULL CHECK (kind IN ('modify', 'close', 'open')),
        payload JSONB NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'sent', 'done', 'rejected', 'not_found', 'expired')),
        message TEXT,
        created_at TIMESTAMPTZ NOT NULL,
        sent_at TIMESTAMPTZ,
        answered_at TIMESTAMPTZ,
        expires_at TIMESTAMPTZ NOT NULL
      );
      CREATE INDEX commands_agent_state ON commands(agent_id, state);
    `,
  },
  {
    version: 7,
    name: 'one close at a time per position',
    sql: `
      CREATE UNIQUE INDEX commands_one_close ON commands(account_id, (payload->>'identifier'))
        WHERE kind = 'close' AND state IN ('pending', 'sent');
    `,
  },
  {
    version: 8,
    name: 'copy quality: deals linked to their master, copy events, risk limits',
    sql: `
      ALTER TABLE deals ADD COLUMN position_id BIGINT;
      ALTER TABLE deals ADD COLUMN copy_of BIGINT;
      CREATE INDEX deals_position ON deals(position_id) WHERE position_id IS NOT NULL;
      CREATE TABLE copy_events (
        id BIGSERIAL PRIMARY KEY,
        at TIMESTAMPTZ NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('missed', 'duplicate')),
        reason TEXT NOT NULL CHECK (reason IN ('pair_not_allowed', 'bridge_off', 'agent_offline', 'rejected', 'no_margin', 'equity_stop', 'duplicate')),
        message TEXT,
        master_account_id INT NOT NULL REFERENCES accounts(id),
        follower_account_id INT NOT NULL REFERENCES accounts(id),
        master_position_id BIGINT NOT NULL,
        symbol TEXT NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('Buy', 'Sell')),
        UNIQUE (follower_account_id, master_position_id, kind)
      );
      CREATE INDEX copy_events_time ON copy_events(at);
      CREATE TABLE risk_limits (
        portfolio TEXT PRIMARY KEY,
        max_drawdown_pct NUMERIC(6,2),
        min_margin_level_pct NUMERIC(8,2),
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      ALTER TABLE accounts ADD COLUMN equity_stop NUMERIC(20,2);
      ALTER TABLE accounts ADD COLUMN equity_stopped_at TIMESTAMPTZ;
    `,
  },
  {
    version: 9,
    name: 'copy relations: one home for who copies whom, with sizing, cap and equity stop; copies linked by terminal identifiers',
    // An account is a master unless it follows one (docs/copying.md): is_master, master_id,
    // copy_ratio and the equity stop move from the account to its relation.
    sql: `
      CREATE TABLE copy_relations (
        id SERIAL PRIMARY KEY,
        master_id INT NOT NULL REFERENCES accounts(id),
        follower_id INT NOT NULL REFERENCES accounts(id),
        sizing TEXT NOT NULL CHECK (sizing IN ('ratio', 'equity', 'fixed')),
        sizing_value NUMERIC(20,4) NOT NULL CHECK (sizing_value > 0),
        max_lot NUMERIC(20,4) CHECK (max_lot > 0),
        equity_stop NUMERIC(20,2) CHECK (equity_stop > 0),
        equity_stopped_at TIMESTAMPTZ,
        started_at TIMESTAMPTZ NOT NULL,
        ended_at TIMESTAMPTZ,
        CHECK (master_id <> follower_id),
        CHECK (ended_at IS NULL OR ended_at >= started_at)
      );
      CREATE UNIQUE INDEX copy_relations_one_master ON copy_relations(follower_id) WHERE ended_at IS NULL;
      CREATE INDEX copy_relations_master ON copy_relations(master_id);
      INSERT INTO copy_relations (master_id, follower_id, sizing, sizing_value, equity_stop, equity_stopped_at, started_at)
        SELECT a.master_id, a.id, 'ratio', a.copy_ratio,
               -- A stop of 0 was "no stop" on the account; on the relation a stop is positive or absent.
               CASE WHEN a.equity_stop > 0 THEN a.equity_stop END, CASE WHEN a.equity_stop > 0 THEN a.equity_stopped_at END,
               coalesce((SELECT min(d.datetime) FROM deals d WHERE d.account_id = a.id), now())
          FROM accounts a WHERE a.master_id IS NOT NULL AND a.master_id <> a.id AND a.copy_ratio > 0;
      ALTER TABLE accounts DROP COLUMN master_id;
      ALTER TABLE accounts DROP COLUMN copy_ratio;
      ALTER TABLE accounts DROP COLUMN is_master;
      ALTER TABLE accounts DROP COLUMN equity_stop;
      ALTER TABLE accounts DROP COLUMN equity_stopped_at;

      -- A terminal's copy names its master position by the master's own identifier (copy_of); the
      -- server links it to the master's row through the follower's relations.
      -- Before, an open command named the master position by its row id, and terminals keep echoing
      -- that number for the copies they opened then: each agent master position's row id stays
      -- known as an alias of its identifier (copy-links-repo.ts reads it when nothing else matches).
      ALTER TABLE positions ADD COLUMN copy_of BIGINT;
      CREATE TABLE copy_legacy_refs (
        master_id INT NOT NULL REFERENCES accounts(id),
        row_id BIGINT NOT NULL,
        identifier BIGINT NOT NULL,
        PRIMARY KEY (master_id, row_id)
      );
      INSERT INTO copy_legacy_refs (master_id, row_id, identifier)
        SELECT m.account_id, m.id, m.identifier FROM positions m JOIN accounts a ON a.id = m.account_id
         WHERE a.source = 'agent' AND m.identifier IS NOT NULL;
      UPDATE positions p
         SET copy_of = coalesce((SELECT m.identifier FROM positions m WHERE m.id = p.master_position_id), p.master_position_id),
             master_position_id = NULL
        FROM accounts a WHERE a.id = p.account_id AND a.source = 'agent' AND p.master_position_id IS NOT NULL;
      -- Positions terminals reported and then closed: a copy is closed only once its master's is known closed.
      CREATE TABLE closed_positions (
        account_id INT NOT NULL REFERENCES accounts(id),
        identifier BIGINT NOT NULL,
        position_id BIGINT NOT NULL,
        copy_of BIGINT,
        closed_at TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (account_id, identifier)
      );

      -- One copy order per follower and master position, whatever restarts or takeovers happen.
      CREATE UNIQUE INDEX commands_one_copy ON commands(account_id, (payload->>'master_login'), (payload->>'master_server'), (payload->>'master_position_id'))
        WHERE kind = 'open';

      ALTER TABLE copy_events DROP CONSTRAINT copy_events_reason_check;
      ALTER TABLE copy_events ADD CONSTRAINT copy_events_reason_check
        CHECK (reason IN ('pair_not_allowed', 'bridge_off', 'agent_offline', 'rejected', 'no_margin', 'equity_stop', 'no_size', 'duplicate'));
    `,
  },
  {
    version: 10,
    name: 'rebates credited as deals; end-of-day NAV derived from the deals',
    // The backfills run once, on rows written before the ledger booked agent commission deals and
    // derived NAV (the rules themselves are ledger/books.ts's bookRebate and derivedNav): each agent
    // commission deal stored becomes its rebate row (the balances already hold it: the terminals
    // reported it), and each real account gets a derived NAV row for every past day from its first
    // deal that has none, at its balance at that day's end.
    sql: `
      ALTER TABLE deals DROP CONSTRAINT deals_kind_check;
      ALTER TABLE deals ADD CONSTRAINT deals_kind_check CHECK (kind IN ('trade', 'deposit', 'withdrawal', 'rebate'));
      ALTER TABLE nav_snapshots ADD COLUMN derived BOOLEAN NOT NULL DEFAULT false;
      INSERT INTO deals (account_id, kind, datetime, amount, rebate, ticket)
        SELECT account_id, 'rebate', time_utc, profit, profit, ticket FROM broker_deals
        WHERE type IN (10, 11) AND profit <> 0
        ON CONFLICT DO NOTHING;
      INSERT INTO nav_snapshots (account_id, day, balance, equity, taken_at, derived)
        SELECT a.id, d.day, b.balance, b.balance, (d.day + 1)::timestamp AT TIME ZONE 'UTC', true
        FROM accounts a
        JOIN LATERAL (SELECT (min(datetime) AT TIME ZONE 'UTC')::date AS first FROM deals WHERE account_id = a.id) f ON f.first IS NOT NULL
        CROSS JOIN LATERAL (SELECT g::date AS day FROM generate_series(f.first, (now() AT TIME ZONE 'UTC')::date - 1, interval '1 day') g) d
        CROSS JOIN LATERAL (SELECT coalesce(sum(CASE WHEN kind = 'trade' THEN net ELSE amount END), 0) AS balance
                            FROM deals WHERE account_id = a.id AND datetime < (d.day + 1)::timestamp AT TIME ZONE 'UTC') b
        WHERE a.source = 'agent'
        ON CONFLICT (account_id, day) DO NOTHING;
    `,
  },
  {
    version: 11,
    name: 'user, agent and broker names unique regardless of case; a clock skew of any size the ingest API takes',
    // Names are kept as typed and compared with lower(): 'ADMIN' is the user 'admin'. A database that
    // already holds two names differing only in case cannot take the indexes: the migration stops,
    // naming them, and the server does not start until an operator renames one of each.
    sql: `
      DO $$
      DECLARE clashes TEXT;
      BEGIN
        SELECT string_agg(clash, '; ' ORDER BY kind, clash COLLATE "C") INTO clashes FROM (
          SELECT 1 AS kind, 'users ' || string_agg(quote_literal(username), ' and ' ORDER BY username COLLATE "C") AS clash
            FROM users GROUP BY lower(username) HAVING count(*) > 1
          UNION ALL
          SELECT 2, 'agents ' || string_agg(quote_literal(name), ' and ' ORDER BY name COLLATE "C")
            FROM agents GROUP BY lower(name) HAVING count(*) > 1
          UNION ALL
          SELECT 3, 'brokers ' || string_agg(quote_literal(broker_name), ' and ' ORDER BY broker_name COLLATE "C")
            FROM brokers GROUP BY lower(broker_name) HAVING count(*) > 1
        ) found;
        IF clashes IS NOT NULL THEN
          RAISE EXCEPTION 'Migration 11 stopped: user, agent and broker names are now unique regardless of case, and this database holds names that differ only in case: %. Rename one of each with SQL (e.g. UPDATE users SET username = ''admin-2'' WHERE username = ''ADMIN''; likewise agents.name and brokers.broker_name), then start the server again. Nothing was changed.', clashes;
        END IF;
      END $$;
      CREATE UNIQUE INDEX users_username_lower ON users (lower(username));
      CREATE UNIQUE INDEX agents_name_lower ON agents (lower(name));
      CREATE UNIQUE INDEX brokers_name_lower ON brokers (lower(broker_name));
      ALTER TABLE agent_sessions ALTER COLUMN clock_skew_s TYPE NUMERIC(14,3);
    `,
  },
  {
    version: 12,
    name: 'statements: opening balances',
    sql: `
      CREATE TABLE balance_anchors (
        account_id INT NOT NULL REFERENCES accounts(id),
        ticket BIGINT NOT NULL,
        balance NUMERIC(20,2) NOT NULL,
        PRIMARY KEY (account_id, ticket)
      );
      ALTER TABLE deals ADD COLUMN is_opening BOOLEAN NOT NULL DEFAULT false;
    `,
  },
  {
    version: 13,
    name: 'a copy missed because no server was copying when its master trade opened',
    sql: `
      ALTER TABLE copy_events DROP CONSTRAINT copy_events_reason_check;
      ALTER TABLE copy_events ADD CONSTRAINT copy_events_reason_check
        CHECK (reason IN ('pair_not_allowed', 'bridge_off', 'agent_offline', 'server_down', 'rejected', 'no_margin', 'equity_stop', 'no_size', 'duplicate'));
    `,
  },
  {
    version: 14,
    name: 'every balance-moving MT5 deal type on the books: results of the account, bonuses',
    // The rules are src/shared/domain/deal-types.ts's and ledger/books.ts's (bookResult, bookCashFlow).
    // The backfill runs once, on the broker deals stored before the ledger booked these types (charge,
    // correction, bonus, commissions, interest, dividends, tax): each becomes its deal row (a result of
    // the account, kind 'result'; a bonus, a cash flow). An account whose stored balance is its rows'
    // sum holds the books' own balance (an imported statement's): it moves by them, its equity with
    // it; any other holds what its terminal reported, which counted them already. A bonus moves the
    // high-water mark and the drawdown peak, as a deposit does. The derived end-of-day NAV of those
    // accounts is made again from their earliest such deal (rows taken live stay).
    sql: `
      ALTER TABLE deals DROP CONSTRAINT deals_kind_check;
      ALTER TABLE deals ADD CONSTRAINT deals_kind_check CHECK (kind IN ('trade', 'deposit', 'withdrawal', 'rebate', 'result'));
      ALTER TABLE deals ADD COLUMN deal_type SMALLINT;
      CREATE TEMP TABLE unbooked ON COMMIT DROP AS
        SELECT b.account_id, b.ticket, b.type, b.time_utc, b.profit + b.commission + b.fee + b.swap AS money
        FROM broker_deals b
        WHERE b.type IN (4, 5, 6, 7, 8, 9, 12, 15, 16, 17) AND b.profit + b.commission + b.fee + b.swap <> 0
          AND NOT EXISTS (SELECT 1 FROM deals d WHERE d.account_id = b.account_id AND d.ticket = b.ticket);
      UPDATE accounts a SET balance = a.balance + u.money, equity = a.equity + u.money
        FROM (SELECT account_id, sum(money) AS money FROM unbooked GROUP BY account_id) u
        WHERE a.id = u.account_id
          AND a.balance = (SELECT coalesce(sum(CASE WHEN kind = 'trade' THEN net ELSE amount END), 0) FROM deals WHERE account_id = a.id);
      UPDATE accounts a SET hwm = greatest(0, a.hwm + u.money), dd_peak = a.dd_peak + u.money
        FROM (SELECT account_id, sum(money) AS money FROM unbooked WHERE type = 6 GROUP BY account_id) u
        WHERE a.id = u.account_id;
      INSERT INTO deals (account_id, kind, datetime, amount, ticket, deal_type)
        SELECT account_id, CASE WHEN type <> 6 THEN 'result' WHEN money >= 0 THEN 'deposit' ELSE 'withdrawal' END, time_utc, money, ticket, type
        FROM unbooked;
      INSERT INTO nav_snapshots (account_id, day, balance, equity, taken_at, derived)
        SELECT a.id, d.day, b.balance, b.balance, (d.day + 1)::timestamp AT TIME ZONE 'UTC', true
        FROM accounts a
        JOIN LATERAL (SELECT (min(datetime) AT TIME ZONE 'UTC')::date AS first FROM deals WHERE account_id = a.id) f ON f.first IS NOT NULL
        CROSS JOIN LATERAL (SELECT g::date AS day FROM generate_series(f.first, (now() AT TIME ZONE 'UTC')::date - 1, interval '1 day') g) d
        CROSS JOIN LATERAL (SELECT coalesce(sum(CASE WHEN kind = 'trade' THEN net ELSE amount END), 0) AS balance
                            FROM deals WHERE account_id = a.id AND datetime < (d.day + 1)::timestamp AT TIME ZONE 'UTC') b
        WHERE a.id IN (SELECT account_id FROM unbooked)
        ON CONFLICT (account_id, day) DO NOTHING;
      UPDATE nav_snapshots n SET (balance, equity) = (
          SELECT s.balance, s.balance FROM (
            SELECT coalesce(sum(CASE WHEN kind = 'trade' THEN net ELSE amount END), 0) AS balance
            FROM deals WHERE account_id = n.account_id AND datetime < (n.day + 1)::timestamp AT TIME ZONE 'UTC') s)
        FROM (SELECT account_id, (min(time_utc) AT TIME ZONE 'UTC')::date AS first FROM unbooked GROUP BY account_id) f
        WHERE n.account_id = f.account_id AND n.derived AND n.day >= f.first;
    `,
  },
  {
    version: 15,
    name: "an account's source is any broker adapter's (checked against the registry at start, not by the table)",
    sql: `
      ALTER TABLE accounts DROP CONSTRAINT IF EXISTS accounts_source_check;
    `,
  },
  {
    version: 16,
    name: 'Web Push: the VAPID keys, browsers subscribed per user, the kinds each user receives, and how far alerts were pushed',
    sql: `
      CREATE TABLE push_keys (
        id INT PRIMARY KEY CHECK (id = 1),
        public_key TEXT NOT NULL,
        private_key TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      CREATE TABLE push_subscriptions (
        id SERIAL PRIMARY KEY,
        user_id INT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        endpoint TEXT NOT NULL UNIQUE,
        p256dh TEXT NOT NULL,
        auth TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        -- A device receives the alerts recorded after it subscribed, not a burst of older ones.
        from_alert_id BIGINT NOT NULL DEFAULT 0,
        last_sent_at TIMESTAMPTZ
      );
      CREATE INDEX push_subscriptions_user ON push_subscriptions(user_id);
      -- NULL: every kind (a user who never chose).
      ALTER TABLE users ADD COLUMN push_kinds TEXT[];
      -- The newest alert the push dispatcher has handled; alerts recorded before push existed are not pushed.
      CREATE TABLE push_cursor (
        id INT PRIMARY KEY CHECK (id = 1),
        last_alert_id BIGINT NOT NULL
      );
      INSERT INTO push_cursor (id, last_alert_id) SELECT 1, COALESCE(max(id), 0) FROM alerts;
    `,
  },
  {
    version: 17,
    name: "fees: a follower's terms from a date, every accrual, charge and adjustment with its arithmetic, the management fee accrued",
    sql: `
      -- The terms in force on a day are the row with the latest effective_from not after it.
      CREATE TABLE fee_terms (
        id SERIAL PRIMARY KEY,
        account_id INT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        effective_from DATE NOT NULL,
        terms JSONB NOT NULL,
        set_by INT REFERENCES users(id) ON DELETE SET NULL,
        set_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        UNIQUE (account_id, effective_from)
      );
      CREATE TABLE fee_entries (
        id BIGSERIAL PRIMARY KEY,
        account_id INT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('performance', 'management', 'volume')),
        entry TEXT NOT NULL CHECK (entry IN ('accrual', 'charge', 'adjustment')),
        period TEXT NOT NULL,
        ref TEXT NOT NULL,
        at TIMESTAMPTZ NOT NULL,
        basis NUMERIC(24,6) NOT NULL,
        mark_before NUMERIC(20,2),
        mark_after NUMERIC(20,2),
        rate NUMERIC(20,8) NOT NULL,
        amount NUMERIC(24,6) NOT NULL,
        currency TEXT NOT NULL,
        note TEXT NOT NULL,
        -- Booking the same accrual, charge or leg again is a no-op.
        UNIQUE (account_id, kind, entry, ref)
      );
      CREATE INDEX fee_entries_account_at ON fee_entries(account_id, at);
      ALTER TABLE accounts ADD COLUMN fee_accrued NUMERIC(24,6) NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 18,
    name: 'the broker-neutral deal model: what brokers report as neutral events; deals name a bonus or a result by its reason',
    // The MetaTrader deals stored so far become the events the MetaTrader mapping makes of them
    // (src/shared/domain/mt5-events.ts): buys and sells fills (in → open, in/out → reverse, out and out by
    // → close), balance deals deposits or withdrawals, bonuses cash of flow 'bonus', agent commissions
    // rebates, charges, corrections, commissions, interest, dividends and tax incomes by their reason, a
    // credit an income that moves nothing, canceled orders and unknown types memos. The deals table
    // names a bonus or a result by its reason instead of MT5's type number.
    prelude: mt5SymbolTable,
    sql: `
      CREATE TABLE broker_events (
        account_id INT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        ref BIGINT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('fill', 'cash', 'income', 'corporate_action', 'conversion', 'memo')),
        position BIGINT,
        linked BIGINT,
        time_utc TIMESTAMPTZ NOT NULL,
        broker_time BIGINT,
        event JSONB NOT NULL,
        PRIMARY KEY (account_id, ref)
      );
      CREATE INDEX broker_events_position ON broker_events (account_id, position) WHERE position IS NOT NULL;
      CREATE INDEX broker_events_linked ON broker_events (account_id, linked) WHERE linked IS NOT NULL;
      INSERT INTO broker_events (account_id, ref, kind, position, time_utc, broker_time, event)
      SELECT b.account_id, b.ticket,
        CASE WHEN b.type IN (0, 1) THEN 'fill' WHEN b.type IN (2, 6) THEN 'cash'
             WHEN b.type IN (3, 4, 5, 7, 8, 9, 10, 11, 12, 15, 16, 17) THEN 'income' ELSE 'memo' END,
        CASE WHEN b.type IN (0, 1) THEN b.position_id END,
        b.time_utc, b.broker_time,
        jsonb_build_object('ref', b.ticket, 'at', extract(epoch FROM b.time_utc)::bigint, 'currency', a.currency, 'rate', 1) ||
        CASE
          WHEN b.type IN (0, 1) THEN jsonb_build_object('kind', 'fill', 'position', b.position_id, 'symbol', b.symbol,
            'assetClass', coalesce(s.asset_class, 'cfd'), 'side', CASE b.type WHEN 0 THEN 'Buy' ELSE 'Sell' END,
            'quantity', b.volume, 'price', b.price, 'multiplier', coalesce(s.multiplier, 1),
            'effect', CASE b.entry WHEN 'in' THEN 'open' WHEN 'inout' THEN 'reverse' ELSE 'close' END,
            'commission', b.commission, 'fee', b.fee, 'swap', b.swap, 'profit', b.profit)
          WHEN b.type = 2 THEN jsonb_build_object('kind', 'cash', 'flow', CASE WHEN m.money >= 0 THEN 'deposit' ELSE 'withdrawal' END, 'amount', m.money)
          WHEN b.type = 6 THEN jsonb_build_object('kind', 'cash', 'flow', 'bonus', 'amount', m.money)
          WHEN b.type IN (3, 4, 5, 7, 8, 9, 10, 11, 12, 15, 16, 17) THEN jsonb_build_object('kind', 'income', 'amount', m.money, 'income',
            CASE b.type WHEN 3 THEN 'credit' WHEN 4 THEN 'charge' WHEN 5 THEN 'correction' WHEN 7 THEN 'commission'
              WHEN 8 THEN 'commission_daily' WHEN 9 THEN 'commission_monthly' WHEN 10 THEN 'rebate' WHEN 11 THEN 'rebate'
              WHEN 12 THEN 'interest' WHEN 15 THEN 'dividend' WHEN 16 THEN 'dividend_franked' ELSE 'tax' END)
          ELSE jsonb_build_object('kind', 'memo', 'note', CASE WHEN b.type IN (13, 14) THEN 'canceled order' ELSE 'MT5 deal type ' || b.type END)
        END
      FROM broker_deals b
      JOIN accounts a ON a.id = b.account_id
      LEFT JOIN mt5_symbols s ON s.symbol = b.symbol
      CROSS JOIN LATERAL (SELECT round(b.profit + b.commission + b.fee + b.swap, 2) AS money) m;
      DROP TABLE broker_deals;
      ALTER TABLE deals ADD COLUMN reason TEXT;
      UPDATE deals SET reason = CASE deal_type WHEN 4 THEN 'charge' WHEN 5 THEN 'correction' WHEN 6 THEN 'bonus' WHEN 7 THEN 'commission'
          WHEN 8 THEN 'commission_daily' WHEN 9 THEN 'commission_monthly' WHEN 12 THEN 'interest' WHEN 15 THEN 'dividend'
          WHEN 16 THEN 'dividend_franked' WHEN 17 THEN 'tax' END
        WHERE deal_type IS NOT NULL;
      ALTER TABLE deals DROP COLUMN deal_type;
    `,
  },
  {
    version: 19,
    name: 'the copy engine records every copy order it sends',
    // From now on the copy engine writes the row before it sends the order (src/server/copy/copy-engine.ts),
    // whatever the follower's adapter. The copies sent before are written from what they left: a simulated
    // follower's copy (open, or closed since: its deal keeps copy_of), and a terminal's 'open' command naming
    // its master's position (by the identifier its terminal knows it by, resolved to the master's row where
    // the server still knows it; a simulated master's position is named by its row id).
    sql: `
      CREATE TABLE copy_orders (
        follower_account_id INT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        master_position_id BIGINT NOT NULL,
        master_account_id INT REFERENCES accounts(id) ON DELETE CASCADE,
        -- What the follower's broker is told the master position is (a terminal echoes it as copy_of).
        master_ref BIGINT NOT NULL,
        symbol TEXT NOT NULL,
        type TEXT NOT NULL,
        quantity NUMERIC(20,4) NOT NULL,
        sent_at TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (follower_account_id, master_position_id)
      );
      CREATE INDEX copy_orders_ref ON copy_orders (follower_account_id, master_account_id, master_ref);
      INSERT INTO copy_orders (follower_account_id, master_position_id, master_account_id, master_ref, symbol, type, quantity, sent_at)
        SELECT p.account_id, p.master_position_id, mp.account_id, p.master_position_id, p.symbol, p.type, p.quantity, p.opened_at
          FROM positions p JOIN accounts f ON f.id = p.account_id LEFT JOIN positions mp ON mp.id = p.master_position_id
         WHERE f.source = 'simulated' AND p.master_position_id IS NOT NULL
        ON CONFLICT DO NOTHING;
      INSERT INTO copy_orders (follower_account_id, master_position_id, master_account_id, master_ref, symbol, type, quantity, sent_at)
        SELECT d.account_id, d.copy_of, NULL, d.copy_of, d.symbol, d.type, d.quantity, coalesce(d.opened_at, d.datetime)
          FROM deals d JOIN accounts f ON f.id = d.account_id
         WHERE f.source = 'simulated' AND d.kind = 'trade' AND d.copy_of IS NOT NULL
        ON CONFLICT DO NOTHING;
      INSERT INTO copy_orders (follower_account_id, master_position_id, master_account_id, master_ref, symbol, type, quantity, sent_at)
        SELECT DISTINCT ON (c.account_id, m.position_id) c.account_id, m.position_id, ma.id, (c.payload->>'master_position_id')::bigint,
               c.payload->>'symbol', initcap(c.payload->>'type'), (c.payload->>'volume')::numeric, c.created_at
          FROM commands c
          JOIN accounts ma ON ma.account = c.payload->>'master_login' AND ma.server = c.payload->>'master_server'
          CROSS JOIN LATERAL (
            SELECT coalesce(
              (SELECT p.id FROM positions p WHERE p.account_id = ma.id AND coalesce(p.identifier, p.id) = (c.payload->>'master_position_id')::bigint LIMIT 1),
              (SELECT cp.position_id FROM closed_positions cp WHERE cp.account_id = ma.id AND cp.identifier = (c.payload->>'master_position_id')::bigint LIMIT 1),
              CASE WHEN ma.source = 'simulated' THEN (c.payload->>'master_position_id')::bigint END) AS position_id
          ) m
         WHERE c.kind = 'open' AND c.payload ? 'master_position_id' AND m.position_id IS NOT NULL
         ORDER BY c.account_id, m.position_id, c.created_at
        ON CONFLICT DO NOTHING;
    `,
  },
  {
    version: 20,
    name: "statements: the broker's net asset value by day, open positions as of a statement's end, Flex Web Service settings",
    sql: `
      CREATE TABLE broker_nav (
        account_id INT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        day DATE NOT NULL,
        total NUMERIC(24,6) NOT NULL,
        PRIMARY KEY (account_id, day)
      );
      -- An open position as a statement lists it at its end: marked at the broker's price of that day.
      ALTER TABLE positions ADD COLUMN as_of TIMESTAMPTZ;
      ALTER TABLE positions ADD COLUMN multiplier NUMERIC(24,6);
      ALTER TABLE positions ADD COLUMN quote TEXT;
      CREATE TABLE flex_settings (
        account_id INT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        token_sealed TEXT NOT NULL,
        query_id TEXT NOT NULL,
        token_expires DATE,
        set_at TIMESTAMPTZ NOT NULL,
        last_fetch_at TIMESTAMPTZ,
        last_status TEXT,
        last_error TEXT,
        failures INT NOT NULL DEFAULT 0,
        next_fetch_at TIMESTAMPTZ,
        expiry_alerted_at TIMESTAMPTZ
      );
      ALTER TABLE accounts ADD COLUMN statement_at TIMESTAMPTZ;
    `,
  },
  {
    version: 21,
    name: 'closes need evidence: a position missing from a snapshot is unconfirmed, not closed; the terminal says whether it is connected',
    sql: `
      ALTER TABLE positions ADD COLUMN unconfirmed_since TIMESTAMPTZ;
      -- When a terminal last reported the position open (its closing deals count from then).
      ALTER TABLE positions ADD COLUMN seen_at TIMESTAMPTZ;
      ALTER TABLE accounts ADD COLUMN terminal_connected BOOLEAN;
      ALTER TABLE accounts ADD COLUMN trade_allowed BOOLEAN;
      -- The position an open command opened, as the terminal answered it: the copy's link to its master.
      ALTER TABLE commands ADD COLUMN result_identifier BIGINT;
      -- What an agent last left out of its batches (the server refused it), with the server's words.
      ALTER TABLE agent_sessions ADD COLUMN dropped JSONB;
      ALTER TABLE agent_sessions ADD COLUMN dropped_at TIMESTAMPTZ;
    `,
  },
  {
    version: 22,
    name: 'copy guards: graded stops per relation, follower and master, their risk events; the equity stop becomes a relation equity-floor guard',
    sql: `
      CREATE TABLE copy_guards (
        id SERIAL PRIMARY KEY,
        scope TEXT NOT NULL CHECK (scope IN ('relation', 'follower', 'master')),
        relation_id INT REFERENCES copy_relations(id) ON DELETE CASCADE,
        account_id INT REFERENCES accounts(id) ON DELETE CASCADE,
        basis TEXT NOT NULL CHECK (basis IN ('equity_floor', 'loss_from_start', 'trailing_from_peak', 'period_loss', 'profit_target')),
        unit TEXT NOT NULL CHECK (unit IN ('percent', 'money')),
        period TEXT CHECK (period IN ('day', 'week', 'month')),
        warn NUMERIC(24,6),
        close_only NUMERIC(24,6),
        close_all NUMERIC(24,6),
        state TEXT NOT NULL DEFAULT 'armed' CHECK (state IN ('armed', 'warned', 'close_only', 'closed')),
        mark NUMERIC(24,6),
        period_start DATE,
        -- A relation guard's equity: the follower's equity when it started, plus its copies' result since.
        base NUMERIC(24,6),
        started_at TIMESTAMPTZ NOT NULL,
        flows_until TIMESTAMPTZ,
        last_value NUMERIC(24,6),
        measured_at TIMESTAMPTZ,
        fired_at TIMESTAMPTZ,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        CHECK ((scope = 'relation') = (relation_id IS NOT NULL)),
        CHECK ((scope = 'relation') = (account_id IS NULL))
      );
      CREATE UNIQUE INDEX copy_guards_one ON copy_guards (scope, coalesce(relation_id, 0), coalesce(account_id, 0), basis);
      CREATE TABLE risk_events (
        id BIGSERIAL PRIMARY KEY,
        guard_id INT REFERENCES copy_guards(id) ON DELETE SET NULL,
        account_id INT REFERENCES accounts(id) ON DELETE CASCADE,
        at TIMESTAMPTZ NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('warn', 'close_only', 'close_all', 'close', 'rearm', 'warn_rearmed')),
        value NUMERIC(24,6),
        message TEXT NOT NULL,
        detail JSONB NOT NULL DEFAULT '{}'
      );
      CREATE INDEX risk_events_account ON risk_events (account_id, at);
      INSERT INTO copy_guards (scope, relation_id, basis, unit, close_only, state, started_at, fired_at)
        SELECT 'relation', id, 'equity_floor', 'money', equity_stop, CASE WHEN equity_stopped_at IS NULL THEN 'armed' ELSE 'close_only' END,
               started_at, equity_stopped_at
          FROM copy_relations WHERE equity_stop IS NOT NULL;
      ALTER TABLE copy_relations DROP COLUMN equity_stop;
      ALTER TABLE copy_relations DROP COLUMN equity_stopped_at;
      ALTER TABLE copy_events DROP CONSTRAINT IF EXISTS copy_events_reason_check;
      ALTER TABLE copy_events ADD CONSTRAINT copy_events_reason_check
        CHECK (reason IN ('pair_not_allowed', 'bridge_off', 'agent_offline', 'server_down', 'rejected', 'no_margin', 'equity_stop',
                          'guard_close_only', 'guard_closed', 'no_size', 'duplicate'));
    `,
  },
  {
    version: 23,
    name: 'Web Push: at most 10 devices per user (the least recently subscribed dropped), and the failed posts in a row of each device',
    sql: `
      -- When the device last subscribed (its first time, or again with the same endpoint): the oldest goes first.
      ALTER TABLE push_subscriptions ADD COLUMN subscribed_at TIMESTAMPTZ;
      UPDATE push_subscriptions SET subscribed_at = created_at;
      ALTER TABLE push_subscriptions ALTER COLUMN subscribed_at SET NOT NULL;
      ALTER TABLE push_subscriptions ALTER COLUMN subscribed_at SET DEFAULT now();
      -- Posts that failed in a row (a timeout, a refusal), and since when: a device that keeps failing is dropped.
      ALTER TABLE push_subscriptions ADD COLUMN failures INT NOT NULL DEFAULT 0;
      ALTER TABLE push_subscriptions ADD COLUMN failing_since TIMESTAMPTZ;
      DELETE FROM push_subscriptions WHERE id IN (
        SELECT id FROM (
          SELECT id, row_number() OVER (PARTITION BY user_id ORDER BY subscribed_at DESC, id DESC) AS n FROM push_subscriptions
        ) ranked WHERE n > 10
      );
    `,
  },
  {
    version: 24,
    name: 'scoped reads: what each audit row is about (its accounts, its portfolios); the master an alert names, and its text for readers who may not see it',
    // docs/security.md ('Audit log', 'Alert texts'). New rows are attributed as they are written
    // (audit-repo.ts); these statements attribute the rows written before, by the shapes their actions
    // wrote. A reference that names no account stands as 0 (no account's id): an administrator's row.
    sql: `
      ALTER TABLE audit_log ADD COLUMN account_ids INT[];
      ALTER TABLE audit_log ADD COLUMN portfolios TEXT[];
      UPDATE audit_log l SET account_ids = ARRAY(
          SELECT coalesce(a.id, 0) FROM jsonb_array_elements_text(
            CASE
              WHEN l.action IN ('fees.terms', 'accounts.add') THEN jsonb_build_array(l.detail->'account_id')
              WHEN l.action = 'copy-rules.allowed-pairs' THEN jsonb_build_array(l.detail->'master_id')
              WHEN l.action IN ('accounts.flex-set', 'accounts.flex-delete', 'accounts.flex-fetch', 'risk.equity-stop') THEN jsonb_build_array(l.detail->'account')
              WHEN l.action = 'accounts.import-statement' THEN jsonb_build_array(l.detail->'account')
                || CASE WHEN jsonb_typeof(l.detail->'accounts') = 'array' THEN l.detail->'accounts' ELSE '[]'::jsonb END
              WHEN l.action LIKE 'copy.relation.%' THEN jsonb_build_array(l.detail->'master', l.detail->'follower')
              WHEN l.action LIKE 'risk.guard-%' AND l.detail ? 'account' THEN jsonb_build_array(l.detail->'account')
              ELSE '[]'::jsonb
            END) r(ref) LEFT JOIN accounts a ON a.account_id = r.ref
          UNION SELECT coalesce(a.id, 0) FROM (SELECT l.detail->>'master' AS ref) r LEFT JOIN accounts a ON a.account || '@' || a.server = r.ref
           WHERE l.action = 'accounts.add' AND r.ref IS NOT NULL
          UNION SELECT x FROM (SELECT 1) one LEFT JOIN copy_relations cr
                  ON cr.id = CASE WHEN l.detail->>'relation' ~ '^[0-9]{1,9}$' THEN (l.detail->>'relation')::int END
                CROSS JOIN LATERAL unnest(ARRAY[coalesce(cr.master_id, 0), coalesce(cr.follower_id, 0)]) x
           WHERE (l.action LIKE 'copy.relation.%' OR l.action = 'risk.equity-stop') AND l.detail->>'relation' ~ '^[0-9]{1,9}$'
          UNION SELECT coalesce(x, 0) FROM (SELECT 1) one LEFT JOIN copy_guards g
                  ON g.id = CASE WHEN l.detail->>'guard_id' ~ '^[0-9]{1,9}$' THEN (l.detail->>'guard_id')::int END LEFT JOIN copy_relations cr ON cr.id = g.relation_id
                CROSS JOIN LATERAL unnest(CASE WHEN g.relation_id IS NOT NULL THEN ARRAY[cr.master_id, cr.follower_id] ELSE ARRAY[g.account_id] END) x
           WHERE l.action LIKE 'risk.guard-%' AND l.detail->>'guard_id' ~ '^[0-9]{1,9}$'
          UNION SELECT coalesce(p.account_id, 0) FROM jsonb_array_elements_text(l.detail->'positions') r(ref) LEFT JOIN positions p ON p.id::text = r.ref
           WHERE l.action IN ('positions.close', 'positions.set-tp-sl') AND jsonb_typeof(l.detail->'positions') = 'array')
       WHERE l.action IN ('fees.terms', 'accounts.add', 'copy-rules.allowed-pairs', 'accounts.flex-set', 'accounts.flex-delete', 'accounts.flex-fetch',
                          'risk.equity-stop', 'accounts.import-statement', 'positions.close', 'positions.set-tp-sl')
          OR l.action LIKE 'copy.relation.%' OR l.action LIKE 'risk.guard-%';
      -- A row of those actions that named nothing: an administrator's.
      UPDATE audit_log SET account_ids = ARRAY[0] WHERE account_ids = '{}';
      UPDATE audit_log SET portfolios = ARRAY[detail->>'portfolio'] WHERE action = 'risk.limits' AND detail->>'portfolio' IS NOT NULL;
      ALTER TABLE alerts ADD COLUMN master_account_id INT REFERENCES accounts(id);
      ALTER TABLE alerts ADD COLUMN message_outside TEXT;
      -- The copy alerts written before: their master is their copy event's.
      UPDATE alerts al SET master_account_id = e.master_account_id,
             message_outside = CASE e.kind
               WHEN 'missed' THEN 'Missed copy on ' || f.account_name || ': ' || e.type || ' ' || e.symbol || ' of a master outside your portfolios was not copied.'
               ELSE 'Duplicated copy on ' || f.account_name || ': copies of ' || e.type || ' ' || e.symbol || ' of a master outside your portfolios.' END
        FROM copy_events e, accounts f
       WHERE al.type = 'copy' AND e.follower_account_id = al.account_id AND f.id = al.account_id AND e.at = al.datetime
         AND al.message LIKE CASE e.kind WHEN 'missed' THEN 'Missed copy on %' ELSE 'Duplicated copy on %' END;
    `,
  },
  {
    version: 25,
    name: 'every copy order that did not happen is told: when its alert was raised (refused, expired, unanswered)',
    // docs/copying.md ('A copy that did not happen'). The orders that failed before this version are
    // in the copy report already; they are taken as told, so an upgrade raises no flood of old alerts.
    sql: `
      ALTER TABLE commands ADD COLUMN told_at TIMESTAMPTZ;
      UPDATE commands SET told_at = now() WHERE kind = 'open' AND state IN ('rejected', 'expired', 'sent');
    `,
  },
  {
    version: 26,
    name: 'what a deal moves on the balance is one column, generated: a trade its net, anything else its amount',
    // The rule's TypeScript is dealMoney (src/shared/domain/deal.ts); every query reads this column.
    sql: `
      ALTER TABLE deals ADD COLUMN money NUMERIC(20,2) GENERATED ALWAYS AS (CASE WHEN kind = 'trade' THEN net ELSE amount END) STORED;
    `,
  },
];

/** Applies every migration not yet recorded, each in its own transaction, in version order. */
export async function migrate(db: Database): Promise<number[]> {
  // Under the same lock as each migration: instances starting together on an empty database would
  // otherwise race on creating this table.
  await db.exec(`BEGIN;
    SELECT pg_advisory_xact_lock(724301);
    CREATE TABLE IF NOT EXISTS schema_migrations (
      version INT PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now());
    COMMIT;`);
  const applied = new Set(
    (await db.query<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version),
  );
  const done: number[] = [];
  // By version, whatever order the list was written in (a version left free may come later).
  for (const m of [...MIGRATIONS].sort((a, b) => a.version - b.version)) {
    if (applied.has(m.version)) continue;
    // The advisory lock serialises instances migrating one PostgreSQL database at once;
    // the loser's insert fails on the primary key and its transaction rolls back whole.
    try {
      const prelude = m.prelude ? await m.prelude(db) : '';
      await db.exec(`BEGIN;
        SELECT pg_advisory_xact_lock(724301);
        ${prelude}
        ${m.sql}
        INSERT INTO schema_migrations (version, name) VALUES (${m.version}, '${m.name.replace(/'/g, "''")}');
        COMMIT;`);
    } catch (err) {
      const now = await db.query<{ version: number }>('SELECT version FROM schema_migrations WHERE version = $1', [
        m.version,
      ]);
      if (now.length === 0) throw err;
      continue;
    }
    done.push(m.version);
  }
  return done;
}
