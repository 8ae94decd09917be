import type { jsPDF } from 'jspdf';
import type { FontStyle, LoadedFont, ReportFonts } from './pdf-fonts.ts';

/*
 * Text in any script on a jsPDF document (docs/statements.md, "Scripts"). jsPDF draws one string
 * in one font and reads it left to right; a report's line may hold Latin, Cyrillic, Arabic and
 * Chinese at once, and Arabic and Hebrew are written right to left. So each line is
 *   1. shaped: Arabic letters take their joining forms (initial, medial, final, lam-alef), by
 *      jsPDF's own Arabic parser (the presentation forms every Noto Arabic font maps);
 *   2. put in visual order by jsPDF's bidi engine (the Unicode bidirectional algorithm, UAX #9),
 *      the paragraph's direction taken from its first strong character, brackets mirrored;
 *   3. cut into runs of characters one font of the chain has, each drawn after the other.
 * Measuring (getTextWidth, getStringUnitWidth) and wrapping (splitTextToSize) go the same way, so
 * jspdf-autotable sizes its columns and wraps its cells for the glyphs that are drawn. The layer
 * replaces those four methods on the one document it is installed on.
 */

/**
 * Text as the reports print it: U+202F (fr-FR's group separator), U+00A0 and U+2009 become plain
 * spaces (searching and extracting the figures then works the same everywhere), U+2212 a hyphen.
 */
export function pdfText(text: string): string {
  return text.replace(/[\u202f\u00a0\u2009]/g, ' ').replace(/\u2212/g, '-');
}

/** Characters of a right-to-left script, or bidi controls: a line without any needs no reordering. */
const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u200f\u202b\u202e\u2067]/;

/** jsPDF's bidi engine (jsPDF.__bidiEngine__), as far as it is used here. */
export interface BidiEngine {
  setOptions(options: { isInputVisual: boolean; isOutputVisual: boolean; isInputRtl?: boolean; isOutputRtl: boolean; isSymmetricSwapping: boolean }): void;
  doBidiReorder(text: string): string;
}

/** Options for jsPDF's own text() that leave a string as it is (its bidi pass has nothing to do). */
const AS_IS = { isInputVisual: true, isOutputVisual: true, isInputRtl: false, isOutputRtl: false };

interface Run {
  font: LoadedFont;
  text: string;
  /** At font size 1. */
  width: number;
}

type TextOptions = { align?: 'left' | 'center' | 'right' | 'justify'; baseline?: string; maxWidth?: number } & Record<string, unknown>;

type Original = {
  text: (text: string, x: number, y: number, options?: Record<string, unknown>) => jsPDF;
};

/**
 * Shapes, orders and splits into runs; to use before the fonts are loaded (glyphText) and, once
 * they are, installed on the document (install).
 */
