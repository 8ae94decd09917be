import { describe, expect, it } from 'vitest';
import { jsPDF } from 'jspdf';
import { parseUnicodeRange, woffFileName } from './pdf-fonts.ts';
import { textLayer, type BidiEngine } from './pdf-text.ts';

const layer = () => textLayer(new jsPDF(), new (jsPDF as unknown as { __bidiEngine__: new (options: object) => BidiEngine }).__bidiEngine__({}));
const codes = (s: string) => [...s].map((c) => c.codePointAt(0)!.toString(16));

describe('the PDF text layer', () => {
  it('shapes Arabic into its joining forms and puts it right to left', () => {
    // حساب: hah initial, seen medial, alef final, beh isolated (alef does not join the next letter),
    // drawn from the right: the last letter first.
    expect(codes(layer().glyphText('حساب'))).toEqual(['fe8f', 'fe8e', 'feb4', 'fea3']);
  });

  it('puts Hebrew right to left, and numbers inside it left to right', () => {
    expect(layer().glyphText('חשבון')).toBe('ןובשח');
    expect(layer().glyphText('חשבון 12')).toBe('12 ןובשח');
  });

  it('keeps a left-to-right line in order around a right-to-left word', () => {
    expect(layer().glyphText('Copy of חשבון closed')).toBe('Copy of ןובשח closed');
  });

  it('leaves other scripts as they are, and prints the figures’ narrow spaces as spaces', () => {
    expect(layer().glyphText('Сметка Иванов 账户 1\u202f234,50\u00a0$')).toBe('Сметка Иванов 账户 1 234,50 $');
  });
});

describe('the PDF fonts', () => {
  it('reads CSS unicode-ranges and names @fontsource files', () => {
    expect(parseUnicodeRange('U+0000-00FF,U+0131, U+1f1e6-1f1ff')).toEqual([
      [0, 0xff],
      [0x131, 0x131],
      [0x1f1e6, 0x1f1ff],
    ]);
    expect(woffFileName('noto-sans-sc', '[115]', 'bold')).toBe('noto-sans-sc-115-700-normal.woff');
    expect(woffFileName('noto-sans', 'latin', 'normal')).toBe('noto-sans-latin-400-normal.woff');
  });
});
