import type { Database } from './database.ts';

interface Migration {
  version: number;
  name: string;
  sql: string;
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
      await db.exec(`BEGIN;
        SELECT pg_advisory_xact_lock(724301);
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
