import type { Queryable } from './database.ts';

const MAX_PARAMS = 30_000;

/** Multi-row INSERT in chunks under PostgreSQL's parameter limit. */
export async function insertMany(
  tx: Queryable,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  suffix = '',
): Promise<void> {
  const perChunk = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  for (let start = 0; start < rows.length; start += perChunk) {
    const chunk = rows.slice(start, start + perChunk);
    const params: unknown[] = [];
    const tuples = chunk.map((row) => {
      const marks = row.map((value) => {
        params.push(value);
        return `$${params.length}`;
      });
      return `(${marks.join(',')})`;
    });
    await tx.query(`INSERT INTO ${table} (${columns.join(',')}) VALUES ${tuples.join(',')} ${suffix}`, params);
  }
}
