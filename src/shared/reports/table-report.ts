import { loadReportFonts, REPORT_FONT, type FontFiles, type FontStyle } from './pdf-fonts.ts';
import { pdfText, textLayer, type BidiEngine } from './pdf-text.ts';

export { pdfText };

/**
 * PDF reports made of a title, the period, a summary-by-currency table and a detailed table, with
 * 'Page X of Y' on every page (docs/product.md#constants), and any further titled tables after them.
 * jsPDF and jspdf-autotable are imported only when a report is asked for, so they stay out of the
 * pages' bundles. The app builds its reports from the data a page already holds (they work offline);
 * the server builds the investor statements with the same function. The text is drawn in Noto fonts
 * that cover Latin, Cyrillic, Greek, Hebrew, Arabic and Chinese, right-to-left scripts in their
 * order (pdf-fonts.ts, pdf-text.ts; docs/statements.md, "Scripts").
 */
export interface ReportTable {
  head: string[];
  body: string[][];
  /** Indexes of the columns aligned right (figures). */
  rightAligned?: readonly number[];
  /** A totals row under the body, on the table's last page. */
  foot?: string[];
  /** Small print under the table: what its figures mean. */
  remark?: string;
  /** Font size of a wide table (9 when not given). */
  fontSize?: number;
}

export interface TableReport {
  fileName: string;
  title: string;
  /** e.g. 'Real-Time Data, 05/03/2026 14:07' or 'End of Day 05/03/2026'. */
  period: string;
  /** Small print under the period, e.g. 'Generated 05/03/2026 14:07'. */
  note?: string;
  summaryTitle: string;
  summary: ReportTable;
  detailTitle: string;
  detail: ReportTable;
  /** Further tables, each under its title, after the detail. */
  more?: readonly { title: string; table: ReportTable }[];
}

const MARGIN = 14;
const ACCENT: [number, number, number] = [37, 99, 235];
const FOOT_FILL: [number, number, number] = [226, 232, 240];

/** Figures aligned right and never broken over two lines (a long name wraps instead). */
function columnStyles(table: ReportTable): Record<string, { halign: 'right'; cellWidth: 'wrap' }> {
  return Object.fromEntries((table.rightAligned ?? []).map((index) => [String(index), { halign: 'right' as const, cellWidth: 'wrap' as const }]));
}

/** Every string of the report with the style it is drawn in. */
function reportStrings(report: TableReport): [string, FontStyle][] {
  const tables = [report.summary, report.detail, ...(report.more ?? []).map((m) => m.table)];
  return [
    [report.title, 'bold'],
    [report.title, 'normal'],
    [report.period, 'normal'],
    [report.note ?? '', 'normal'],
    ['Page 0123456789 of', 'normal'],
    [report.summaryTitle, 'bold'],
    [report.detailTitle, 'bold'],
    ...(report.more ?? []).map((m): [string, FontStyle] => [m.title, 'bold']),
    ...tables.flatMap((t) => [
      ...t.head.map((h): [string, FontStyle] => [h, 'bold']),
      ...t.body.flatMap((row) => row.map((cell): [string, FontStyle] => [cell, 'normal'])),
      ...(t.foot ?? []).map((cell): [string, FontStyle] => [cell, 'bold']),
      [t.remark ?? '', 'normal'] as [string, FontStyle],
    ]),
  ];
}

/**
 * The report as a jsPDF document (A4 portrait, millimetres), its streams compressed. `fonts`: where
 * the font files come from (the server's node_modules, the app's build).
 */
