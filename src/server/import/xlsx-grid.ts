import readXlsxFile from 'read-excel-file/node';
import type { CellValue, Grid } from './cells.ts';

/**
 * The sheets of an .xlsx workbook as rows of cells, read with read-excel-file: text, numbers and dates as
 * the workbook types them, merged cells as their first cell followed by empty ones (as HTML's colspan).
 * Rejects (with the library's error) when the bytes are not a readable workbook.
 */
export async function xlsxGrids(bytes: Uint8Array): Promise<Grid[]> {
  // read-excel-file takes a Buffer (a bare Uint8Array would be taken for a file path).
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sheets = await readXlsxFile(buffer, { trim: true });
  return sheets.map((sheet) => ({
    title: '',
    rows: sheet.data.map((row) => ({ cells: row.map(toCell) })),
  }));
}

function toCell(value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || value instanceof Date) return value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return null;
}
