import { describe, expect, it } from 'vitest';
import type { Database } from '#server/db/database.ts';
import { Leadership } from './leadership.ts';

/** A database whose lock is free, and whose lock connection can be made to die. */
function fakeDb() {
  const state = { onLost: undefined as ((err: unknown) => void) | undefined, released: 0 };
  const db = {
    holdLock: async (_name: string, onLost: (err: unknown) => void) => {
      state.onLost = onLost;
      return async () => void state.released++;
    },
  } as unknown as Database;
  return { db, state };
}

const log = { info: () => {}, warn: () => {}, error: () => {} };

describe('leadership', () => {
  it('leads when the lock is free', async () => {
    const { db } = fakeDb();
    let led = 0;
    const l = new Leadership(db, 'm', 60_000, { log, lead: async () => void led++, lose: () => {} });
    expect(await l.attempt()).toBe(true);
    expect(l.leading).toBe(true);
    expect(led).toBe(1);
    await l.close();
  });

  it('does not stand as the leader when the lock is lost while taking the market over', async () => {
    const { db, state } = fakeDb();
    let lost = 0;
    const l = new Leadership(db, 'm', 60_000, {
      log,
      // The lock's connection dies while the market loads (a database blip).
      lead: async () => state.onLost?.(new Error('connection terminated')),
      lose: () => void lost++,
    });
    expect(await l.attempt()).toBe(false);
    expect(l.leading).toBe(false);
    expect(lost).toBe(1);
    expect(state.released).toBe(1);
    await l.close();
  });

  it('gives the lock back untouched when shutdown begins while it is being taken: the lead never starts', async () => {
    const steps: string[] = [];
    let grant: (() => void) | undefined;
    const db = {
      holdLock: (_name: string) =>
        new Promise<() => Promise<void>>((resolve) => {
          grant = () => resolve(async () => void steps.push('released'));
        }),
    } as unknown as Database;
    const l = new Leadership(db, 'm', 60_000, { log, lead: async () => void steps.push('lead'), lose: () => void steps.push('lose') });
    const attempt = l.attempt();
    const closed = l.close();
    grant!();
    expect(await attempt).toBe(false);
    await closed;
    expect(l.leading).toBe(false);
    expect(steps).not.toContain('lead');
    expect(steps.at(-1)).toBe('released');
    // No attempt after closing began.
    expect(await l.attempt()).toBe(false);
  });

  it('stops leading, lets the work under way finish, then gives the lock up, in that order, when it closes', async () => {
    const steps: string[] = [];
    const db = { holdLock: async () => async () => void steps.push('released') } as unknown as Database;
    const l = new Leadership(db, 'm', 60_000, {
      log,
      lead: async () => void steps.push('lead'),
      lose: () => void steps.push('lose'),
      settle: async () => {
        await new Promise((r) => setTimeout(r, 20));
        steps.push('settled');
      },
    });
    expect(await l.attempt()).toBe(true);
    await l.close();
    expect(steps).toEqual(['lead', 'lose', 'settled', 'released']);
  });
});
