import fp from 'fastify-plugin';
import { DEFAULT_PUSH_SERVICE_ORIGINS, type PushConfig } from '#server/config.ts';
import type { Database } from '#server/db/database.ts';
import { DEFAULT_DISPATCHER, PushDispatcher } from '#server/push/dispatcher.ts';
import { PushService } from '#server/services/push-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Web Push: subscriptions and the VAPID identity; the dispatcher posts alerts from the leader. */
    push: PushService;
    pushDispatcher: PushDispatcher;
  }
}

export interface PushPluginOptions {
  db: Database;
  /** Web Push settings; unset: the browsers' push services and a placeholder contact. */
  config: PushConfig | undefined;
  /** Whether this process leads (only the leader posts). */
  market: { readonly isLeader: boolean };
}

/** Web Push (docs/push.md): the service the routes call (`app.push`) and the dispatcher that delivers (`app.pushDispatcher`). */
export const pushPlugin = fp<PushPluginOptions>(
  async (app, { db, config, market }) => {
    const push = new PushService(db, config ?? { serviceOrigins: DEFAULT_PUSH_SERVICE_ORIGINS, subject: 'mailto:operator@copy-monitor.invalid' });
    const pushDispatcher = new PushDispatcher(db, push, () => market.isLeader, app.log, { ...DEFAULT_DISPATCHER, ...push.config.delivery });
    app.decorate('push', push);
    app.decorate('pushDispatcher', pushDispatcher);
    pushDispatcher.start();
    app.addHook('onClose', () => pushDispatcher.stop());
  },
  { name: 'push' },
);