export function textLayer(doc: jsPDF, bidi: BidiEngine) {
  // Shaping is done here, on logical text: jsPDF's own pass, run again on text already in visual
  // order, would join letters across what were word boundaries. It is taken off this document.
  const events = (doc.internal as unknown as { events: { getTopics(): Record<string, Record<string, [unknown, boolean]>>; unsubscribe(token: string): boolean } }).events;
  for (const [token, [callback]] of Object.entries(events.getTopics().preProcessText ?? {})) {
    if (callback === doc.processArabic) events.unsubscribe(token);
  }

  const visual = (line: string): string => {
    const text = pdfText(line);
    if (!RTL.test(text)) return text;
    const shaped = doc.processArabic(text);
    bidi.setOptions({ isInputVisual: false, isOutputVisual: true, isInputRtl: undefined, isOutputRtl: false, isSymmetricSwapping: true });
    return bidi.doBidiReorder(shaped);
  };

  /** The characters a string is drawn with (shaped, in visual order), to choose the fonts before drawing. */
  const glyphText = (text: string) => visual(text.replace(/\r\n|\r|\n/g, ' '));

  /** From now on the document's text goes through the layer, in these fonts. */
  const install = (fonts: ReportFonts): void => {
    const primary = { normal: fonts.chain.normal[0]!, bold: fonts.chain.bold[0]! };
    const styleOf = (font: { fontStyle: string }): FontStyle => (font.fontStyle === 'bold' ? 'bold' : 'normal');

    const cache = new Map<string, Run[]>();
    const runs = (line: string, style: FontStyle): Run[] => {
      const key = `${style}\u0000${line}`;
      const hit = cache.get(key);
      if (hit) return hit;
      const text = visual(line);
      const out: Run[] = [];
      for (let i = 0; i < text.length; i += 1) {
        const run = out.at(-1);
        let code = text.charCodeAt(i);
        let char = text[i]!;
        let font = run?.font.has(code) ? run.font : fonts.fontFor(code, style);
        if (!font) {
          // No font has it (or it lies outside the Basic Multilingual Plane, which jsPDF draws
          // unit by unit): the replacement character, once for a surrogate pair.
          if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) i += 1;
          code = 0xfffd;
          char = '\ufffd';
          font = run?.font.has(code) ? run.font : (fonts.fontFor(code, style) ?? primary[style]);
        }
        if (run && run.font === font) {
          run.text += char;
          run.width += font.width(code);
        } else {
          out.push({ font, text: char, width: font.width(code) });
        }
      }
      if (cache.size > 20_000) cache.clear();
      cache.set(key, out);
      return out;
    };
    const unitWidth = (line: string, style: FontStyle) => runs(line, style).reduce((w, r) => w + r.width, 0);
    const current = () => doc.getFont();
    const scale = () => doc.internal.scaleFactor;

    const original: Original = { text: doc.text.bind(doc) as Original['text'] };

    const wrap = (text: string | string[], maxWidth: number, fontSize: number, style: FontStyle): string[] => {
      const width = (s: string) => (unitWidth(s, style) * fontSize) / scale();
      const out: string[] = [];
      for (const paragraph of (Array.isArray(text) ? text : [text]).flatMap((t) => String(t).split(/\r\n|\r|\n/))) {
        let line: string | null = null;
        for (const word of paragraph.split(' ')) {
          const candidate: string = line === null ? word : `${line} ${word}`;
          if (width(candidate) <= maxWidth) {
            line = candidate;
            continue;
          }
          if (line !== null) out.push(line);
          if (width(word) <= maxWidth) {
            line = word;
            continue;
          }
          let piece = '';
          for (const char of word) {
            if (piece && width(piece + char) > maxWidth) {
              out.push(piece);
              piece = '';
            }
            piece += char;
          }
          line = piece;
        }
        out.push(line ?? '');
      }
      return out;
    };

    const draw = (text: string | string[], x: number, y: number, options: TextOptions = {}): jsPDF => {
      const font = current();
      const style = styleOf(font);
      const size = doc.getFontSize();
      const k = scale();
      let lines = (Array.isArray(text) ? text : [text]).flatMap((t) => String(t).split(/\r\n|\r|\n/));
      if (typeof options.maxWidth === 'number' && options.maxWidth > 0) lines = wrap(lines, options.maxWidth, size, style);
      const lineHeight = (size * doc.getLineHeightFactor()) / k;
      lines.forEach((line, index) => {
        const parts = runs(line, style);
        const width = (parts.reduce((w, r) => w + r.width, 0) * size) / k;
        let at = options.align === 'right' ? x - width : options.align === 'center' ? x - width / 2 : x;
        for (const part of parts) {
          doc.setFont(part.font.name, style);
          original.text(part.text, at, y + index * lineHeight, { ...AS_IS, ...(options.baseline ? { baseline: options.baseline } : {}) });
          mapPresentationForms(part);
          at += (part.width * size) / k;
        }
      });
      doc.setFont(font.fontName, font.fontStyle);
      return doc;
    };

    // jspdf-autotable asks for the list of fonts for every cell it styles, and jsPDF builds it anew
    // each time from all the fonts it holds; none is added once the layer is in place.
    const fontList = doc.getFontList();
    Object.assign(doc, {
      getFontList: () => fontList,
      text: draw,
      getStringUnitWidth: (text: string, options?: { font?: { fontStyle: string } }) => unitWidth(String(text), styleOf(options?.font ?? current())),
      getTextWidth: (text: string) => (unitWidth(String(text), styleOf(current())) * doc.getFontSize()) / scale(),
      splitTextToSize: (text: string | string[], maxWidth: number, options?: { fontSize?: number }) =>
        wrap(text, maxWidth, options?.fontSize ?? doc.getFontSize(), styleOf(current())),
    });
  };

  return { glyphText, install };
}

/**
 * Arabic is drawn in its presentation forms; the ToUnicode map would give those back to whoever
 * copies or extracts the text. Each form that stands for one letter is mapped to that letter (the
 * lam-alef ligatures, two letters, keep their form, which NFKC normalisation turns into both).
 */
function mapPresentationForms(run: Run): void {
  for (let i = 0; i < run.text.length; i += 1) {
    const code = run.text.charCodeAt(i);
    if (!((code >= 0xfb50 && code <= 0xfdff) || (code >= 0xfe70 && code <= 0xfefc))) continue;
    const letter = String.fromCharCode(code).normalize('NFKC');
    if (letter.length === 1) run.font.metadata.toUnicode[run.font.metadata.characterToGlyph(code)] = letter.charCodeAt(0);
  }
}
