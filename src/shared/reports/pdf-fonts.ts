import type { jsPDF } from 'jspdf';
import { unzlibSync } from 'fflate';

/*
 * The fonts of the PDF reports: Noto Sans (Latin, Cyrillic, Greek), Noto Sans Hebrew, Noto Sans
 * Arabic, Noto Sans SC (Chinese, and the kanji and kana of Japanese) and Noto Sans KR (Hangul), as
 * the @fontsource packages ship them: each family cut into subsets by Unicode range, one .woff file per subset and
 * weight, the ranges in the package's unicode.json. A report loads only the subsets holding the
 * characters it prints (a Chinese name: two or three files of some 40 kB out of the hundred that
 * make Noto Sans SC), and jsPDF embeds only the glyphs it draws (a subset of each, Identity-H with a
 * ToUnicode map, so the text can be searched and copied). docs/statements.md, "Scripts".
 */

/** The families, in the order a character is looked for in them. */
export const FONT_FAMILIES = ['noto-sans', 'noto-sans-hebrew', 'noto-sans-arabic', 'noto-sans-sc', 'noto-sans-kr'] as const;
export type FontFamily = (typeof FONT_FAMILIES)[number];

/**
 * Where a report's font files come from: the server reads them from node_modules, the app fetches
 * the copies its build emitted. `woff` may answer null when a file cannot be had (the app offline):
 * its characters then print as U+FFFD.
 */
export interface FontFiles {
  /** The family's unicode.json: subset ('latin', 'cyrillic', '[115]') → CSS unicode-range. */
  ranges(family: FontFamily): Promise<Record<string, string>>;
  /** One .woff file of the family by name, e.g. 'noto-sans-sc-115-400-normal.woff'. */
  woff(family: FontFamily, file: string): Promise<Uint8Array | null>;
}

/** The report's own font: Noto Sans' Latin subset, normal and bold, always loaded. */
export const REPORT_FONT = 'NotoSans';
const PRIMARY = { family: 'noto-sans' as FontFamily, subset: 'latin' };

export type FontStyle = 'normal' | 'bold';
const WEIGHT: Record<FontStyle, number> = { normal: 400, bold: 700 };

/** The file of one subset at one weight, after @fontsource's naming. */
export function woffFileName(family: FontFamily, subset: string, style: FontStyle): string {
  return `${family}-${subset.replace(/[[\]]/g, '')}-${WEIGHT[style]}-normal.woff`;
}

/** A CSS unicode-range ('U+0000-00FF,U+0131') as [first, last] pairs. */
export function parseUnicodeRange(range: string): [number, number][] {
  return range.split(',').flatMap((part) => {
    const m = /^\s*U\+([0-9a-f]+)(?:-([0-9a-f]+))?\s*$/i.exec(part);
    if (!m) return [];
    const first = parseInt(m[1]!, 16);
    return [[first, m[2] === undefined ? first : parseInt(m[2], 16)] as [number, number]];
  });
}

/**
 * A WOFF 1.0 file (a TrueType or OpenType font whose tables are each zlib-compressed) as the plain
 * font file jsPDF reads: the same tables, inflated, behind a rebuilt table directory (WOFF spec §4-5).
 */
export function woffToSfnt(woff: Uint8Array): Uint8Array {
  const view = new DataView(woff.buffer, woff.byteOffset, woff.byteLength);
  if (view.getUint32(0) !== 0x774f4646) throw new Error('Not a WOFF font');
  const flavor = view.getUint32(4);
  const count = view.getUint16(12);
  const tables = Array.from({ length: count }, (_, i) => {
    const at = 44 + i * 20;
    return {
      tag: view.getUint32(at),
      offset: view.getUint32(at + 4),
      compLength: view.getUint32(at + 8),
      origLength: view.getUint32(at + 12),
      checksum: view.getUint32(at + 16),
    };
  });
  const padded = (n: number) => (n + 3) & ~3;
  const size = tables.reduce((sum, t) => sum + padded(t.origLength), 12 + 16 * count);
  const out = new Uint8Array(size);
  const outView = new DataView(out.buffer);
  let log2 = 0;
  while (1 << (log2 + 1) <= count) log2 += 1;
  outView.setUint32(0, flavor);
  outView.setUint16(4, count);
  outView.setUint16(6, 16 << log2);
  outView.setUint16(8, log2);
  outView.setUint16(10, count * 16 - (16 << log2));
  let at = 12 + 16 * count;
  tables.forEach((t, i) => {
    const stored = woff.subarray(t.offset, t.offset + t.compLength);
    const data = t.compLength < t.origLength ? unzlibSync(stored) : stored;
    if (data.length !== t.origLength) throw new Error('A WOFF table inflates to the wrong length');
    out.set(data, at);
    const entry = 12 + 16 * i;
    outView.setUint32(entry, t.tag);
    outView.setUint32(entry + 4, t.checksum);
    outView.setUint32(entry + 8, at);
    outView.setUint32(entry + 12, t.origLength);
    at += padded(t.origLength);
  });
  return out;
}

