import { describe, expect, it } from 'vitest';
import type { LiveAccount, MarketSnapshot } from '#server/broker/port.ts';
import type { AccountFigures, Ledger } from '#server/ledger/ledger.ts';
import { DayEnds } from './day-ends.ts';

const DAY_MS = 86_400_000;

function account(id: number, equity: number, lastUpdate: number): LiveAccount {
  return {
    id, account_id: `a-${id}`, account: String(id), account_name: `Account ${id}`,
    broker: { broker_name: 'Broker' } as LiveAccount['broker'], server: 's', server_name: 's', teiko_category: 'SMA', currency: 'USD',
    is_master: true, master_id: null, leverage: 100, balance: equity, equity, margin: 0, ping: 0, last_update: lastUpdate,
  };
}

/** The ledger's two calls the clock makes, recorded. */
function recordingLedger(): { ledger: Ledger; ended: { day: number; accounts: AccountFigures[] }[] } {
  const ended: { day: number; accounts: AccountFigures[] }[] = [];
  const ledger = {
    lastDayEnded: () => Promise.resolve(null),
    write: <T>(fn: (ctx: never) => Promise<T>) => fn(undefined as never),
    endDay: (_ctx: unknown, day: number, accounts: readonly AccountFigures[]) => {
      ended.push({ day, accounts: [...accounts] });
      return Promise.resolve();
    },
  } as unknown as Ledger;
  return { ledger, ended };
}

describe('the books clock', () => {
  it('ends a day for the accounts reported, and leaves an account never reported without a row rather than at an equity of 0', async () => {
    let clock = 20_000 * DAY_MS + 12 * 3_600_000;
    const accounts = new Map([[1, account(1, 10_000, clock / 1000 - 60)], [2, account(2, 0, 0)]]);
    const { ledger, ended } = recordingLedger();
    const clockOf = new DayEnds(ledger, () => ({ accounts }) as unknown as MarketSnapshot, () => clock, (err) => {
      throw err;
    });
    await clockOf.start();
    clock += DAY_MS;
    await clockOf.check();
    clockOf.stop();
    expect(ended.map((e) => [e.day, e.accounts.map((a) => [a.id, a.equity])])).toEqual([[20_000, [[1, 10_000]]]]);
  });
});
