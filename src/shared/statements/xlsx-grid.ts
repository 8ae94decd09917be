import { CellCounter, LIMITS, READ_BUDGET, ReadBudgetError } from './budget.ts';
import type { CellValue, Grid, GridRow } from './cells.ts';
import { readMarkup } from './markup.ts';
import { DamagedZipError, unzipParts } from './zip.ts';

/**
 * The sheets of an .xlsx workbook as rows of cells, in the workbook's order: text (shared or inline
 * strings), numbers, and dates where a number's style is a date format. MetaTrader 5 writes its
 * export's XML parts in UTF-16 LE with a byte-order mark, other programs in UTF-8: each part is decoded
 * by its own byte-order mark. A merged cell is its first cell followed by empty ones (as HTML's colspan).
 * Unzipping is budgeted (zip.ts); throws DamagedZipError when the bytes are not a readable workbook.
 */
export function xlsxGrids(bytes: Uint8Array): Grid[] {
  const { parts, whole } = unzipParts(bytes, (name) => WANTED.test(name));
  if (![...parts.keys()].some((name) => name.startsWith('xl/worksheets/'))) {
    throw new DamagedZipError(whole ? 'no worksheet in this zip' : 'the zip stops before its worksheets', !whole && parts.size > 0);
  }
  const xml = (name: string) => {
    const part = parts.get(name);
    return part ? decodePart(part) : null;
  };
  const strings = sharedStrings(xml('xl/sharedStrings.xml'));
  const dates = dateStyles(xml('xl/styles.xml'));
  const counter = new CellCounter();
  return sheetNames(xml('xl/workbook.xml'), xml('xl/_rels/workbook.xml.rels'), [...parts.keys()]).flatMap((name) => {
    const text = xml(name);
    return text === null ? [] : [{ title: '', rows: sheetRows(text, strings, dates, counter), whole }];
  });
}

const WANTED = /^xl\/(workbook\.xml|_rels\/workbook\.xml\.rels|sharedStrings\.xml|styles\.xml|worksheets\/[^/]+\.xml)$/;

