/**
 * The size of a follower's copy: the master's size times the follower's ratio, to the broker's step
 * (0.01 lot for forex, one share for equities), never under one step.
 */
export function copyLot(masterQuantity: number, ratio: number, category: 'Forex' | 'Equities'): number {
  return category === 'Forex'
    ? Math.max(0.01, Number((masterQuantity * ratio).toFixed(2)))
    : Math.max(1, Math.round(masterQuantity * ratio));
}
