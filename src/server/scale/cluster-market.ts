import { NotLeading } from '#server/broker/errors.ts';
import type { BrokerAdapter, InTransaction, MarketSnapshot, OpenOrder, SharedMarket, TradeEvent } from '#server/broker/port.ts';
import { Listeners } from '#server/broker/listeners.ts';
import type { Bus } from './bus.ts';
import { channels } from './channels.ts';

const SNAPSHOTS = channels.marketSnapshot;
const HELLO = channels.marketHello;
const HEARTBEAT = channels.marketHeartbeat;
/** The leader says it is there this often, whether or not the market changed (agents only, quiet terminals). */
const HEARTBEAT_MS = 2_000;

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
export class ClusterMarket implements SharedMarket {
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
      if (this.leading) this.bus.publish(SNAPSHOTS, snapshot).catch(onError);
    });
    bus.subscribe(
      SNAPSHOTS,
      (snapshot) => {
        this.latest = snapshot;
        this.heardAt = Date.now();
        this.listeners.notify(snapshot);
      },
    );
    bus.subscribe(HEARTBEAT, () => {
      this.heardAt = Date.now();
    });
    // Only other instances need it.
    this.heartbeat = bus.shared
      ? setInterval(() => {
          if (this.leading) this.bus.publish(HEARTBEAT, 0, { remoteOnly: true }).catch(onError);
        }, HEARTBEAT_MS)
      : undefined;
    this.heartbeat?.unref();
    bus.subscribe(HELLO, () => {
      if (this.leading) this.bus.publish(SNAPSHOTS, this.local.snapshot(), { remoteOnly: true }).catch(onError);
    });
  }

  /** Asks the leader for its snapshot now (an instance that just started). */
  greet(): Promise<void> {
    return this.bus.publish(HELLO, 0, { remoteOnly: true });
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
    this.bus.publish(SNAPSHOTS, this.latest, { remoteOnly: true }).catch(this.onError);
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
