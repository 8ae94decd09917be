/** TP/SL input rules and MAE/MFE suggestions (docs/product.md#validation, docs/figures.md "MAE / MFE"). */
import { suggestSlTp } from '../analytics/excursions.ts';
import type { Side } from '#shared/domain/side.ts';

export const SUGGESTION_DECIMALS = 5;

/** The cover button shows only for a negative loss amount with a computable (finite) price (docs/product.md#validation). */
export function coverAvailable(lossAmount: number | null, price: number | null): boolean {
  if (lossAmount === null || price === null) return false;
  return Number.isFinite(lossAmount) && lossAmount < 0 && Number.isFinite(price);
}

const DECIMAL = /^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)$/;

/** Parses a TP/SL input with a dot or a decimal comma ('1.2345', '1,2345'); null when not a plain decimal. */
export function parseDecimalInput(text: string): number | null {
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed)) return null;
  const value = Number(trimmed.replace(',', '.'));
  return Number.isFinite(value) ? value : null;
}

/** Rounds to the 5 decimals suggestions are shown with (docs/product.md#validation). */
export function roundSuggestion(value: number): number {
  const factor = 10 ** SUGGESTION_DECIMALS;
  return Math.round(value * factor) / factor;
}

/** SL/TP suggested from median MAE/MFE given in pips (docs/figures.md M2); the rule itself is analytics' suggestSlTp. */
export function suggestLevels(
  type: Side,
  openPrice: number,
  medianMaePips: number,
  medianMfePips: number,
  pip: number,
): { sl: number; tp: number } {
  return suggestSlTp(type, openPrice, medianMaePips * pip, medianMfePips * pip);
}