/** An XML part's text by its byte-order mark (UTF-16 LE or BE, UTF-8), or by the zero bytes of UTF-16 written without one. */
function decodePart(bytes: Uint8Array): string {
  const [a, b, c] = [bytes[0], bytes[1], bytes[2]];
  if (a === 0xff && b === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (a === 0xfe && b === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (a === 0xef && b === 0xbb && c === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (a === 0x3c && b === 0x00) return new TextDecoder('utf-16le').decode(bytes);
  if (a === 0x00 && b === 0x3c) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}

/** The worksheets' part names in the workbook's order (by its relationships), else by their names. */
function sheetNames(workbook: string | null, relationships: string | null, names: string[]): string[] {
  const sheets = names.filter((name) => name.startsWith('xl/worksheets/')).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  if (workbook === null || relationships === null) return sheets;
  const targets = new Map<string, string>();
  readMarkup(relationships, true, {
    open(name, attributes) {
      if (name === 'Relationship' && attributes.Id && attributes.Target) {
        const target = attributes.Target.replace(/^\//, '');
        targets.set(attributes.Id, target.startsWith('xl/') ? target : `xl/${target}`);
      }
    },
    close() {},
    text() {},
  });
  const ordered: string[] = [];
  readMarkup(workbook, true, {
    open(name, attributes) {
      const target = name === 'sheet' ? targets.get(attributes.id ?? '') : undefined;
      if (target && sheets.includes(target) && !ordered.includes(target)) ordered.push(target);
    },
    close() {},
    text() {},
  });
  return [...ordered, ...sheets.filter((name) => !ordered.includes(name))];
}

/** The shared strings table: each <si>'s text runs, without the phonetic guides (<rPh>) of Japanese text. */
function sharedStrings(text: string | null): string[] {
  const strings: string[] = [];
  if (text === null) return strings;
  let current: string | null = null;
  let inText = false;
  let phonetic = 0;
  readMarkup(text, true, {
    open(name) {
      if (name === 'si') current = '';
      else if (name === 'rPh') phonetic++;
      else if (name === 't') inText = true;
    },
    close(name) {
      if (name === 'si' && current !== null) {
        strings.push(current);
        current = null;
      } else if (name === 'rPh') phonetic = Math.max(0, phonetic - 1);
      else if (name === 't') inText = false;
    },
    text(chunk) {
      if (inText && phonetic === 0 && current !== null) current += chunk;
    },
  });
  return strings;
}

/** Excel's built-in number formats that are dates or times. */
const BUILT_IN_DATES = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 30, 36, 45, 46, 47, 50, 57]);

/** Which cell styles (indexes into <cellXfs>) format their number as a date. */
function dateStyles(text: string | null): Set<number> {
  const dates = new Set<number>();
  if (text === null) return dates;
  const customDates = new Set<number>();
  let inCellXfs = false;
  let index = 0;
  readMarkup(text, true, {
    open(name, attributes) {
      if (name === 'numFmt') {
        const id = Number(attributes.numFmtId);
        // Date or time tokens outside quoted text and [colour]/[$-locale] brackets.
        const code = (attributes.formatCode ?? '').replace(/"[^"]*"|\[[^\]]*\]|\\./g, '');
        if (Number.isInteger(id) && /[ydhs]/i.test(code)) customDates.add(id);
      } else if (name === 'cellXfs') {
        inCellXfs = true;
        index = 0;
      } else if (name === 'xf' && inCellXfs) {
        const id = Number(attributes.numFmtId ?? '0');
        if (BUILT_IN_DATES.has(id) || customDates.has(id)) dates.add(index);
        index++;
      }
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false;
    },
    text() {},
  });
  return dates;
}

/** Column index of a cell reference (`C12` → 2), or null. */
function columnOf(ref: string | undefined): number | null {
  const letters = /^([A-Z]{1,3})\d*$/i.exec(ref ?? '')?.[1]?.toUpperCase();
  if (!letters) return null;
  let column = 0;
  for (const letter of letters) column = column * 26 + letter.charCodeAt(0) - 64;
  return column - 1;
}

/** Days from Excel's epoch (1899-12-30) to 1970-01-01. */
const EXCEL_UNIX_DAYS = 25_569;

function sheetRows(text: string, strings: string[], dates: Set<number>, counter: CellCounter): GridRow[] {
  const rows: GridRow[] = [];
  let row: GridRow | null = null;
  let cell: { column: number; type: string; style: number; value: string } | null = null;
  let inValue = false;
  let phonetic = 0;

  const valueOf = (c: NonNullable<typeof cell>): CellValue => {
    const raw = c.value;
    switch (c.type) {
      case 's':
        return strings[Number(raw)] ?? null;
      case 'inlineStr':
      case 'str':
      case 'e':
        return raw;
      case 'b':
        return raw === '1' ? 'TRUE' : 'FALSE';
      case 'd': {
        const date = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(raw) ? raw : `${raw}Z`);
        return Number.isNaN(date.getTime()) ? raw : date;
      }
      default: {
        if (raw.trim() === '') return null;
        const number = Number(raw);
        if (!Number.isFinite(number)) return raw;
        return dates.has(c.style) ? new Date(Math.round((number - EXCEL_UNIX_DAYS) * 86_400_000)) : number;
      }
    }
  };

  readMarkup(text, true, {
    open(name, attributes) {
      if (name === 'row') {
        const line = Number(attributes.r);
        row = { cells: [], ...(Number.isSafeInteger(line) && line > 0 ? { line } : {}) };
      } else if (name === 'c' && row) {
        const column = columnOf(attributes.r) ?? row.cells.length;
        cell = { column, type: attributes.t ?? 'n', style: Number(attributes.s ?? '0'), value: '' };
      } else if (name === 'rPh') phonetic++;
      else if (cell && (name === 'v' || (name === 't' && cell.type === 'inlineStr'))) inValue = true;
    },
    close(name) {
      if (name === 'v' || name === 't') inValue = false;
      else if (name === 'rPh') phonetic = Math.max(0, phonetic - 1);
      else if (name === 'c' && row && cell) {
        const done = cell;
        cell = null;
        // MetaTrader writes 15 columns; a cell far to the right is not part of a report.
        if (done.column >= READ_BUDGET.rowCells) throw new ReadBudgetError(LIMITS.rowCells);
        const value = valueOf(done);
        if (value !== null && value !== '') {
          counter.add(Math.max(1, done.column + 1 - row.cells.length));
          while (row.cells.length < done.column) row.cells.push(null);
          row.cells[done.column] = value;
        }
      } else if (name === 'row' && row) {
        rows.push(row);
        row = null;
      }
    },
    text(chunk) {
      if (inValue && phonetic === 0 && cell) cell.value += chunk;
    },
  });
  return rows;
}
