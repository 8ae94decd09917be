import type { SortState } from '#shared/domain/sorting.ts';
import './sort-select.css';
import { Dropdown } from './dropdown.tsx';

export interface SortSelectProps<K extends string> {
  /** Columns the list can be sorted on, e.g. the table's columns shown as cards on phones. */
  options: readonly { key: K; label: string }[];
  sort: SortState<K> | null;
  onChange: (sort: SortState<K>) => void;
  /** Trigger text while the list keeps its default order. */
  defaultLabel?: string;
  label?: string;
}

/**
 * The phone counterpart of a sortable table's headers: pick a column (ascending, docs/product.md#states), then
 * flip the direction with the arrow button.
 */
export function SortSelect<K extends string>({
  options,
  sort,
  onChange,
  defaultLabel = 'Default order',
  label = 'Sort by',
}: SortSelectProps<K>) {
  const direction = sort?.direction ?? 'asc';
  return (
    <div className="ui-sort-select">
      <Dropdown
        label={label}
        options={options.map((o) => ({ value: o.key, label: o.label }))}
        value={sort?.key ?? null}
        placeholder={defaultLabel}
        onChange={(key) => onChange({ key, direction: sort?.key === key ? sort.direction : 'asc' })}
      />
      <button
        type="button"
        className="button ui-sort-direction"
        disabled={sort === null}
        aria-label={direction === 'asc' ? 'Sorted ascending, sort descending' : 'Sorted descending, sort ascending'}
        onClick={() => {
          if (sort !== null) onChange({ key: sort.key, direction: sort.direction === 'asc' ? 'desc' : 'asc' });
        }}
      >
        <span aria-hidden="true">{direction === 'asc' ? '▲' : '▼'}</span>
      </button>
    </div>
  );
}
