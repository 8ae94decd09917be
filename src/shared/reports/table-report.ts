/**
 * PDF reports made of a title, the period, a summary-by-currency table and a detailed table, with
 * 'Page X of Y' on every page (docs/product.md#constants), and any further titled tables after them.
 * jsPDF and jspdf-autotable are imported only when a report is asked for, so they stay out of the
 * pages' bundles. The app builds its reports from the data a page already holds (they work offline);
 * the server builds the investor statements with the same function.
 */
export interface ReportTable {
  head: string[];
  body: string[][];
  /** Indexes of the columns aligned right (figures). */
  rightAligned?: readonly number[];
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

/**
 * Text the PDF standard fonts can draw: their WinAnsi encoding lacks U+202F (fr-FR's group
 * separator) and U+2212, and U+00A0 extracts inconsistently; all become plain characters.
 */
export function pdfText(text: string): string {
  return text.replace(/[\u202f\u00a0\u2009]/g, ' ').replace(/\u2212/g, '-');
}

const MARGIN = 14;
const ACCENT: [number, number, number] = [37, 99, 235];

function columnStyles(table: ReportTable): Record<string, { halign: 'right' }> {
  return Object.fromEntries((table.rightAligned ?? []).map((index) => [String(index), { halign: 'right' as const }]));
}

/** The report as a jsPDF document (A4 portrait, millimetres). */
export async function buildTableReport(report: TableReport) {
  const [{ jsPDF }, { autoTable }] = await Promise.all([import('jspdf'), import('jspdf-autotable')]);
  const doc = new jsPDF({ orientation: 'portrait', unit: 'mm', format: 'a4' });
  const pageWidth = doc.internal.pageSize.getWidth();
  const pageHeight = doc.internal.pageSize.getHeight();
  const lastY = () => (doc as unknown as { lastAutoTable?: { finalY?: number } }).lastAutoTable?.finalY ?? MARGIN;

  doc.setFont('helvetica', 'bold');
  doc.setFontSize(16);
  doc.text(pdfText(report.title), MARGIN, 20);
  doc.setFont('helvetica', 'normal');
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
    styles: { font: 'helvetica', fontSize: 9, cellPadding: 2.2 },
    headStyles: { fillColor: ACCENT, textColor: 255, fontStyle: 'bold' as const },
  };
  const clean = (table: ReportTable) => ({
    head: [table.head.map(pdfText)],
    body: table.body.map((row) => row.map(pdfText)),
    columnStyles: columnStyles(table),
    // Figures' headings sit over their figures.
    didParseCell: (data: { section: string; column: { index: number }; cell: { styles: { halign: string } } }) => {
      if (data.section === 'head' && (table.rightAligned ?? []).includes(data.column.index)) data.cell.styles.halign = 'right';
    },
  });

  doc.setFont('helvetica', 'bold');
  doc.setFontSize(12);
  doc.text(pdfText(report.summaryTitle), MARGIN, y + 10);
  autoTable(doc, { ...common, ...clean(report.summary), startY: y + 13 });

  for (const { title, table } of [{ title: report.detailTitle, table: report.detail }, ...(report.more ?? [])]) {
    let top = lastY() + 10;
    doc.setFont('helvetica', 'bold');
    doc.setFontSize(12);
    if (top > pageHeight - 40) {
      doc.addPage();
      top = MARGIN + 6;
    }
    doc.text(pdfText(title), MARGIN, top);
    autoTable(doc, { ...common, ...clean(table), startY: top + 3 });
  }

  // Footers last, once the page count is known.
  const pages = doc.getNumberOfPages();
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(9);
  doc.setTextColor(100);
  for (let page = 1; page <= pages; page += 1) {
    doc.setPage(page);
    doc.text(pdfText(report.title), MARGIN, pageHeight - 8);
    doc.text(`Page ${page} of ${pages}`, pageWidth - MARGIN, pageHeight - 8, { align: 'right' });
  }
  return doc;
}

