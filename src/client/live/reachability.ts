/**
 * Whether this page reaches its server, as the HTTP calls and a light probe see it. A live feed that
 * dropped waits out its backoff (1, 2, 4 … 30 s) in case the server is down; when the server was
 * unreachable and answers again (the network came back after a tunnel or a dead zone), the feeds
 * reconnect at once instead of waiting for their next slot.
 *
 * Only a change from unreachable to reached counts: a feed refused by a server that answers HTTP keeps
 * its backoff, so a failing feed endpoint is never hammered.
 */
import { apiBaseUrl } from '#client/config/runtime-config.ts';
import { listeners } from '#client/listeners.ts';

/** The probe's pace while a feed is down: every second for the first minute, then every 5 s. */
export const PROBE_FAST_MS = 1_000;
export const PROBE_SLOW_MS = 5_000;
export const PROBE_FAST_FOR_MS = 60_000;
const PROBE_TIMEOUT_MS = 2_000;

const changes = listeners();
let unreachable = false;

/** Calls `callback` each time the server answers after having been unreachable; returns the unsubscribe. */
export function onServerRegained(callback: () => void): () => void {
  return changes.subscribe(callback);
}

/** A call failed for want of a network (no answer at all, or the device's offline copy served). */
export function noteServerUnreachable(): void {
  unreachable = true;
}

/** The server itself answered a call. */
export function noteServerReached(): void {
  if (!unreachable) return;
  unreachable = false;
  changes.emit();
}

/** One cheap unauthenticated call (`GET /health`, never cached): does the server answer? */
export async function probeServer(fetchImpl: typeof fetch = globalThis.fetch): Promise<boolean> {
  try {
    const response = await fetchImpl(`${apiBaseUrl()}/health`, { cache: 'no-store', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    return response.ok;
  } catch {
    return false;
  }
}

export interface ProbeLoop {
  /** Starts probing if `needed()` and not already probing. */
  wake(): void;
  stop(): void;
}

/**
 * Probes while `needed()` (a live feed is down): a failure marks the server unreachable, a success
 * marks it reached (which reconnects the feeds if it had been unreachable). Stops by itself once no
 * feed is down.
 */
export function createProbeLoop(
  needed: () => boolean,
  probe: () => Promise<boolean> = () => probeServer(),
  timers: { setTimeout: (fn: () => void, ms: number) => unknown; clearTimeout: (id: unknown) => void } = {
    setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
    clearTimeout: (id) => globalThis.clearTimeout(id as ReturnType<typeof globalThis.setTimeout>),
  },
  now: () => number = Date.now,
): ProbeLoop {
  let running = false;
  let timer: unknown = null;
  let since = 0;
  const schedule = () => {
    const pace = now() - since < PROBE_FAST_FOR_MS ? PROBE_FAST_MS : PROBE_SLOW_MS;
    timer = timers.setTimeout(() => {
      timer = null;
      void tick();
    }, pace);
  };
  const tick = async () => {
    if (!running) return;
    if (!needed()) {
      running = false;
      return;
    }
    const answered = await probe();
    if (!running) return;
    if (answered) noteServerReached();
    else noteServerUnreachable();
    if (needed()) schedule();
    else running = false;
  };
  return {
    wake() {
      if (running || !needed()) return;
      running = true;
      since = now();
      schedule();
    },
    stop() {
      running = false;
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
    },
  };
}
