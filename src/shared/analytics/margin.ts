/** An account's margin level in %: equity / margin × 100; null without margin in use. */
export const marginLevel = (equity: number, margin: number): number | null => (margin > 0 ? (equity / margin) * 100 : null);
