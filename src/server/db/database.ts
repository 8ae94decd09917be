import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);

/**
 * Is this error the database being out of reach (down, restarting, refusing connections, a
 * connection cut), rather than a fault of the statement? Those answer 503 and heal by themselves.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (CONNECTION_CODES.has(code)) return true;
    // SQLSTATE class 08 (connection exception), 57P01-57P03 (shutdown, crash, cannot connect now).
    if (/^08...$/.test(code) || /^57P0[1-3]$/.test(code)) return true;
  }
  return /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|connection is closed/i.test(
    err.message,
  );
}

/** Anything that runs a parameterised SQL statement: the database or one transaction. */
export interface Queryable {
  query<T extends object>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction; rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs a script of several statements (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Takes a lock named `name` for as long as this process holds it (a PostgreSQL session advisory
   * lock on a connection of its own, scoped to the schema; the embedded database is one process's
   * already). null when another process holds it. `onLost` is called if the lock's connection dies.
   */
  holdLock(name: string, onLost: (err: unknown) => void): Promise<(() => Promise<void>) | null>;
  /** Connections of the pool (PostgreSQL), for /metrics. */
  poolStats(): { total: number; idle: number; waiting: number } | undefined;
  close(): Promise<void>;
}

const NUMERIC_OID = 1700;
const INT8_OID = 20;
// Money lives in NUMERIC columns and sums are made in SQL; the wire carries JSON numbers,
// so both drivers hand NUMERIC and BIGINT (counts) to the program as numbers.
const toNumber = (value: string): number => Number(value);

export async function openPglite(dataDir: string | null): Promise<Database> {
  // PostgreSQL's buffer pool lives in the WASM heap, whose pages stay resident once touched and never
  // shrink: 32 MB instead of the default 128 MB (the demo's database is about 45 MB on disk and what
  // the pool misses comes from the page cache). One backend runs, so the tables sized per connection
  // (processes, locks) are sized for a few. docs/benchmarks.md ("Memory of the embedded server") has the figures.
  const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB', '-c', 'max_connections=10'];
  const options = { parsers: { [NUMERIC_OID]: toNumber, [INT8_OID]: toNumber }, startParams };
  let db: PGlite;
  if (dataDir) {
    const dir = path.join(dataDir, 'pgdata');
    fs.mkdirSync(dir, { recursive: true });
    // PGlite creates a database with a second, temporary PostgreSQL instance (initdb), and what that
    // touches stays resident in the process (about 110 MB of native heap, measured): a child process
    // creates it and exits, and this one opens the result as it would after a restart. The child
    // works in a folder of its own, renamed into place once complete, and ends soon after this
    // process does (its stdin closes): a start killed meanwhile leaves no half-made database, only
    // that folder, removed at a later start.
    const prefix = `${path.basename(dir)}.creating-`;
    for (const name of fs.readdirSync(dataDir)) {
      if (!name.startsWith(prefix)) continue;
      try {
        fs.rmSync(path.join(dataDir, name), { recursive: true, force: true });
      } catch {
        // Its child may still be writing it: the next start removes it.
      }
    }
    if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) {
      const fresh = path.join(dataDir, `${prefix}${process.pid}`);
      const script =
        "process.stdin.on('end', () => process.exit(1)).resume(); const { PGlite } = await import(process.argv[1]);" +
        ' await (await PGlite.create(process.argv[2])).close(); process.exit(0);';
      const child = spawn(process.execPath, ['--input-type=module', '-e', script, import.meta.resolve('@electric-sql/pglite'), fresh], {
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const [code] = (await once(child, 'exit')) as [number | null];
      child.stdin.destroy();
      if (code !== 0) throw new Error(`Could not create the embedded database in ${dir}: ${stderr.trim() || `exit code ${code}`}`);
      fs.rmSync(dir, { recursive: true, force: true });
      fs.renameSync(fresh, dir);
    }
    db = await PGlite.create(dir, options);
  } else {
    db = await PGlite.create(options);
  }
  return {
    kind: 'pglite',
    async query<T extends object>(sql: string, params: readonly unknown[] = []) {
      const res = await db.query<T>(sql, params as unknown[]);
      return res.rows;
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return db.transaction(async (tx) =>
        fn({
          async query<R extends object>(sql: string, params: readonly unknown[] = []) {
            const res = await tx.query<R>(sql, params as unknown[]);
            return res.rows;
          },
        }),
      );
    },
    async exec(sql: string) {
      try {
        await db.exec(sql);
      } catch (err) {
        // A script that opened a transaction and failed leaves it aborted: end it here.
        await db.exec('ROLLBACK').catch(() => undefined);
        throw err;
      }
    },
    async holdLock() {
      return async () => {};
    },
    poolStats: () => undefined,
    async close() {
      await db.close();
    },
  };
}

export async function openPostgres(url: string, schema?: string): Promise<Database> {
  const types = {
    getTypeParser: (oid: number, format?: string) =>
      oid === NUMERIC_OID || oid === INT8_OID
        ? toNumber
        : (pg.types.getTypeParser as (o: number, f?: string) => (v: string) => unknown)(oid, format),
  };
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // An unreachable server fails a call in seconds (503) instead of holding it forever: a new
    // connection gives up after 5 s, a statement on a connection whose server went silent (a
    // network partition drops packets instead of refusing them) after 15 s, and TCP keepalive
    // finds such dead connections in the pool.
    connectionTimeoutMillis: 5_000,
    query_timeout: 15_000,
    keepAlive: true,
    types,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  pool.on('error', () => {
    /* an idle client died; the pool replaces it on next use */
  });
  if (schema) {
    // Instances starting together both try: IF NOT EXISTS is not atomic, and the loser's insert into
    // the catalogue fails on its unique index while the schema is there all the same.
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(schema)}`).catch((err: unknown) => {
      const code = (err as { code?: unknown }).code;
      if (code !== '23505' && code !== '42P06') throw err;
    });
  }
  return {
    kind: 'postgres',
    async query<T extends object>(sql: string, params: readonly unknown[] = []) {
      const res = await pool.query(sql, params as unknown[]);
      return res.rows as T[];
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await fn({
          async query<R extends object>(sql: string, params: readonly unknown[] = []) {
            const res = await client.query(sql, params as unknown[]);
            return res.rows as R[];
          },
        });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        // The first error is the one to report; a connection that cannot roll back is discarded.
        await client.query('ROLLBACK').catch((e: unknown) => {
          broken = e instanceof Error ? e : new Error(String(e));
        });
        throw err;
      } finally {
        client.release(broken);
      }
    },
    async exec(sql: string) {
      const client = await pool.connect();
      try {
        await client.query(sql);
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async holdLock(name: string, onLost: (err: unknown) => void) {
      const client = await pool.connect();
      let released = false;
      try {
        const rows = await client.query<{ ok: boolean }>(
          "SELECT pg_try_advisory_lock(hashtext(current_schema() || ':' || $1)) AS ok",
          [name],
        );
        if (!rows.rows[0]?.ok) {
          client.release();
          return null;
        }
      } catch (err) {
        client.release(true);
        throw err;
      }
      client.on('error', (err) => {
        if (!released) onLost(err);
      });
      return async () => {
        if (released) return;
        released = true;
        try {
          await client.query("SELECT pg_advisory_unlock(hashtext(current_schema() || ':' || $1))", [name]);
          client.release();
        } catch {
          client.release(true);
        }
      };
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await pool.end();
    },
  };
}
