import { NotAStatementError } from './errors.ts';

/** A row read from a statement, by the number that identifies it (a deal's ticket, a position's identifier). */
export interface Keyed {
  key: number;
  /** Its row in the file, for messages. */
  line: number;
}

/**
 * A statement's rows with each number once. A row listed again exactly as before (a report saved twice
 * into one file, a copy and paste) is read once, with a warning; a number listed twice with different
 * figures refuses the file, naming it: which of the two is right cannot be told.
 */
export function dedupe<T extends Keyed>(rows: readonly T[], noun: string, warnings: string[], fileName?: string): T[] {
  const first = new Map<number, { row: T; fingerprint: string }>();
  const kept: T[] = [];
  for (const row of rows) {
    const { line: _line, ...figures } = row;
    const fingerprint = JSON.stringify(figures);
    const seen = first.get(row.key);
    if (!seen) {
      first.set(row.key, { row, fingerprint });
      kept.push(row);
    } else if (seen.fingerprint === fingerprint) {
      warnings.push(`Row ${row.line}: ${noun} ${row.key} is listed twice (also row ${seen.row.line}) and was read once.`);
    } else {
      throw new NotAStatementError(
        `This report lists ${noun} ${row.key} twice with different figures (rows ${seen.row.line} and ${row.line}): it cannot be imported as it is.`,
        fileName,
      );
    }
  }
  return kept;
}
