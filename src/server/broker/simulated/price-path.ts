import { INSTRUMENTS, roundPrice, type Mids } from './instruments.ts';
import type { Random } from './random.ts';

import { isWeekend } from '#server/ledger/calendar.ts';
import { DAY_S, dayOf } from '#shared/domain/days.ts';

const TRADING_DAYS = 252;

/**
 * Daily closes of every instrument from firstDay to lastDay, walked backwards from today's level
 * by geometric Brownian motion with each instrument's volatility, flat over weekends.
 */
export class PricePath {
  private readonly closes = new Map<string, Float64Array>();
  private readonly midsCache: (Map<string, number> | undefined)[] = [];

  constructor(
    readonly firstDay: number,
    readonly lastDay: number,
    rng: Random,
  ) {
    const n = lastDay - firstDay + 1;
    for (const inst of INSTRUMENTS) {
      const closes = new Float64Array(n);
      closes[n - 1] = inst.price;
      const sigma = inst.vol / Math.sqrt(TRADING_DAYS);
      for (let i = n - 1; i > 0; i--) {
        const step = isWeekend(firstDay + i) ? 0 : sigma * rng.normal() - (sigma * sigma) / 2;
        closes[i - 1] = (closes[i] ?? inst.price) / Math.exp(step);
      }
      this.closes.set(inst.symbol, closes);
    }
  }

  close(symbol: string, day: number): number {
    const closes = this.closes.get(symbol);
    const i = Math.min(Math.max(day - this.firstDay, 0), this.lastDay - this.firstDay);
    const value = closes?.[i];
    if (value === undefined) throw new Error(`no path for ${symbol}`);
    return value;
  }

  /** Mid price inside a day: a Brownian bridge from the previous close to the day's close. */
  at(symbol: string, epochSeconds: number, rng: Random, digits: number): number {
    const day = dayOf(epochSeconds);
    const prev = this.close(symbol, day - 1);
    const cur = this.close(symbol, day);
    const frac = (epochSeconds - day * DAY_S) / DAY_S;
    const inst = INSTRUMENTS.find((i) => i.symbol === symbol);
    const sigmaDay = ((inst?.vol ?? 0.1) / Math.sqrt(TRADING_DAYS)) * cur;
    const noise = isWeekend(day) ? 0 : sigmaDay * Math.sqrt(frac * (1 - frac)) * rng.normal() * 0.5;
    return roundPrice(prev + (cur - prev) * frac + noise, digits);
  }

  /** Closing mids of one day, for currency conversion. */
  mids(day: number): Mids {
    const i = Math.min(Math.max(day - this.firstDay, 0), this.lastDay - this.firstDay);
    let m = this.midsCache[i];
    if (!m) {
      m = new Map(INSTRUMENTS.map((inst) => [inst.symbol, this.close(inst.symbol, this.firstDay + i)]));
      this.midsCache[i] = m;
    }
    return m;
  }
}
