import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

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
  close(): Promise<void>;
}

const NUMERIC_OID = 1700;
const INT8_OID = 20;
// Money lives in NUMERIC columns and sums are made in SQL; the wire carries JSON numbers,
// so both drivers hand NUMERIC and BIGINT (counts) to the program as numbers.
const toNumber = (value: string): number => Number(value);

export async function openPglite(dataDir: string | null): Promise<Database> {
  const options = { parsers: { [NUMERIC_OID]: toNumber, [INT8_OID]: toNumber } };
  let db: PGlite;
  if (dataDir) {
    const dir = path.join(dataDir, 'pgdata');
    fs.mkdirSync(dir, { recursive: true });
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
    types,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  pool.on('error', () => {
    /* an idle client died; the pool replaces it on next use */
  });
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(schema)}`);
  return {
    kind: 'postgres',
    async query<T extends object>(sql: string, params: readonly unknown[] = []) {
      const res = await pool.query(sql, params as unknown[]);
      return res.rows as T[];
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      const client = await pool.connect();
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
        await client.query('ROLLBACK');
        throw err;
      } finally {
        client.release();
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
    async close() {
      await pool.end();
    },
  };
}
