// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CsvButton } from './csv-button.tsx';
import type { CsvTable } from './csv-table.ts';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

interface Row {
  account: string;
  pnl: number;
}

const table = (rows: Row[]): CsvTable<Row> => ({
  fileName: 'live_trades_IC_Markets_2026-03-05.csv',
  columns: [
    { title: 'Acc', value: (r) => r.account },
    { title: 'P/L', value: (r) => r.pnl },
  ],
  rows,
});

/** Catches the download: the object URL's blob and the link's file name. */
function catchDownload() {
  const caught: { blob?: Blob; name?: string } = {};
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    caught.blob = blob as Blob;
    return 'blob:csv';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    caught.name = this.download;
  });
  return caught;
}

describe('CsvButton', () => {
  it('is named after its table and downloads the rows it is given as a CSV file', async () => {
    const caught = catchDownload();
    render(<CsvButton table="Live trades" build={() => table([{ account: 'Follower, 02', pnl: -12.345 }])} />);
    fireEvent.click(screen.getByRole('button', { name: 'Export Live trades as CSV' }));
    await waitFor(() => expect(caught.name).toBe('live_trades_IC_Markets_2026-03-05.csv'));
    expect(caught.blob?.type).toBe('text/csv;charset=utf-8');
    const bytes = new Uint8Array(await caught.blob!.arrayBuffer());
    // The UTF-8 BOM, then the table.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.slice(3))).toBe('Acc,P/L\r\n"Follower, 02",-12.345\r\n');
    expect(document.querySelector('a[download]')).toBeNull();
  });

  it('is disabled when told (no rows)', () => {
    render(<CsvButton table="Rebates" build={() => table([])} disabled />);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Export Rebates as CSV' }).disabled).toBe(true);
  });

  it('says so when the file cannot be built', async () => {
    catchDownload();
    render(
      <CsvButton
        table="Rebates"
        build={() => {
          throw new Error('boom');
        }}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Export Rebates as CSV' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The CSV file could not be created. Please try again.');
  });
});
