/**
 * A clean shutdown with two instances on one PostgreSQL and one Redis: an instance told SIGTERM
 * takes no lock and starts no work once 'shutting down' began, and a leader gives the lock up (its
 * work finished) before its pool closes, so the other takes over. Both are killed with SIGTERM at the
 * same moment too, the case where one releases the lock just as the other's retry comes round.
 * Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set (.ci/run sets both).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { CLUSTER_DB, CLUSTER_REDIS, freePort, freshSchema, startInstance, stopInstance, type Instance } from './helpers/cluster.ts';

interface Line {
  time: number;
  msg?: string;
  level: number;
  err?: { message?: string };
}

const linesOf = (instance: Instance): Line[] =>
  instance
    .log()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);

/** What it logged from 'shutting down' on. */
function afterShutdown(instance: Instance): Line[] {
  const lines = linesOf(instance);
  const from = lines.findIndex((l) => l.msg === 'shutting down');
  expect(from, 'the instance logged that it was shutting down').toBeGreaterThanOrEqual(0);
  return lines.slice(from);
}

const leads = async (i: Instance) => ((await (await fetch(`${i.url}/ready`)).json()) as { market: { running: boolean } }).market.running;
const exitCode = (i: Instance) => new Promise<number | null>((resolve) => (i.child.exitCode !== null ? resolve(i.child.exitCode) : i.child.once('exit', (code) => resolve(code))));

describe.runIf(CLUSTER_DB && CLUSTER_REDIS)('shutting down beside another instance', () => {
  const started: Instance[] = [];
  const drops: (() => Promise<void>)[] = [];

  async function pair(): Promise<[Instance, Instance]> {
    const { schema, drop } = await freshSchema('shutdown');
    drops.push(drop);
    const env = { DATABASE_URL: CLUSTER_DB!, DATABASE_SCHEMA: schema, REDIS_URL: CLUSTER_REDIS!, DEMO: '1' };
    const leader = await startInstance(env, await freePort());
    const other = await startInstance(env, await freePort());
    started.push(leader, other);
    expect(await leads(leader)).toBe(true);
    expect(await leads(other)).toBe(false);
    return [leader, other];
  }

  afterAll(async () => {
    await Promise.all(started.map((i) => stopInstance(i)));
    for (const drop of drops) await drop();
  }, 60_000);

  it('a leader told SIGTERM stops copying, gives the lock up before its pool closes, and the other takes over', async () => {
    const [leader, other] = await pair();
    const exited = exitCode(leader);
    leader.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const after = afterShutdown(leader);
    expect(after.map((l) => l.msg)).toContain('gave the market lock up: another instance may take over');
    // Nothing ran against a closed pool, nothing failed on the way out.
    expect(after.filter((l) => l.level >= 50)).toEqual([]);
    expect(leader.log()).not.toMatch(/Cannot use a pool after calling end/);
    await expect.poll(() => leads(other), { timeout: 15_000, interval: 250 }).toBe(true);
  }, 60_000);

  it('two instances told SIGTERM together: neither takes the lock once shutting down, both exit cleanly', async () => {
    const [leader, other] = await pair();
    const exits = [exitCode(leader), exitCode(other)];
    leader.child.kill('SIGTERM');
    other.child.kill('SIGTERM');
    expect(await Promise.all(exits)).toEqual([0, 0]);
    const after = afterShutdown(other);
    expect(after.map((l) => l.msg)).not.toContain('this instance took the market lock: it runs the market and the copy engine');
    for (const i of [leader, other]) {
      expect(afterShutdown(i).filter((l) => l.level >= 50)).toEqual([]);
      expect(i.log()).not.toMatch(/Cannot use a pool after calling end/);
    }
  }, 60_000);
});
