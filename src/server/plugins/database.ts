import fp from 'fastify-plugin';
import type { AppConfig } from '#server/config.ts';
import { migrate } from '#server/db/migrations.ts';
import { openDatabase } from '#server/db/open.ts';

/**
 * The database (PGlite in DATA_DIR, or PostgreSQL), migrated to this version, as `app.db`; closed
 * (and its data directory's lock released) when the server closes.
 */
export const databasePlugin = fp<{ config: AppConfig }>(
  async (app, { config }) => {
    const { db, release } = await openDatabase(config);
    app.addHook('onClose', async () => {
      await db.close();
      release();
    });
    await migrate(db);
    app.decorate('db', db);
  },
  { name: 'database' },
);
