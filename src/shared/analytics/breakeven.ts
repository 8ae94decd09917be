import { PAIR_CONTRACT } from '#shared/domain/instruments.ts';
import { roundTo } from '#shared/domain/money.ts';
import type { Side } from '#shared/domain/side.ts';

export interface BreakevenLeg {
  lots: number;
  openPrice: number;
  /** commission + swap + fee in the quote currency, negative for costs. */
  costsQuote: number;
}

export interface AggregateBreakeven {
  vwap: number;
  breakeven: number;
  breakevenMax: number;
  breakevenMin: number;
}

function breakevenOf(type: Side, price: number, costs: number, lots: number, contractSize: number): number {
  const shift = costs / (lots * contractSize);
  return type === 'Buy' ? price - shift : price + shift;
}

/** VWAP and cost-adjusted breakeven of legs in one symbol and direction, prices to 5 decimals (docs/figures.md B1). */
export function aggregateBreakeven(
  type: Side,
  legs: readonly BreakevenLeg[],
  contractSize = PAIR_CONTRACT,
): AggregateBreakeven | null {
  const valid = legs.filter(
    (l) => Number.isFinite(l.lots) && l.lots > 0 && Number.isFinite(l.openPrice) && Number.isFinite(l.costsQuote),
  );
  if (valid.length === 0 || !(contractSize > 0) || !Number.isFinite(contractSize)) return null;
  let lots = 0;
  let weighted = 0;
  let costs = 0;
  for (const l of valid) {
    lots += l.lots;
    weighted += l.lots * l.openPrice;
    costs += l.costsQuote;
  }
  const vwap = weighted / lots;
  const perLeg = valid.map((l) => breakevenOf(type, l.openPrice, l.costsQuote, l.lots, contractSize));
  return {
    vwap,
    breakeven: roundTo(breakevenOf(type, vwap, costs, lots, contractSize), 5),
    breakevenMax: roundTo(Math.max(...perLeg), 5),
    breakevenMin: roundTo(Math.min(...perLeg), 5),
  };
}
