import fp from 'fastify-plugin';
import type { AppConfig } from '#server/config.ts';
import { Changes } from '#server/scale/changes.ts';
import { LocalBus, RedisBus, type Bus } from '#server/scale/bus.ts';
import { channels } from '#server/scale/channels.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Messages between instances: Redis with REDIS_URL (several instances), else in this process. */
    bus: Bus;
  }
}

/** The namespace of this database's keys and channels in Redis. */
export const busNamespace = (config: Pick<AppConfig, 'databaseSchema'>): string => `ctm:${config.databaseSchema ?? 'public'}`;

/**
 * The bus between instances (`app.bus`, `app.redisState`) and the generation of what cached
 * answers read (`app.changes`): good until anything they read changes, on this instance or another.
 */
export const busPlugin = fp<{ config: Pick<AppConfig, 'redisUrl' | 'databaseSchema'> }>(
  async (app, { config }) => {
    const bus: Bus = config.redisUrl
      ? await RedisBus.connect(config.redisUrl, busNamespace(config), (err) => app.log.warn({ err }, 'redis'))
      : new LocalBus();
    app.addHook('onClose', async () => bus.close());
    app.decorate('bus', bus);
    app.decorate('redisState', () => (bus instanceof RedisBus ? bus.health() : undefined));

    const changes = new Changes();
    if (bus.shared) {
      changes.connect(() => void bus.publish(channels.changes, 0, { remoteOnly: true }).catch(() => undefined));
      bus.subscribe(channels.changes, () => changes.seen());
    }
    app.decorate('changes', changes);
  },
  { name: 'bus' },
);
