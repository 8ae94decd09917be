/* The rebates table's columns, for the table, the cards and the CSV file, grouped by account or by broker. */
import type { RebateAggregate } from '#shared/domain/rebate-rules.ts';
import { formatRebateMoney } from '#shared/format/money.ts';
import { formatPercent } from '#shared/format/numbers.ts';
import { csvNumber, type CsvColumn } from '#client/export/csv-table.ts';
import { BrokerIcon } from '#client/ui/broker-icon.tsx';
import type { TableColumn } from '#client/ui/sortable-table.tsx';

export type RebateColumnKey = keyof Pick<
  RebateAggregate,
  'brokerName' | 'name' | 'balance' | 'totalRebate' | 'rebatePercentage' | 'totalProfitSharing' | 'currency'
>;

export function rebateRowKey(row: RebateAggregate): string {
  return `${row.brokerName}\u0000${row.name}\u0000${row.currency}`;
}

export function rebateColumns(byAccount: boolean): TableColumn<RebateAggregate, RebateColumnKey>[] {
  return [
    ...(byAccount
      ? [
          {
            key: 'brokerName' as const,
            header: 'Broker',
            render: (row: RebateAggregate) => (
              <span className="rebates-broker">
                <BrokerIcon broker={row.brokerName} size={22} />
                <span>{row.brokerName}</span>
              </span>
            ),
          },
        ]
      : []),
    // Grouped by broker, the row's name is its broker: the column sorts by brokerName, so the
    // default order (brokerName ascending, docs/product.md#states) is marked on it.
    byAccount
      ? { key: 'name' as const, header: 'Account', render: (row: RebateAggregate) => row.name }
      : {
          key: 'brokerName' as const,
          header: 'Broker',
          render: (row: RebateAggregate) => (
            <span className="rebates-broker">
              <BrokerIcon broker={row.name} size={22} />
              <span className="rebates-name">{row.name}</span>
            </span>
          ),
        },
    { key: 'balance', header: 'Balance', align: 'right', render: (row) => formatRebateMoney(row.balance, row.currency) },
    { key: 'totalRebate', header: 'Total Rebate', align: 'right', render: (row) => formatRebateMoney(row.totalRebate, row.currency) },
    { key: 'rebatePercentage', header: '% Rebate', align: 'right', render: (row) => formatPercent(row.rebatePercentage) },
    { key: 'totalProfitSharing', header: 'Profit Sharing', align: 'right', render: (row) => formatRebateMoney(row.totalProfitSharing, row.currency) },
    { key: 'currency', header: 'Currency', render: (row) => row.currency },
  ];
}

/** The table's columns as on screen, figures unformatted ('% Rebate' in percent, as shown). */
export function rebateCsvColumns(byAccount: boolean): CsvColumn<RebateAggregate>[] {
  return [
    ...(byAccount
      ? [
          { title: 'Broker', value: (row: RebateAggregate) => row.brokerName },
          { title: 'Account', value: (row: RebateAggregate) => row.name },
        ]
      : [{ title: 'Broker', value: (row: RebateAggregate) => row.name }]),
    { title: 'Balance', value: (row) => csvNumber(row.balance) },
    { title: 'Total Rebate', value: (row) => csvNumber(row.totalRebate) },
    { title: '% Rebate', value: (row) => csvNumber(row.rebatePercentage) },
    { title: 'Profit Sharing', value: (row) => csvNumber(row.totalProfitSharing) },
    { title: 'Currency', value: (row) => row.currency },
  ];
}
