import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { z } from 'zod';
import type { Channel } from './channels.ts';

export type { Channel };

type Handler = (value: unknown) => void | Promise<void>;

export interface PublishOptions {
  /** Only the other instances hear it (this one has counted it already). */
  remoteOnly?: boolean;
}

/**
 * Messages between the instances of one installation, on the channels of channels.ts. A message
 * published here reaches this instance's subscribers at once (the value itself, awaited) and, with
 * Redis, every other instance's (through pub/sub, encoded by its channel's schema, and decoded by it
 * there: a payload that fails the schema is reported to onError and dropped). One instance alone
 * has the same path without Redis.
 */
export abstract class Bus {
  /** This instance, as the others know it. */
  readonly id = randomUUID();
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly schemas = new Map<string, z.ZodType>();

  /** Does another instance hear this one (Redis)? */
  abstract readonly shared: boolean;

  subscribe<T>(channel: Channel<T>, handler: (value: T) => void | Promise<void>): () => void {
    const set = this.handlers.get(channel.name) ?? new Set();
    const entry = handler as Handler;
    set.add(entry);
    this.handlers.set(channel.name, set);
    this.schemas.set(channel.name, channel.schema);
    return () => set.delete(entry);
  }

  async publish<T>(channel: Channel<T>, value: T, options: PublishOptions = {}): Promise<void> {
    if (this.shared) this.send(channel.name, z.encode(channel.schema, value));
    if (options.remoteOnly) return;
    await Promise.all([...(this.handlers.get(channel.name) ?? [])].map(async (handler) => handler(value)));
  }

  /** A message from another instance: decoded once by its channel's schema, then handed to each subscriber. */
  protected deliver(name: string, wire: unknown, onError: (err: unknown) => void): void {
    const handlers = this.handlers.get(name);
    const schema = this.schemas.get(name);
    if (!handlers?.size || !schema) return;
    const decoded = schema.safeParse(wire);
    if (!decoded.success) {
      onError(new Error(`A message on the bus channel '${name}' does not match its schema, dropped: ${z.prettifyError(decoded.error)}`));
      return;
    }
    for (const handler of handlers) {
      try {
        Promise.resolve(handler(decoded.data)).catch(onError);
      } catch (err) {
        onError(err);
      }
    }
  }

  /**
   * Told each time this instance reaches Redis again after losing it (never with one instance): what
   * the others said meanwhile was not heard, so whoever keeps state from messages reads it again.
   */
  onRegained(_listener: () => void): () => void {
    return () => {};
  }

  protected abstract send(channel: string, wire: unknown): void;
  abstract close(): Promise<void>;
}

/** How long a readiness check waits for Redis's PING. */
const REDIS_PING_TIMEOUT_MS = 1_000;

/** Whether this instance reaches Redis, as the readiness check needs it. */
export interface RedisHealth {
  ok: boolean;
  message?: string;
}

/** One instance: messages stay in the process. */
export class LocalBus extends Bus {
  readonly shared = false;
  protected send(): void {}
  async close(): Promise<void> {}
}

interface Envelope {
  from: string;
  channel: string;
  value: unknown;
}

/**
 * Several instances: one Redis channel per installation (its namespace), each message tagged with
 * the instance that sent it, which does not hear it back. A second connection serves commands (the
 * rate limiter's counters, the last snapshot), as a subscribed connection takes no other command.
 */
export class RedisBus extends Bus {
  readonly shared = true;
  private readonly topic: string;
  private readonly regained = new Set<() => void>();

  private constructor(
    readonly client: Redis,
    private readonly subscriber: Redis,
    readonly namespace: string,
    private readonly onError: (err: unknown) => void,
  ) {
    super();
    this.topic = `${namespace}:bus`;
  }

  static async connect(url: string, namespace: string, onError: (err: unknown) => void): Promise<RedisBus> {
    const options = { lazyConnect: true, maxRetriesPerRequest: 2, connectTimeout: 5_000 };
    const client = new Redis(url, options);
    const subscriber = new Redis(url, options);
    // ioredis reconnects by itself; an error is logged, not thrown at the process.
    client.on('error', onError);
    subscriber.on('error', onError);
    try {
      await Promise.all([client.connect(), subscriber.connect()]);
    } catch (err) {
      client.disconnect();
      subscriber.disconnect();
      throw new Error(`Redis at ${url.replace(/\/\/[^@/]*@/, '//***@')} is unreachable: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    const bus = new RedisBus(client, subscriber, namespace, onError);
    await subscriber.subscribe(bus.topic);
    // Connected already: a later 'ready' is a reconnection (ioredis subscribes again by itself).
    subscriber.on('ready', () => {
      for (const listener of bus.regained) listener();
    });
    subscriber.on('message', (_topic: string, text: string) => {
      let envelope: Envelope;
      try {
        envelope = JSON.parse(text) as Envelope;
      } catch (err) {
        onError(err);
        return;
      }
      if (envelope.from === bus.id) return;
      bus.deliver(envelope.channel, envelope.value, onError);
    });
    return bus;
  }

  override onRegained(listener: () => void): () => void {
    this.regained.add(listener);
    return () => this.regained.delete(listener);
  }

  /** Both connections up and a PING answered within a second: a partition that leaves the sockets open is caught too. */
  async health(): Promise<RedisHealth> {
    for (const [name, connection] of [['command', this.client], ['subscriber', this.subscriber]] as const) {
      if (connection.status !== 'ready') return { ok: false, message: `Redis ${name} connection ${connection.status}` };
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), REDIS_PING_TIMEOUT_MS)));
    try {
      const answer = await Promise.race([this.client.ping(), late]);
      return answer === 'late' ? { ok: false, message: `Redis did not answer PING within ${REDIS_PING_TIMEOUT_MS} ms` } : { ok: true };
    } catch (err) {
      return { ok: false, message: `Redis PING failed: ${err instanceof Error ? err.message : String(err)}` };
    } finally {
      clearTimeout(timer);
    }
  }

  protected send(channel: string, wire: unknown): void {
    const envelope: Envelope = { from: this.id, channel, value: wire };
    this.client.publish(this.topic, JSON.stringify(envelope)).catch(this.onError);
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
