import type { Key, ReactNode } from 'react';
import type { TableColumn } from './sortable-table.tsx';
import { ExpandableTradeCard, type TradeFace } from './trade-card.tsx';

export interface CardField<T> {
  key: string;
  label: ReactNode;
  render: (item: T) => ReactNode;
  align?: 'left' | 'right';
  /** In a compact trade card's details: takes the full width (a date, a name). */
  wide?: boolean;
}

export interface CardListProps<T> {
  items: readonly T[];
  itemKey: (item: T) => Key;
  /** Label/value rows of each card. */
  fields: readonly CardField<T>[];
  /** Card heading (e.g. instrument and direction). */
  title?: (item: T) => ReactNode;
  /** Buttons at the bottom of each card (e.g. Edit and Close). */
  actions?: (item: T) => ReactNode;
  /** Replaces the default card body entirely, e.g. for swipeable cards. */
  renderCard?: (item: T) => ReactNode;
  /**
   * Draws each item as a compact trade row (TradeCard) with this face; `fields` become the details
   * a tap opens in place. For trade lists, where a phone should show many rows at once.
   */
  face?: (item: T) => TradeFace;
  /** A line above the list, e.g. what a tap on a row shows. */
  hint?: ReactNode;
  emptyText?: ReactNode;
  /** Accessible name of the list. */
  label?: string;
  className?: string;
  /** A class of one compact trade row (`face`), e.g. to mute a row whose figures are not live. */
  itemClassName?: (item: T) => string | undefined;
}

/** The label/value fields of table columns, so a screen can show the same data as cards on phones. */
export function columnsToFields<T, K extends string>(columns: readonly TableColumn<T, K>[]): CardField<T>[] {
  return columns.map((column) => ({
    key: column.key,
    label: column.header,
    render: (item: T) => column.render(item),
    align: column.align,
  }));
}

/** Items as stacked cards for phones, each a list of label/value rows, or as compact trade rows (`face`). */
export function CardList<T>({
  items,
  itemKey,
  fields,
  title,
  actions,
  renderCard,
  face,
  hint,
  emptyText = 'No data.',
  label,
  className,
  itemClassName,
}: CardListProps<T>) {
  if (items.length === 0) {
    return <p className="ui-card-list-empty empty-state">{emptyText}</p>;
  }
  if (face) {
    return (
      <>
        {hint ? <p className="ui-trade-hint">{hint}</p> : null}
        <ul className={className ? `ui-trade-list ${className}` : 'ui-trade-list'} aria-label={label}>
          {items.map((item) => (
            <li key={itemKey(item)} className={itemClassName?.(item)}>
              <ExpandableTradeCard
                face={face(item)}
                details={fields.map((field) => ({ key: field.key, label: field.label, value: field.render(item), wide: field.wide }))}
              />
            </li>
          ))}
        </ul>
      </>
    );
  }
  return (
    <ul className={className ? `ui-card-list ${className}` : 'ui-card-list'} aria-label={label}>
      {items.map((item) => (
        <li key={itemKey(item)} className="ui-card">
          {renderCard ? (
            renderCard(item)
          ) : (
            <>
              {title ? <div className="ui-card-title">{title(item)}</div> : null}
              <dl className="ui-card-fields">
                {fields.map((field) => (
                  <div key={field.key} className="ui-card-row">
                    <dt>{field.label}</dt>
                    <dd className={field.align === 'left' ? 'ui-align-left' : undefined}>{field.render(item)}</dd>
                  </div>
                ))}
              </dl>
              {actions ? <div className="ui-card-actions">{actions(item)}</div> : null}
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
