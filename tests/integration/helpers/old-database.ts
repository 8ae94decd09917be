import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPglite, openPostgres, type Database } from '#server/db/database.ts';
import { MIGRATIONS } from '#server/db/migrations.ts';
import type { Backend } from './server.ts';

/** A database as the version before migration `next` left it: every migration below it applied, none from it. */
export interface OldDatabase {
  db: Database;
  /** The migrations from `next` on, in order: what `migrate` is expected to apply. */
  pending: number[];
  /** Closes the database and drops its PostgreSQL schema. */
  drop: () => Promise<void>;
}

export async function databaseBefore(backend: Backend, next: number): Promise<OldDatabase> {
  const schema = backend === 'postgres' ? `t_${randomBytes(6).toString('hex')}` : undefined;
  const db = backend === 'postgres' ? await openPostgres(process.env.TEST_DATABASE_URL!, schema) : await openPglite(null);
  await db.exec('CREATE TABLE schema_migrations (version INT PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
  for (const m of MIGRATIONS.filter((x) => x.version < next)) {
    await db.exec(`BEGIN; ${m.prelude ? await m.prelude(db) : ''} ${m.sql}; INSERT INTO schema_migrations (version, name) VALUES (${m.version}, 'v${m.version}'); COMMIT;`);
  }
  return {
    db,
    pending: MIGRATIONS.filter((x) => x.version >= next).map((x) => x.version),
    drop: async () => {
      await db.close();
      if (!schema) return;
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}