export async function buildTableReport(report: TableReport, fonts: FontFiles) {
  const [{ jsPDF }, { autoTable }] = await Promise.all([import('jspdf'), import('jspdf-autotable')]);
  const doc = new jsPDF({ orientation: 'portrait', unit: 'mm', format: 'a4', compress: true });
  const layer = textLayer(doc, new (jsPDF as unknown as { __bidiEngine__: new (options: object) => BidiEngine }).__bidiEngine__({}));
  const chars: Record<FontStyle, Set<number>> = { normal: new Set(), bold: new Set() };
  for (const [text, style] of reportStrings(report)) {
    const glyphs = layer.glyphText(text);
    for (let i = 0; i < glyphs.length; i += 1) chars[style].add(glyphs.charCodeAt(i));
  }
  layer.install(await loadReportFonts(doc, fonts, chars));
  const pageWidth = doc.internal.pageSize.getWidth();
  const pageHeight = doc.internal.pageSize.getHeight();
  const lastY = () => (doc as unknown as { lastAutoTable?: { finalY?: number } }).lastAutoTable?.finalY ?? MARGIN;

  doc.setFont(REPORT_FONT, 'bold');
  doc.setFontSize(16);
  doc.text(pdfText(report.title), MARGIN, 20);
  doc.setFont(REPORT_FONT, 'normal');
  doc.setFontSize(11);
  doc.text(pdfText(report.period), MARGIN, 27);
  let y = 27;
  if (report.note) {
    doc.setFontSize(9);
    doc.setTextColor(100);
    doc.text(pdfText(report.note), MARGIN, 32);
    doc.setTextColor(0);
    y = 32;
  }

  const common = {
    theme: 'striped' as const,
    margin: { left: MARGIN, right: MARGIN, top: MARGIN, bottom: 18 },
    styles: { font: REPORT_FONT, fontSize: 9, cellPadding: 2.2 },
    headStyles: { fillColor: ACCENT, textColor: 255, fontStyle: 'bold' as const },
  };
  const clean = (table: ReportTable) => ({
    head: [table.head.map(pdfText)],
    body: table.body.map((row) => row.map(pdfText)),
    ...(table.foot ? { foot: [table.foot.map(pdfText)], showFoot: 'lastPage' as const, footStyles: { fillColor: FOOT_FILL, textColor: 0, fontStyle: 'bold' as const } } : {}),
    ...(table.fontSize ? { styles: { ...common.styles, fontSize: table.fontSize } } : {}),
    columnStyles: columnStyles(table),
    // Figures' headings (and totals) sit over their figures.
    didParseCell: (data: { section: string; column: { index: number }; cell: { styles: { halign: string } } }) => {
      if (data.section !== 'body' && (table.rightAligned ?? []).includes(data.column.index)) data.cell.styles.halign = 'right';
    },
  });
  let remarkEnd = 0;
  // A table's small print, wrapped to the page, on a new page when it does not fit.
  const remark = (table: ReportTable) => {
    remarkEnd = 0;
    if (!table.remark) return;
    doc.setFont(REPORT_FONT, 'normal');
    doc.setFontSize(8.5);
    doc.setTextColor(90);
    const lines = doc.splitTextToSize(pdfText(table.remark), pageWidth - 2 * MARGIN) as string[];
    let top = lastY() + 5;
    if (top + lines.length * 4 > pageHeight - 18) {
      doc.addPage();
      top = MARGIN + 6;
    }
    doc.text(lines, MARGIN, top);
    doc.setTextColor(0);
    remarkEnd = top + (lines.length - 1) * 4;
  };
  const below = () => (remarkEnd > 0 ? remarkEnd : lastY());

  doc.setFont(REPORT_FONT, 'bold');
  doc.setFontSize(12);
  doc.text(pdfText(report.summaryTitle), MARGIN, y + 10);
  autoTable(doc, { ...common, ...clean(report.summary), startY: y + 13 });
  remark(report.summary);

  for (const { title, table } of [{ title: report.detailTitle, table: report.detail }, ...(report.more ?? [])]) {
    let top = below() + 10;
    doc.setFont(REPORT_FONT, 'bold');
    doc.setFontSize(12);
    if (top > pageHeight - 40) {
      doc.addPage();
      top = MARGIN + 6;
    }
    doc.text(pdfText(title), MARGIN, top);
    autoTable(doc, { ...common, ...clean(table), startY: top + 3 });
    remark(table);
  }

  // Footers last, once the page count is known.
  const pages = doc.getNumberOfPages();
  doc.setFont(REPORT_FONT, 'normal');
  doc.setFontSize(9);
  doc.setTextColor(100);
  for (let page = 1; page <= pages; page += 1) {
    doc.setPage(page);
    doc.text(pdfText(report.title), MARGIN, pageHeight - 8);
    doc.text(`Page ${page} of ${pages}`, pageWidth - MARGIN, pageHeight - 8, { align: 'right' });
  }
  return doc;
}

