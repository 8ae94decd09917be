import fp from 'fastify-plugin';
import { LIVE_CLOSE } from '#shared/contract/live.ts';
import type { AuthStore } from '#server/auth/auth-store.ts';
import type { BrokerAdapter } from '#server/broker/port.ts';
import type { Database } from '#server/db/database.ts';
import { ExcursionCache } from '#server/live/excursion-cache.ts';
import { LiveHub } from '#server/live/live-hub.ts';
import type { Changes } from '#server/scale/changes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The excursions of the trades (the live feeds' MAE/MFE columns, GET mae-mfe). */
    excursions: ExcursionCache;
  }
}

const SESSION_SWEEP_MS = 500;

export interface LivePluginOptions {
  db: Database;
  market: BrokerAdapter;
  changes: Changes;
  authStore: AuthStore;
  /** How often a live feed sends its snapshot. */
  feedIntervalMs: number;
  /** The market's clock. */
  now: () => number;
}

/**
 * The live feeds' hub (`app.hub`, `app.excursions`): every market update bumps the generation of
 * cached answers and reaches the open sockets. A session that ends (sign-out, a disabled user, a
 * new password, expiry) loses its sockets within a second, whichever process ended it: the open
 * sockets' sessions are checked against the database.
 */
export const livePlugin = fp<LivePluginOptions>(
  async (app, { db, market, changes, authStore, feedIntervalMs, now }) => {
    const excursions = new ExcursionCache(db, now);
    await excursions.refresh(true);
    const hub = new LiveHub(excursions, feedIntervalMs, Date.now, (err) => app.log.error({ err }, 'a live feed failed'));
    market.onUpdate((snapshot) => {
      changes.seen();
      hub.update(snapshot);
    });
    app.decorate('excursions', excursions);
    app.decorate('hub', hub);
    app.addHook('onClose', async () => hub.close());

    const sweep = setInterval(() => {
      const open = hub.sessions();
      if (open.length === 0) return;
      authStore.liveSessions(open).then(
        (live) => {
          const ended = new Set(open.filter((id) => !live.has(id)));
          if (ended.size) hub.closeSessions(ended, LIVE_CLOSE.unauthorized, 'Your session has ended. Please sign in again.');
        },
        (err: unknown) => app.log.warn({ err }, 'session sweep failed'),
      );
    }, SESSION_SWEEP_MS);
    sweep.unref();
    app.addHook('onClose', async () => clearInterval(sweep));
  },
  { name: 'live' },
);
