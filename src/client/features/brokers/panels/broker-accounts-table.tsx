import type { Account } from '#shared/contract/accounts.ts';
import { formatMoney } from '#shared/format/money.ts';
import { CardList, columnsToFields } from '#client/ui/card-list.tsx';
import { SortableTable, type TableColumn } from '#client/ui/sortable-table.tsx';
import { signedClass } from '#client/ui/trade-cells.tsx';

export const SELECT_A_BROKER = 'Select a broker to view accounts';

function accountColumns(showRebate: boolean): TableColumn<Account>[] {
  const money = (key: 'balance' | 'pnl' | 'total_commission' | 'total_swap' | 'total_rebate', header: string, signed = false): TableColumn<Account> => ({
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
    // SPEC §2 spells the column 'Comissions'.
    money('total_commission', 'Comissions'),
    money('total_swap', 'Swap', true),
    ...(showRebate ? [money('total_rebate', 'Rebate')] : []),
  ];
}

export interface BrokerAccountsTableProps {
  broker: string | null;
  accounts: readonly Account[];
  showRebate: boolean;
  wide: boolean;
}

/** The broker's accounts (SPEC §2): Account, Balance, P/L, Comissions, Swap and, with read_rebate, Rebate. */
export function BrokerAccountsTable({ broker, accounts, showRebate, wide }: BrokerAccountsTableProps) {
  const columns = accountColumns(showRebate);
  const rows = broker === null ? [] : accounts;
  return (
    <div className="broker-accounts">
      <h3 className="subsection-title">Accounts</h3>
      {wide ? (
        <SortableTable
          columns={columns}
          rows={rows}
          rowKey={(a) => a.account_id}
          emptyText={SELECT_A_BROKER}
          label="Broker accounts"
          defaultSort={{ key: 'account_name', direction: 'asc' }}
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
}
