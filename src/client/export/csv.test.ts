import { describe, expect, it } from 'vitest';
import { csvFileText, toCsv, UTF8_BOM } from '#shared/reports/csv.ts';
import { csvDateTime, csvFileName, csvNameOfPdf, csvNumber, type CsvColumn } from './csv-table.ts';

interface Row {
  name: string;
  amount: number | null;
  note: string | null;
  at: number | null;
}

const columns: CsvColumn<Row>[] = [
  { title: 'Name', value: (r) => r.name },
  { title: 'Amount', value: (r) => csvNumber(r.amount) },
  { title: 'Note', value: (r) => r.note },
  { title: 'Date', value: (r) => csvDateTime(r.at) },
];

const row = (name: string, amount: number | null, note: string | null = null, at: number | null = null): Row => ({ name, amount, note, at });

describe('toCsv (RFC 4180)', () => {
  it('writes a header row, CRLF between records, and quotes only the fields that need it', () => {
    const text = toCsv({
      columns,
      rows: [
        row('Smith, John', -1234.5, 'He said "hi"', Date.UTC(2026, 2, 5, 13, 7) / 1000),
        row('two\r\nlines', 1234567.891, 'one\nbreak'),
        row('Zoë €', 0.1 + 0.2, ' padded'),
      ],
    });
    expect(text).toBe(
      'Name,Amount,Note,Date\r\n' +
        '"Smith, John",-1234.5,"He said ""hi""",2026-03-05T13:07:00Z\r\n' +
        '"two\r\nlines",1234567.891,"one\nbreak",\r\n' +
        'Zoë €,0.30000000000000004," padded",',
    );
  });

  it('writes nothing for null, undefined, NaN and infinities, and numbers without grouping or rounding', () => {
    const text = toCsv({
      columns: [
        { title: 'a', value: () => null },
        { title: 'b', value: () => undefined },
        { title: 'c', value: () => Number.NaN },
        { title: 'd', value: () => Number.POSITIVE_INFINITY },
        { title: 'e', value: () => 1.0850012345678 },
        { title: 'f', value: () => -0.00001 },
        { title: 'g', value: () => 0 },
      ],
      rows: [{}],
    });
    expect(text).toBe('a,b,c,d,e,f,g\r\n,,,,1.0850012345678,-0.00001,0');
  });

  it("defuses text a spreadsheet would run as a formula (OWASP) but leaves numbers, negative ones too, alone", () => {
    const text = toCsv({
      columns: [
        { title: 'Text', value: (r: { t: string }) => r.t },
        { title: 'Number', value: () => -5 },
      ],
      rows: [{ t: '=SUM(A1:A2)' }, { t: '+33 6 12' }, { t: '-5' }, { t: '@cmd' }, { t: '\tTAB' }, { t: '\rCR' }, { t: '=1+2\n3' }, { t: 'a=b' }],
    });
    expect(text).toBe(
      'Text,Number\r\n' +
        `"'=SUM(A1:A2)",-5\r\n` +
        `"'+33 6 12",-5\r\n` +
        `"'-5",-5\r\n` +
        `"'@cmd",-5\r\n` +
        `"'\tTAB",-5\r\n` +
        `"'\rCR",-5\r\n` +
        `"'=1+2\n3",-5\r\n` +
        'a=b,-5',
    );
  });

  it('defuses a column title too, and writes the header alone for no rows', () => {
    expect(toCsv({ columns: [{ title: '=HYPERLINK("x")', value: () => 1 }, { title: 'P/L', value: () => 2 }], rows: [] })).toBe(
      `"'=HYPERLINK(""x"")",P/L`,
    );
  });

  it('starts the file with a UTF-8 BOM and ends it with CRLF', () => {
    const text = csvFileText({ columns: [{ title: 'Compte', value: (r: { n: string }) => r.n }], rows: [{ n: 'Société Générale' }] });
    expect(UTF8_BOM).toBe('\uFEFF');
    expect(text).toBe('\uFEFFCompte\r\nSociété Générale\r\n');
  });
});

describe('CSV cells and names', () => {
  it('writes times as ISO 8601 in UTC to the second, whatever the time zone', () => {
    expect(csvDateTime(0)).toBe('1970-01-01T00:00:00Z');
    expect(csvDateTime(1_772_716_020)).toBe('2026-03-05T13:07:00Z');
    expect(csvDateTime(null)).toBeNull();
    expect(csvDateTime(Number.NaN)).toBeNull();
  });

  it('keeps numbers as the API gave them and drops what is not one', () => {
    expect(csvNumber(1.08523)).toBe(1.08523);
    expect(csvNumber('12.5')).toBe(12.5);
    expect(csvNumber(null)).toBeNull();
    expect(csvNumber('—')).toBeNull();
  });

  it('names files as the PDF reports do, with .csv', () => {
    expect(csvFileName('live_trades', 'IC Markets', '2026-03-05')).toBe('live_trades_IC_Markets_2026-03-05.csv');
    expect(csvFileName('historical_trades', '51234567@Pepperstone-Live01', '2026-03-05')).toBe(
      'historical_trades_51234567Pepperstone-Live01_2026-03-05.csv',
    );
    expect(csvNameOfPdf('nav_report_Consolidated_Portfolio_2026-03-05.pdf')).toBe('nav_report_Consolidated_Portfolio_2026-03-05.csv');
  });
});
