// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SortableTable, type TableColumn } from './sortable-table.tsx';

afterEach(cleanup);

interface Row {
  id: number;
  account: string;
  balance: number | null;
}

const rows: Row[] = [
  { id: 1, account: 'Beta', balance: 200 },
  { id: 2, account: 'Alpha', balance: null },
  { id: 3, account: 'Gamma', balance: 50 },
];

const columns: TableColumn<Row, 'account' | 'balance'>[] = [
  { key: 'account', header: 'Account', render: (row) => row.account },
  {
    key: 'balance',
    header: 'Balance',
    align: 'right',
    tooltip: { description: 'Account balance', example: '1 000,00 €' },
    render: (row) => (row.balance === null ? '—' : String(row.balance)),
  },
];

function firstCells() {
  const [, ...bodyRows] = screen.getAllByRole('row');
  return bodyRows.map((row) => within(row).getAllByRole('cell')[0]?.textContent);
}

describe('SortableTable', () => {
  it('sorts ascending on the first click and descending on the second, with aria-sort', async () => {
    const user = userEvent.setup();
    render(<SortableTable columns={columns} rows={rows} rowKey={(row) => row.id} label="Accounts" />);
    const header = screen.getByRole('columnheader', { name: /Balance/ });
    expect(header.getAttribute('aria-sort')).toBe('none');

    await user.click(within(header).getByRole('button'));
    expect(header.getAttribute('aria-sort')).toBe('ascending');
    expect(firstCells()).toEqual(['Gamma', 'Beta', 'Alpha']);

    await user.click(within(header).getByRole('button'));
    expect(header.getAttribute('aria-sort')).toBe('descending');
    // Missing balances stay last in both directions.
    expect(firstCells()).toEqual(['Beta', 'Gamma', 'Alpha']);
    expect(screen.getByRole('columnheader', { name: /Account/ }).getAttribute('aria-sort')).toBe('none');
  });

  it('starts from the default sort and reports changes when controlled', async () => {
    const user = userEvent.setup();
    const seen: string[] = [];
    const { rerender } = render(
      <SortableTable
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        sort={{ key: 'account', direction: 'asc' }}
        onSortChange={(sort) => seen.push(`${sort.key}:${sort.direction}`)}
      />,
    );
    expect(firstCells()).toEqual(['Alpha', 'Beta', 'Gamma']);
    await user.click(screen.getByRole('button', { name: /Account/ }));
    expect(seen).toEqual(['account:desc']);
    rerender(
      <SortableTable columns={columns} rows={rows} rowKey={(row) => row.id} sort={{ key: 'account', direction: 'desc' }} />,
    );
    expect(firstCells()).toEqual(['Gamma', 'Beta', 'Alpha']);
  });

  it('shows the empty text under the headers', () => {
    render(<SortableTable columns={columns} rows={[]} rowKey={(row) => row.id} emptyText="No accounts found for this selection." />);
    expect(screen.getByRole('cell', { name: 'No accounts found for this selection.' })).toBeTruthy();
    expect(screen.getAllByRole('columnheader')).toHaveLength(2);
  });
});