/** What jsPDF keeps of a TrueType font (the parts used here). */
interface TtfMetadata {
  cmap: { unicode: { codeMap: Record<number, number> } };
  characterToGlyph(code: number): number;
  widthOfGlyph(glyph: number): number;
  toUnicode: Record<number, number>;
}

/** A font added to the document. */
export interface LoadedFont {
  /** jsPDF's name for it (with the style, what doc.setFont takes). */
  name: string;
  style: FontStyle;
  has(code: number): boolean;
  /** Advance width of a character at size 1. */
  width(code: number): number;
  metadata: TtfMetadata;
}

/** The fonts a document was given: the report's font first, then each subset in the order of the families. */
export interface ReportFonts {
  chain: Record<FontStyle, LoadedFont[]>;
  /** The first font of the chain that has the character, or null. */
  fontFor(code: number, style: FontStyle): LoadedFont | null;
}

function binaryString(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 4096) s += String.fromCharCode(...bytes.subarray(i, i + 4096));
  return s;
}

function addFont(doc: jsPDF, name: string, style: FontStyle, woff: Uint8Array): LoadedFont {
  const file = `${name}-${style}.ttf`;
  doc.addFileToVFS(file, binaryString(woffToSfnt(woff)));
  doc.addFont(file, name, style, 'Identity-H');
  const previous = doc.getFont();
  doc.setFont(name, style);
  const metadata = (doc.getFont() as unknown as { metadata: TtfMetadata }).metadata;
  doc.setFont(previous.fontName, previous.fontStyle);
  const codeMap = metadata.cmap.unicode.codeMap;
  const widths = new Map<number, number>();
  return {
    name,
    style,
    metadata,
    has: (code) => codeMap[code] !== undefined && codeMap[code] !== 0,
    width: (code) => {
      let w = widths.get(code);
      if (w === undefined) {
        w = metadata.widthOfGlyph(metadata.characterToGlyph(code)) / 1000;
        widths.set(code, w);
      }
      return w;
    },
  };
}

/**
 * Adds to `doc` the fonts that `chars` (UTF-16 code units, by style) need: the report's font, and
 * for each character it lacks the subset of the first family whose range holds it. A family's
 * ranges are read only while characters remain without a font.
 */
export async function loadReportFonts(doc: jsPDF, files: FontFiles, chars: Record<FontStyle, Iterable<number>>): Promise<ReportFonts> {
  const ranges = new Map<FontFamily, Promise<[string, [number, number][]][]>>();
  const rangesOf = (family: FontFamily) => {
    let r = ranges.get(family);
    if (!r) {
      r = files.ranges(family).then((json) => Object.entries(json).map(([subset, range]) => [subset, parseUnicodeRange(range)] as [string, [number, number][]]));
      ranges.set(family, r);
    }
    return r;
  };
  const load = async (family: FontFamily, subset: string, style: FontStyle, name: string): Promise<LoadedFont | null> => {
    const woff = await files.woff(family, woffFileName(family, subset, style));
    return woff ? addFont(doc, name, style, woff) : null;
  };

  const chain: Record<FontStyle, LoadedFont[]> = { normal: [], bold: [] };
  for (const style of ['normal', 'bold'] as const) {
    const primary = await load(PRIMARY.family, PRIMARY.subset, style, REPORT_FONT);
    if (!primary) throw new Error('The report font could not be loaded');
    chain[style].push(primary);
    let missing = [...new Set(chars[style])].filter((code) => !primary.has(code));
    for (const family of FONT_FAMILIES) {
      if (!missing.length) break;
      const subsets = (await rangesOf(family)).filter(
        ([subset, spans]) =>
          !(family === PRIMARY.family && subset === PRIMARY.subset) && missing.some((code) => spans.some(([a, b]) => code >= a && code <= b)),
      );
      const fonts = await Promise.all(subsets.map(([subset]) => load(family, subset, style, `${family}-${subset.replace(/[[\]]/g, '')}`)));
      for (const font of fonts) {
        if (!font) continue;
        chain[style].push(font);
        missing = missing.filter((code) => !font.has(code));
      }
    }
  }

  const found: Record<FontStyle, Map<number, LoadedFont | null>> = { normal: new Map(), bold: new Map() };
  return {
    chain,
    fontFor(code, style) {
      const known = found[style].get(code);
      if (known !== undefined) return known;
      const font = chain[style].find((f) => f.has(code)) ?? null;
      found[style].set(code, font);
      return font;
    },
  };
}
