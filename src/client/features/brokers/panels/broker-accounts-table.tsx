import { memo, useState } from 'react';
import type { Account } from '#shared/contract/accounts.ts';
import type { SortState } from '#shared/domain/sorting.ts';
import { formatMoney } from '#shared/format/money.ts';
import { CsvButton } from '#client/export/csv-button.tsx';
import { csvFileName, csvNumber, localIsoDate, type CsvColumn } from '#client/export/csv-table.ts';
import { CardList, columnsToFields } from '#client/ui/card-list.tsx';
import { SortableTable, sortTableRows, type TableColumn } from '#client/ui/sortable-table.tsx';
import { signedClass } from '#client/ui/trade-cells.tsx';

export const SELECT_A_BROKER = 'Select a broker to view accounts';

type MoneyKey = 'balance' | 'pnl' | 'total_commission' | 'total_swap' | 'total_rebate';

function accountColumns(showRebate: boolean): TableColumn<Account>[] {
  const money = (key: MoneyKey, header: string, signed = false): TableColumn<Account> => ({
    key,
    header,
    align: 'right',
    render: (a) => <span className={signed ? signedClass(a[key] ?? 0) : undefined}>{formatMoney(a[key], a.currency)}</span>,
  });
  return [
    {
      key: 'account_name',
      header: 'Account',
      render: (a) => (
        <span className="account-cell">
          <span>{a.account_name}</span>
          <span className="account-cell-login">{a.account}</span>
        </span>
      ),
    },
    money('balance', 'Balance'),
    money('pnl', 'P/L', true),
    // docs/product.md#screens spells the column 'Comissions'.
    money('total_commission', 'Comissions'),
    money('total_swap', 'Swap', true),
    ...(showRebate ? [money('total_rebate', 'Rebate')] : []),
  ];
}

/** The table's columns for a CSV file: the Account cell's name and login apart, the amounts' currency as a column. */
function accountCsvColumns(showRebate: boolean): CsvColumn<Account>[] {
  const money = (key: MoneyKey, title: string): CsvColumn<Account> => ({ title, value: (a) => csvNumber(a[key]) });
  return [
    { title: 'Account', value: (a) => a.account_name },
    { title: 'Login', value: (a) => a.account },
    money('balance', 'Balance'),
    money('pnl', 'P/L'),
    money('total_commission', 'Comissions'),
    money('total_swap', 'Swap'),
    ...(showRebate ? [money('total_rebate', 'Rebate')] : []),
    { title: 'Currency', value: (a) => a.currency },
  ];
}

export interface BrokerAccountsTableProps {
  broker: string | null;
  accounts: readonly Account[];
  showRebate: boolean;
  wide: boolean;
}

/** The broker's accounts (docs/product.md#screens): Account, Balance, P/L, Comissions, Swap and, with read_rebate, Rebate. */
export const BrokerAccountsTable = memo(function BrokerAccountsTable({ broker, accounts, showRebate, wide }: BrokerAccountsTableProps) {
  const [sort, setSort] = useState<SortState<string> | null>({ key: 'account_name', direction: 'asc' });
  const columns = accountColumns(showRebate);
  const rows = broker === null ? [] : accounts;
  const buildCsv = (nowMs: number) => ({
    fileName: csvFileName('broker_accounts', broker ?? '', localIsoDate(nowMs)),
    columns: accountCsvColumns(showRebate),
    // Phones list the cards in the accounts' own order, the table in its sort.
    rows: wide ? sortTableRows(rows, columns, sort) : rows,
  });
  return (
    <div className="broker-accounts">
      <div className="subsection-head">
        <h3 className="subsection-title">Accounts</h3>
        <CsvButton table={`${broker ?? 'broker'} accounts`} build={buildCsv} disabled={rows.length === 0} />
      </div>
      {wide ? (
        <SortableTable
          columns={columns}
          rows={rows}
          rowKey={(a) => a.account_id}
          emptyText={SELECT_A_BROKER}
          label="Broker accounts"
          sort={sort}
          onSortChange={setSort}
        />
      ) : (
        <CardList
          items={rows}
          itemKey={(a) => a.account_id}
          label="Broker accounts"
          emptyText={SELECT_A_BROKER}
          title={(a) => columns[0]?.render(a)}
          fields={columnsToFields(columns.slice(1))}
        />
      )}
    </div>
  );
});
