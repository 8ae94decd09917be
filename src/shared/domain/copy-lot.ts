/**
 * How a follower sizes its copy of a master's trade (docs/copying.md 'Sizing'):
 * - `ratio`: the master's size times the ratio;
 * - `equity`: the master's size times (follower equity / master equity, both in EUR) times the multiplier;
 * - `fixed`: the same size for every copy.
 * Sizes are in whole shares for shares, in lots for everything else (lotUnitOf).
 */
import { instrumentSpec } from './instruments.ts';

export type CopySizing =
  | { mode: 'ratio'; ratio: number }
  | { mode: 'equity'; multiplier: number }
  | { mode: 'fixed'; lot: number };

export type SizingMode = CopySizing['mode'];

/** A relation's sizing and its cap. */
export interface CopyTerms {
  sizing: CopySizing;
  /** The largest copy (lots for forex, shares for equities); null: no cap. */
  maxLot: number | null;
}

/** How an instrument is sized: in lots of 0.01 (currency pairs, metals, indices, commodities, coins) or in whole shares. */
export type LotUnit = 'lot' | 'share';

/** The sizing unit of a symbol, by the instrument classifier: shares trade whole, everything else in 0.01 lot. */
export function lotUnitOf(symbol: string): LotUnit {
  return instrumentSpec(symbol).class === 'share' ? 'share' : 'lot';
}

/** The broker's step: 0.01 lot, or one share. */
export function lotStep(unit: LotUnit): number {
  return unit === 'lot' ? 0.01 : 1;
}

/** A size to the nearest step, never under one step. */
function toStep(size: number, unit: LotUnit): number {
  return unit === 'lot' ? Math.max(0.01, Number(size.toFixed(2))) : Math.max(1, Math.round(size));
}

/** A cap to the step below it (a cap of 0.129 lot allows 0.12), never under one step. */
function capToStep(cap: number, unit: LotUnit): number {
  const step = lotStep(unit);
  // The small epsilon keeps 0.29 / 0.01 = 28.999999999999996 from flooring to 28.
  const steps = Math.max(1, Math.floor(cap / step + 1e-9));
  return unit === 'lot' ? Number((steps * step).toFixed(2)) : steps;
}

/**
 * The size of a follower's copy: the master's size times the follower's ratio, to the broker's step
 * (0.01 lot, or one share), never under one step.
 */
export function copyLot(masterQuantity: number, ratio: number, unit: LotUnit): number {
  return toStep(masterQuantity * ratio, unit);
}

/** Both accounts' equity in EUR, for equity-proportional sizing (null: unknown, no rate). */
export interface EquitiesEur {
  follower: number | null;
  master: number | null;
}

/**
 * The size of a follower's copy under a relation's terms: by ratio, by equity proportion or a fixed
 * size, to the step (never under one step), then capped at the maximum lot. null when an
 * equity-proportional size cannot be computed (an equity unknown, or the master's not positive).
 */
export function copySize(masterQuantity: number, terms: CopyTerms, unit: LotUnit, equities?: EquitiesEur): number | null {
  let size: number;
  switch (terms.sizing.mode) {
    case 'ratio':
      size = copyLot(masterQuantity, terms.sizing.ratio, unit);
      break;
    case 'fixed':
      size = toStep(terms.sizing.lot, unit);
      break;
    case 'equity': {
      const follower = equities?.follower ?? null;
      const master = equities?.master ?? null;
      if (follower === null || master === null || master <= 0 || follower <= 0) return null;
      size = copyLot(masterQuantity, (follower / master) * terms.sizing.multiplier, unit);
      break;
    }
  }
  return terms.maxLot === null ? size : Math.min(size, capToStep(terms.maxLot, unit));
}
