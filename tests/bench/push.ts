// Push that one user cannot clog (issue 39): an alert's delay to an investor's phone that answers at
// once, alone, then while another user holds as many devices as they may and every one of them
// answers after 5 s, then never (the dispatcher's 10 s deadline). In process, on embedded PGlite, as
// the server runs it, against the local push-service stand-in (tests/integration/helpers/push-service.ts).
// The dispatcher's timer is off: each alert is recorded, then one round is run, and the delay is
// from the alert's insert to the phone's push service receiving it. Bounded: 3 × 20 alerts, 250 ms apart.
import { buildApp } from '#server/app.ts';
import { DEFAULT_AUTH, DEFAULT_MARKET } from '#server/config.ts';
import { insertAlerts } from '#server/db/alerts-repo.ts';
import { startPushService } from '../integration/helpers/push-service.ts';

const ALERTS = 20;
const SPACING_MS = 250;
/** Subscriptions the slow user attempts (the finding's flood was 10,000; the limit keeps 10). */
const FLOOD = 200;
/** The target: the delay with the slow devices, against the delay without, p50. */
const RATIO_TARGET = 2;

const pct = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function benchPush(): Promise<Record<string, string>> {
  const service = await startPushService();
  const app = await buildApp({
    port: 0, host: '127.0.0.1', dataDir: '', inMemory: true, databaseUrl: undefined, redisUrl: undefined, demo: true, staticDir: undefined,
    logLevel: 'silent', auth: DEFAULT_AUTH, market: { ...DEFAULT_MARKET, tickMs: 0, autoTrade: false, historyMonths: 1 },
    push: { serviceOrigins: [service.origin], subject: 'mailto:bench@copy-monitor.invalid', delivery: { intervalMs: 3_600_000 } },
  });
  try {
    const keyOf = async (username: string, password: string) => {
      const res = await app.inject({ method: 'POST', url: '/api/login', payload: { username, password } });
      return res.json<{ data: { api_key: string } }>().data.api_key;
    };
    const subscribe = async (key: string, device: string) => {
      const res = await app.inject({ method: 'POST', url: '/api/push/subscriptions', headers: { 'x-api-key': key }, payload: service.browser(device).subscription });
      if (res.statusCode !== 200) throw new Error(`subscribing ${device}: ${res.statusCode} ${res.body}`);
    };
    const investor = await keyOf('investor', 'investor-demo');
    const manager = await keyOf('manager', 'manager-demo');
    await subscribe(investor, 'phone');

    const received = (device: string) => service.received.filter((r) => r.device === device);
    /** Delays (ms) of ALERTS bridge alerts to the phone, each awaited (at most 5 s) before the next. */
    const delays = async (label: string): Promise<number[]> => {
      const out: number[] = [];
      for (let i = 0; i < ALERTS; i++) {
        const before = received('phone').length;
        const t0 = performance.now();
        await insertAlerts(app.db, [{ type: 'bridge', message: `${label} ${i}`, at: Date.now() / 1000, accountId: null }]);
        await app.pushDispatcher.tick();
        while (received('phone').length === before && performance.now() - t0 < 5_000) await sleep(1);
        const arrived = received('phone')[before];
        out.push(arrived ? arrived.at - t0 : Infinity);
        await sleep(SPACING_MS);
      }
      return out;
    };

    const alone = await delays('alone');

    // The flood: the manager (read-only on the phone's alerts) subscribes FLOOD devices; 10 are kept.
    const t0 = performance.now();
    const flood = Array.from({ length: FLOOD }, (_, i) => `slow-${i}`);
    for (const device of flood) await subscribe(manager, device);
    const floodMs = performance.now() - t0;
    const [counted] = await app.db.query<{ kept: number }>(
      "SELECT count(*)::int AS kept FROM push_subscriptions s JOIN users u ON u.id = s.user_id WHERE u.username = 'manager'",
    );
    const kept = counted?.kept ?? 0;
    for (const device of flood) service.answer(device, 201, { delayMs: 5_000 });
    const slowly = await delays('slow');
    const slowPosts = flood.reduce((n, d) => n + received(d).length, 0);
    const pendingAtEnd = service.pending(flood);

    for (const device of flood) service.answer(device, 201, { hold: true });
    const hanging = await delays('hanging');
    const load = app.pushDispatcher.load;

    const fmt = (values: number[]) => `${pct(values, 50).toFixed(1)} / ${pct(values, 95).toFixed(1)} / ${Math.max(...values).toFixed(1)} ms`;
    const ratio = (values: number[]) => pct(values, 50) / Math.max(0.1, pct(alone, 50));
    const verdict = (values: number[]) => (ratio(values) <= RATIO_TARGET ? 'meets' : 'OVER TARGET');
    return {
      'push: alert → a fast phone, no other device, p50 / p95 / max': fmt(alone),
      [`push: ${FLOOD} subscriptions by one user: kept / time`]: `${kept} / ${(floodMs / 1000).toFixed(1)} s`,
      'push: the same while that user’s devices answer after 5 s, p50 / p95 / max': `${fmt(slowly)}; ×${ratio(slowly).toFixed(2)} (target ≤ ${RATIO_TARGET}: ${verdict(slowly)})`,
      'push: the same while they never answer (10 s deadline), p50 / p95 / max': `${fmt(hanging)}; ×${ratio(hanging).toFixed(2)} (target ≤ ${RATIO_TARGET}: ${verdict(hanging)})`,
      'push: the slow devices’ posts during the 5 s run (taken / still pending at its end)': `${slowPosts} / ${pendingAtEnd}`,
      'push: dispatcher at the end: in flight / of them slow / queued': `${load.inFlight} / ${load.slowInFlight} / ${load.queued}`,
    };
  } finally {
    await app.close();
    await service.close();
  }
}
