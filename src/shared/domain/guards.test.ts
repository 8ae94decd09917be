import { describe, expect, it } from 'vitest';
import { markAfterFlow, markOf, measure, periodStartOf, stepGuard, type GuardMemory, type GuardRule, type GuardState } from './guards.ts';

/** Feeds equities through a guard as the copy engine does, with optional cash flows between them; the states and marks after each. */
function walk(rule: GuardRule, steps: ({ equity: number; nowS?: number } | { flow: number })[]) {
  let memory: GuardMemory = { state: 'armed', mark: null, periodStart: null };
  const out: { state: GuardState; mark: number; value: number; events: string[] }[] = [];
  for (const s of steps) {
    if ('flow' in s) {
      memory = { ...memory, mark: markAfterFlow(rule, memory.mark, s.flow) };
      continue;
    }
    const { mark, periodStart } = markOf(rule, memory, s.equity, s.nowS ?? 0);
    const value = measure(rule, mark, s.equity);
    const step = stepGuard(rule, memory.state, value);
    memory = { state: step.state, mark, periodStart };
    out.push({ state: step.state, mark, value: Math.round(value * 10_000) / 10_000, events: step.events });
  }
  return out;
}

const trailing = (levels: GuardRule['levels'], unit: GuardRule['unit'] = 'percent'): GuardRule => ({ basis: 'trailing_from_peak', unit, period: null, levels });

describe('ZuluGuard\'s capital protection of 1,000 (ZuluTrade\'s own table), as a trailing guard in money', () => {
  it('trails the floor −1,000, −1,000, 400, 1,700, 1,700 (P/L kept) and closes everything at 1,700', () => {
    // The relation's equity from 10,000: trades −500, +1,900, +1,300, −700 closed, then −300 floating;
    // in between, each open trade's worst moment (−500, −100, −400, −700) from the P/L before it.
    const rule = trailing({ warn: null, closeOnly: null, closeAll: 1_000 }, 'money');
    const equities = [10_000, 9_500, 9_400, 11_400, 11_000, 12_700, 12_000, 11_700];
    const steps = walk(rule, equities.map((equity) => ({ equity })));
    // The floor (mark − 1,000) in P/L from the start, after each step.
    expect(steps.map((s) => s.mark - 1_000 - 10_000)).toEqual([-1_000, -1_000, -1_000, 400, 400, 1_700, 1_700, 1_700]);
    expect(steps.map((s) => s.state)).toEqual(['armed', 'armed', 'armed', 'armed', 'armed', 'armed', 'armed', 'closed']);
    // It fires at the last step: 12,700 − 11,700 = 1,000; 1,700 of P/L kept.
    expect(steps.at(-1)).toMatchObject({ value: 1_000, events: ['close_all'] });
    expect(steps.at(-1)!.mark - 1_000 - 10_000).toBe(1_700);
  });
});

describe('a trailing guard: warn 15 %, close-only 20 %, close-all 25 %', () => {
  const rule = trailing({ warn: 15, closeOnly: 20, closeAll: 25 });

  it('walks warn → close-only → close-all as equity falls, through a withdrawal that lowers the mark by its amount', () => {
    // 10,000 → 12,000 (the mark) → 10,200: (12,000 − 10,200) / 12,000 = 15 %, warned. A withdrawal of
    // 2,000: equity 8,200, mark 10,000: 18 %, still warned (not 31.67 %: a withdrawal is no loss).
    // 8,000: 20 %, close-only. 7,500: 25 %, close-all.
    const steps = walk(rule, [{ equity: 10_000 }, { equity: 12_000 }, { equity: 10_200 }, { flow: -2_000 }, { equity: 8_200 }, { equity: 8_000 }, { equity: 7_500 }]);
    expect(steps.map((s) => [s.mark, s.value, s.state])).toEqual([
      [10_000, 0, 'armed'],
      [12_000, 0, 'armed'],
      [12_000, 15, 'warned'],
      [10_000, 18, 'warned'],
      [10_000, 20, 'close_only'],
      [10_000, 25, 'closed'],
    ]);
    expect(steps.flatMap((s) => s.events)).toEqual(['warn', 'close_only', 'close_all']);
  });

  it('never steps back from close-only or closed by itself, however far equity recovers', () => {
    const steps = walk(rule, [{ equity: 10_000 }, { equity: 8_000 }, { equity: 10_000 }, { equity: 7_400 }, { equity: 11_000 }]);
    expect(steps.map((s) => s.state)).toEqual(['armed', 'close_only', 'close_only', 'closed', 'closed']);
  });

  it('warns again only after a recovery of 1 point from the warn level: 15 → 14.5 (no) → 13.9 (re-armed) → 15.2 (warned again)', () => {
    const steps = walk(rule, [{ equity: 10_000 }, { equity: 8_500 }, { equity: 8_550 }, { equity: 8_610 }, { equity: 8_480 }]);
    expect(steps.map((s) => [s.value, s.state, s.events])).toEqual([
      [0, 'armed', []],
      [15, 'warned', ['warn']],
      [14.5, 'warned', []],
      [13.9, 'armed', ['warn_rearmed']],
      [15.2, 'warned', ['warn']],
    ]);
  });
});

