import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** How a channel's values cross the wire (Maps, for one, are not JSON). */
export interface Codec<T> {
  encode(value: T): unknown;
  decode(wire: unknown): T;
}

type Handler = (value: unknown) => void | Promise<void>;

export interface PublishOptions {
  /** Only the other instances hear it (this one has counted it already). */
  remoteOnly?: boolean;
}

/**
 * Messages between the instances of one installation. A message published here reaches this
 * instance's subscribers at once (the value itself, awaited) and, with Redis, every other
 * instance's (through pub/sub, encoded). One instance alone has the same path without Redis.
 */
export abstract class Bus {
  /** This instance, as the others know it. */
  readonly id = randomUUID();
  private readonly handlers = new Map<string, Set<{ handler: Handler; codec: Codec<unknown> | undefined }>>();

  /** Does another instance hear this one (Redis)? */
  abstract readonly shared: boolean;

  subscribe<T>(channel: string, handler: (value: T) => void | Promise<void>, codec?: Codec<T>): () => void {
    const set = this.handlers.get(channel) ?? new Set();
    const entry = { handler: handler as Handler, codec: codec as Codec<unknown> | undefined };
    set.add(entry);
    this.handlers.set(channel, set);
    return () => set.delete(entry);
  }

  async publish<T>(channel: string, value: T, codec?: Codec<T>, options: PublishOptions = {}): Promise<void> {
    if (this.shared) this.send(channel, codec ? codec.encode(value) : value);
    if (options.remoteOnly) return;
    await Promise.all([...(this.handlers.get(channel) ?? [])].map(async ({ handler }) => handler(value)));
  }

  /** A message from another instance: decoded per subscriber. */
  protected deliver(channel: string, wire: unknown, onError: (err: unknown) => void): void {
    for (const { handler, codec } of this.handlers.get(channel) ?? []) {
      try {
        Promise.resolve(handler(codec ? codec.decode(wire) : wire)).catch(onError);
      } catch (err) {
        onError(err);
      }
    }
  }

  protected abstract send(channel: string, wire: unknown): void;
  abstract close(): Promise<void>;
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

  protected send(channel: string, wire: unknown): void {
    const envelope: Envelope = { from: this.id, channel, value: wire };
    this.client.publish(this.topic, JSON.stringify(envelope)).catch(this.onError);
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
