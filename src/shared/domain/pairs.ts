import type { Market } from './market.ts';

/** Copy-rule pairs (docs/product.md#fields) and the pair toggle (docs/product.md#states). */
export const FOREX_PAIRS = [
  'AUDCAD',
  'AUDJPY',
  'AUDUSD',
  'CADJPY',
  'EURCAD',
  'EURGBP',
  'EURJPY',
  'EURUSD',
  'GBPCAD',
  'GBPJPY',
  'GBPUSD',
  'USDCAD',
  'USDCHF',
  'USDJPY',
] as const;
export type ForexPair = (typeof FOREX_PAIRS)[number];

/** The equity pair list is empty (docs/product.md#fields). */
export const EQUITY_PAIRS: readonly string[] = [];

export interface PairSelectionItem {
  name: string;
  enabled: boolean;
  position: 'long' | null;
}

/** Pairs offered for a copy-rule market type. */
export function pairsOfMarket(market: Market): readonly string[] {
  return market === 'Forex' ? FOREX_PAIRS : EQUITY_PAIRS;
}

/**
 * New selection after toggling `name` (docs/product.md#states): enabling adds it, or re-enables it, with position
 * long; disabling sets enabled false and position null. Disabling a pair that has no entry leaves
 * the selection as it is (an absent pair is already not allowed).
 */
export function togglePair(
  selection: readonly PairSelectionItem[],
  name: string,
  enabled: boolean,
): PairSelectionItem[] {
  const index = selection.findIndex((item) => item.name === name);
  if (index === -1) return enabled ? [...selection, { name, enabled: true, position: 'long' }] : [...selection];
  return selection.map((item, i) => {
    if (i !== index) return item;
    return enabled ? { ...item, enabled: true, position: 'long' } : { ...item, enabled: false, position: null };
  });
}

/** Names of the enabled pairs, in selection order: the new_allowed_pairs to send (docs/product.md#calls). */
export function allowedPairsOf(selection: readonly PairSelectionItem[]): string[] {
  return selection.filter((item) => item.enabled).map((item) => item.name);
}

/** Selection built from a copy rule's allowed_pairs: each enabled with position long. */
export function selectionFromAllowed(allowedPairs: readonly string[]): PairSelectionItem[] {
  return allowedPairs.map((name) => ({ name, enabled: true, position: 'long' }));
}
