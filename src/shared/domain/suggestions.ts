/** TP/SL input rules and MAE/MFE suggestions (SPEC §5, DOMAIN.md "MAE / MFE"). */
export const PIP_SIZE_JPY = 0.01;
export const PIP_SIZE = 0.0001;
export const SUGGESTION_DECIMALS = 5;

/** Pip size of a symbol: 0.01 for JPY pairs, otherwise 0.0001 (SPEC §5). */
export function pipSize(symbol: string): number {
  return symbol.toUpperCase().includes('JPY') ? PIP_SIZE_JPY : PIP_SIZE;
}

/** The cover button shows only for a negative loss amount with a computable (finite) price (SPEC §5). */
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

/** Rounds to the 5 decimals suggestions are shown with (SPEC §5). */
export function roundSuggestion(value: number): number {
  const factor = 10 ** SUGGESTION_DECIMALS;
  return Math.round(value * factor) / factor;
}

/**
 * SL/TP suggested from median MAE/MFE in pips (DOMAIN.md, example M2): Buy SL = open − MAE,
 * TP = open + MFE; Sell SL = open + MAE, TP = open − MFE; rounded to 5 decimals.
 */
export function suggestLevels(
  type: 'Buy' | 'Sell',
  openPrice: number,
  medianMaePips: number,
  medianMfePips: number,
  pip: number,
): { sl: number; tp: number } {
  const mae = medianMaePips * pip;
  const mfe = medianMfePips * pip;
  return type === 'Buy'
    ? { sl: roundSuggestion(openPrice - mae), tp: roundSuggestion(openPrice + mfe) }
    : { sl: roundSuggestion(openPrice + mae), tp: roundSuggestion(openPrice - mfe) };
}
