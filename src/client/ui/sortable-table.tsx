import { useState, type ReactNode } from 'react';
import { nextSort, sortRows, type SortState } from '#shared/domain/sorting.ts';
import { Tooltip, type TooltipContent } from './tooltip.tsx';

export interface TableColumn<T, K extends string = string> {
  key: K;
  header: ReactNode;
  /** Header tooltip shown after 700 ms (docs/product.md#screens). */
  tooltip?: TooltipContent;
  render: (row: T) => ReactNode;
  /** Value sorted on; by default the row's own field named `key`. */
  sortValue?: (row: T) => unknown;
  align?: 'left' | 'right';
  /** Defaults to true. */
  sortable?: boolean;
  className?: string;
}

export interface SortableTableProps<T, K extends string = string> {
  columns: readonly TableColumn<T, K>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** Controlled sort; pass with onSortChange. `null` keeps the rows' own order. */
  sort?: SortState<K> | null;
  onSortChange?: (sort: SortState<K>) => void;
  /** Initial sort when uncontrolled. */
  defaultSort?: SortState<K> | null;
  /** Shown in a single row under the headers when there are no rows. */
  emptyText?: ReactNode;
  /** Accessible name of the table (and of its scrolling region). */
  label?: string;
  caption?: ReactNode;
  /** Max height of the scrolling wrapper (e.g. '25vh'); the header stays visible while the body scrolls. */
  maxHeight?: string;
  rowClassName?: (row: T) => string | undefined;
  className?: string;
}

const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;

function fieldOf(row: unknown, key: string): unknown {
  return typeof row === 'object' && row !== null ? (row as Record<string, unknown>)[key] : undefined;
}

/**
 * Rows in the order a table with these columns shows them for `sort`: what SortableTable draws, for
 * an export of the table in the reader's order.
 */
export function sortTableRows<T, K extends string>(
  rows: readonly T[],
  columns: readonly TableColumn<T, K>[],
  sort: SortState<K> | null,
): T[] {
  const byKey = new Map(columns.map((column) => [column.key, column]));
  return sortRows(rows, sort, (row, key) => {
    const column = byKey.get(key);
    return column?.sortValue ? column.sortValue(row) : fieldOf(row, key);
  });
}

/**
 * A table whose headers sort it: the first click sorts ascending, the next flips to descending
 * (docs/product.md#states). It scrolls horizontally inside its own wrapper, never the page.
 */
export function SortableTable<T, K extends string = string>({
  columns,
  rows,
  rowKey,
  sort,
  onSortChange,
  defaultSort = null,
  emptyText = 'No data.',
  label,
  caption,
  maxHeight,
  rowClassName,
  className,
}: SortableTableProps<T, K>) {
  const [ownSort, setOwnSort] = useState<SortState<K> | null>(defaultSort);
  const current = sort === undefined ? ownSort : sort;

  const sorted = sortTableRows(rows, columns, current);

  const onHeaderClick = (key: K) => {
    const next = nextSort(current, key);
    if (sort === undefined) setOwnSort(next);
    onSortChange?.(next);
  };

  return (
    <div
      className={className ? `ui-table-scroll ${className}` : 'ui-table-scroll'}
      style={maxHeight === undefined ? undefined : { maxHeight }}
      // A named group, not a region: the panel around a table is already the landmark, and two
      // landmarks of one name confuse a screen reader's landmark list.
      role={label === undefined ? undefined : 'group'}
      aria-label={label}
      // Keyboard users can scroll the table when it overflows.
      tabIndex={0}
    >
      <table className="ui-table" aria-label={caption === undefined ? label : undefined}>
        {caption === undefined ? null : <caption className="ui-table-caption">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column) => {
              const sortable = column.sortable ?? true;
              const direction = current?.key === column.key ? current.direction : undefined;
              const alignClass = column.align === 'right' ? 'ui-align-right' : undefined;
              const content = sortable ? (
                <button type="button" className="ui-sort-button" onClick={() => onHeaderClick(column.key)}>
                  <span>{column.header}</span>
                  <span className="ui-sort-indicator" aria-hidden="true" data-direction={direction ?? 'none'}>
                    {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕'}
                  </span>
                </button>
              ) : (
                column.header
              );
              return (
                <th
                  key={column.key}
                  scope="col"
                  className={[alignClass, column.className].filter(Boolean).join(' ') || undefined}
                  aria-sort={sortable ? (direction ? ARIA_SORT[direction] : 'none') : undefined}
                >
                  {column.tooltip ? (
                    <Tooltip description={column.tooltip.description} example={column.tooltip.example}>
                      {content}
                    </Tooltip>
                  ) : (
                    content
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {sorted.length === 0 ? (
            <tr>
              <td className="ui-table-empty" colSpan={Math.max(columns.length, 1)}>
                {emptyText}
              </td>
            </tr>
          ) : (
            sorted.map((row) => (
              <tr key={rowKey(row)} className={rowClassName?.(row)}>
                {columns.map((column) => (
                  <td
                    key={column.key}
                    className={
                      [column.align === 'right' ? 'ui-align-right' : undefined, column.className]
                        .filter(Boolean)
                        .join(' ') || undefined
                    }
                  >
                    {column.render(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
