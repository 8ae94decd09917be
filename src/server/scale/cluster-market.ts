import { NotLeading } from '#server/broker/errors.ts';
import type { BrokerAdapter, InTransaction, MarketSnapshot, OpenOrder, TradeEvent } from '#server/broker/port.ts';
import { Listeners } from '#server/broker/listeners.ts';
import type { Bus, Codec } from './bus.ts';

const SNAPSHOTS = 'market:snapshot';
const HELLO = 'market:hello';
const HEARTBEAT = 'market:heartbeat';
/** The leader says it is there this often, whether or not the market changed (agents only, quiet terminals). */
const HEARTBEAT_MS = 2_000;

/** A snapshot on the wire: its maps as entry lists. */
export const snapshotCodec: Codec<MarketSnapshot> = {
  encode: (s) => ({
    at: s.at,
    seq: s.seq,
    instruments: [...s.instruments],
    rates: [...s.rates],
    mids: [...s.mids],
    accounts: [...s.accounts],
    positions: s.positions,
  }),
  decode: (wire) => {
    const w = wire as { [K in keyof MarketSnapshot]: MarketSnapshot[K] extends ReadonlyMap<infer A, infer B> ? [A, B][] : MarketSnapshot[K] };
    return {
      at: w.at,
      seq: w.seq,
      instruments: new Map(w.instruments),
      rates: new Map(w.rates),
      mids: new Map(w.mids),
      accounts: new Map(w.accounts),
      positions: w.positions,
    };
  },
};

export const EMPTY_SNAPSHOT: MarketSnapshot = {
  at: 0,
  seq: 0,
  instruments: new Map(),
  rates: new Map(),
  mids: new Map(),
  accounts: new Map(),
  positions: [],
};

const notLeading = () => new NotLeading();

/**
 * The market as every instance of an installation sees it. The leader runs the broker adapters
 * (the simulated market, the terminal agents) and publishes each snapshot; every instance, the
 * leader too, hears the snapshots on the bus and serves them to its own sockets and routes. Orders
 * go to the leader's copy engine (ClusterOrders); on another instance this adapter refuses them.
 */
export class ClusterMarket implements BrokerAdapter {
  private leading = false;
  private latest: MarketSnapshot = EMPTY_SNAPSHOT;
  /** When this instance last heard a snapshot (ms, its own clock). */
  private heardAt = 0;
  private readonly listeners = new Listeners<MarketSnapshot>();
  private readonly heartbeat: NodeJS.Timeout | undefined;

  constructor(
    readonly local: BrokerAdapter,
    private readonly bus: Bus,
    private readonly onError: (err: unknown) => void,
  ) {
    local.onUpdate((snapshot) => {
      if (this.leading) this.bus.publish(SNAPSHOTS, snapshot, snapshotCodec).catch(onError);
    });
    bus.subscribe(
      SNAPSHOTS,
      (snapshot) => {
        this.latest = snapshot;
        this.heardAt = Date.now();
        this.listeners.notify(snapshot);
      },
      snapshotCodec,
    );
    bus.subscribe(HEARTBEAT, () => {
      this.heardAt = Date.now();
    });
    // Only other instances need it.
    this.heartbeat = bus.shared
      ? setInterval(() => {
          if (this.leading) this.bus.publish(HEARTBEAT, 0, undefined, { remoteOnly: true }).catch(onError);
        }, HEARTBEAT_MS)
      : undefined;
    this.heartbeat?.unref();
    bus.subscribe(HELLO, () => {
      if (this.leading) this.bus.publish(SNAPSHOTS, this.local.snapshot(), snapshotCodec, { remoteOnly: true }).catch(onError);
    });
  }

  /** Asks the leader for its snapshot now (an instance that just started). */
  greet(): Promise<void> {
    return this.bus.publish(HELLO, 0, undefined, { remoteOnly: true });
  }

  get isLeader(): boolean {
    return this.leading;
  }

  /** How long since the leader was last heard (a snapshot or its heartbeat), ms; Infinity before the first. */
  get silenceMs(): number {
    return this.heardAt === 0 ? Infinity : Date.now() - this.heardAt;
  }

  /** This instance runs the market from now on (its adapters started or resumed). */
  lead(): void {
    this.leading = true;
    this.latest = this.local.snapshot();
    this.heardAt = Date.now();
    this.listeners.notify(this.latest);
    this.bus.publish(SNAPSHOTS, this.latest, snapshotCodec, { remoteOnly: true }).catch(this.onError);
  }

  /** Another instance runs it: this one shows what the leader publishes. */
  follow(): void {
    this.leading = false;
  }

  async start(): Promise<void> {}

  async stop(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.local.stop();
  }

  pause(): void {
    this.local.pause();
  }

  resume(): Promise<void> {
    return this.local.resume();
  }

  get ticks(): number {
    return this.local.ticks;
  }

  snapshot(): MarketSnapshot {
    return this.leading ? this.local.snapshot() : this.latest;
  }

  onUpdate(listener: (snapshot: MarketSnapshot) => void): () => void {
    return this.listeners.add(listener);
  }

  onTrade(listener: (event: TradeEvent) => Promise<void>): () => void {
    return this.local.onTrade(listener);
  }

  open(order: OpenOrder): Promise<void> {
    if (!this.leading && this.bus.shared) throw notLeading();
    return this.local.open(order);
  }

  modifyStops(ids: readonly number[], tp: number | null, sl: number | null, inTx?: InTransaction): Promise<number> {
    if (!this.leading && this.bus.shared) throw notLeading();
    return this.local.modifyStops(ids, tp, sl, inTx);
  }

  close(ids: readonly number[], inTx?: InTransaction): Promise<number> {
    if (!this.leading && this.bus.shared) throw notLeading();
    return this.local.close(ids, inTx);
  }
}
