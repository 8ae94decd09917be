import type { AppConfig } from '#server/config.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { openPglite, openPostgres, type Database } from './database.ts';

/** The configured database: PostgreSQL, in-memory PGlite, or PGlite in the data directory (locked to this process). */
export async function openDatabase(config: AppConfig): Promise<{ db: Database; release: () => void }> {
  if (config.databaseUrl) return { db: await openPostgres(config.databaseUrl, config.databaseSchema), release: () => {} };
  if (config.inMemory) return { db: await openPglite(null), release: () => {} };
  const release = await lockDataDir(config.dataDir);
  try {
    return { db: await openPglite(config.dataDir), release };
  } catch (err) {
    release();
    throw err;
  }
}

