import { z } from 'zod';
import { NullableNum, Text } from './fields.ts';

export const MaeMfeQuery = z.strictObject({ symbol: Text('symbol', 20) });
/** MAE/MFE over the symbol's closed deals, in pips (DOMAIN.md). */
export const MaeMfeResponse = z.object({
  symbol: z.string(),
  count: z.number().int(),
  stats: z.object({ avg_mae: NullableNum, median_mae: NullableNum, avg_mfe: NullableNum, median_mfe: NullableNum }),
});