describe('a period loss guard', () => {
  it('measures from each day\'s opening equity (UTC): a new day starts from its first equity', () => {
    const rule: GuardRule = { basis: 'period_loss', unit: 'percent', period: 'day', levels: { warn: 3, closeOnly: 5, closeAll: null } };
    const monday = Date.UTC(2026, 10, 23, 9) / 1000;
    // Monday opens at 10,000; 9,600 is −4 % (warned); Tuesday opens at 9,600, 9,400 is −2.0833 % (still warned: no recovery of the day's measure below 2 %).
    const steps = walk(rule, [{ equity: 10_000, nowS: monday }, { equity: 9_600, nowS: monday + 3_600 }, { equity: 9_600, nowS: monday + 86_400 }, { equity: 9_100, nowS: monday + 90_000 }]);
    expect(steps.map((s) => [s.mark, s.value, s.state])).toEqual([
      [10_000, 0, 'armed'],
      [10_000, 4, 'warned'],
      [9_600, 0, 'armed'],
      [9_600, 5.2083, 'close_only'],
    ]);
  });

  it('opens weeks on Mondays and months on their first day', () => {
    const sunday = Date.UTC(2026, 10, 29, 23) / 1000;
    expect(periodStartOf('week', sunday)).toBe('2026-11-23');
    expect(periodStartOf('month', sunday)).toBe('2026-11-01');
    expect(periodStartOf('day', sunday)).toBe('2026-11-29');
  });
});

describe('an equity floor and a profit target', () => {
  it('an equity floor of 9,000 (close-only, as the equity stop was) is reached when equity falls to it', () => {
    const rule: GuardRule = { basis: 'equity_floor', unit: 'money', period: null, levels: { warn: 9_500, closeOnly: 9_000, closeAll: null } };
    expect(walk(rule, [{ equity: 10_000 }, { equity: 9_500 }, { equity: 9_000.01 }, { equity: 9_000 }]).map((s) => s.state)).toEqual(['armed', 'warned', 'warned', 'close_only']);
  });

  it('a profit target of 800 closes everything once the gain over the start reaches it', () => {
    const rule: GuardRule = { basis: 'profit_target', unit: 'money', period: null, levels: { warn: null, closeOnly: null, closeAll: 800 } };
    expect(walk(rule, [{ equity: 5_000 }, { equity: 5_600 }, { equity: 5_800 }]).map((s) => [s.value, s.state])).toEqual([
      [0, 'armed'],
      [600, 'armed'],
      [800, 'closed'],
    ]);
  });

  it('a loss from start of 10 %: a deposit raises the mark by its amount', () => {
    const rule: GuardRule = { basis: 'loss_from_start', unit: 'percent', period: null, levels: { warn: null, closeOnly: 10, closeAll: null } };
    // Start 10,000; a deposit of 5,000 (equity 15,000, mark 15,000); 13,500 is −10 % of 15,000.
    const steps = walk(rule, [{ equity: 10_000 }, { flow: 5_000 }, { equity: 15_000 }, { equity: 13_500 }]);
    expect(steps.map((s) => [s.mark, s.value, s.state])).toEqual([
      [10_000, 0, 'armed'],
      [15_000, 0, 'armed'],
      [15_000, 10, 'close_only'],
    ]);
  });
});
