import { z } from 'zod';
import { Measure, Text } from './fields.ts';

export const MaeMfeQuery = z.strictObject({ symbol: Text('symbol', 20) });
/** MAE/MFE over the symbol's closed deals, in pips (docs/figures.md). */
export const MaeMfeResponse = z.object({
  symbol: z.string(),
  count: z.number().int(),
  stats: z.object({ avg_mae: Measure.nullable(), median_mae: Measure.nullable(), avg_mfe: Measure.nullable(), median_mfe: Measure.nullable() }),
});
