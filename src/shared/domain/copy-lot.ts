/**
 * How a follower sizes its copy of a master's trade (docs/copying.md 'Sizing'):
 * - `ratio`: the master's size times the ratio;
 * - `equity`: the master's size times (follower equity / master equity, both in EUR) times the multiplier;
 * - `fixed`: the same size for every copy.
 * Sizes are in lots for forex and in shares for equities.
 */
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

export type LotCategory = 'Forex' | 'Equities';

/** The broker's step: 0.01 lot for forex, one share for equities. */
export function lotStep(category: LotCategory): number {
  return category === 'Forex' ? 0.01 : 1;
}

/** A size to the nearest step, never under one step. */
function toStep(size: number, category: LotCategory): number {
  return category === 'Forex' ? Math.max(0.01, Number(size.toFixed(2))) : Math.max(1, Math.round(size));
}

/** A cap to the step below it (a cap of 0.129 lot allows 0.12), never under one step. */
function capToStep(cap: number, category: LotCategory): number {
  const step = lotStep(category);
  // The small epsilon keeps 0.29 / 0.01 = 28.999999999999996 from flooring to 28.
  const steps = Math.max(1, Math.floor(cap / step + 1e-9));
  return category === 'Forex' ? Number((steps * step).toFixed(2)) : steps;
}

/**
 * The size of a follower's copy: the master's size times the follower's ratio, to the broker's step
 * (0.01 lot for forex, one share for equities), never under one step.
 */
export function copyLot(masterQuantity: number, ratio: number, category: LotCategory): number {
  return toStep(masterQuantity * ratio, category);
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
export function copySize(masterQuantity: number, terms: CopyTerms, category: LotCategory, equities?: EquitiesEur): number | null {
  let size: number;
  switch (terms.sizing.mode) {
    case 'ratio':
      size = copyLot(masterQuantity, terms.sizing.ratio, category);
      break;
    case 'fixed':
      size = toStep(terms.sizing.lot, category);
      break;
    case 'equity': {
      const follower = equities?.follower ?? null;
      const master = equities?.master ?? null;
      if (follower === null || master === null || master <= 0 || follower <= 0) return null;
      size = copyLot(masterQuantity, (follower / master) * terms.sizing.multiplier, category);
      break;
    }
  }
  return terms.maxLot === null ? size : Math.min(size, capToStep(terms.maxLot, category));
}
