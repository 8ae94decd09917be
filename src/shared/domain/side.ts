/** A trade's direction as the terminals and the wire spell it: Buy (long) or Sell (short). */
export const SIDES = ['Buy', 'Sell'] as const;
export type Side = (typeof SIDES)[number];

/** The other direction: what closes a position of this side. */
export const oppositeSide = (side: Side): Side => (side === 'Buy' ? 'Sell' : 'Buy');
