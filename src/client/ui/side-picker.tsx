import type { ReactNode } from 'react';
import { Dropdown, type DropdownOption } from './dropdown.tsx';
import { Skeleton } from './skeleton.tsx';
import { useIsWide } from './use-media-query.ts';
import './side-picker.css';

export interface PickerItem {
  value: string;
  label: string;
  /** Items sharing a group are listed under its heading (e.g. the broker of an account). */
  group?: string;
  /** Shown before the label (e.g. a broker icon). */
  icon?: ReactNode;
  /** Secondary line in the sidebar (e.g. a login). */
  detail?: ReactNode;
}

export interface SidePickerProps {
  /** Heading of the sidebar and of the phone dropdown, e.g. 'Select an Account'. */
  label: string;
  items: readonly PickerItem[];
  value: string | null;
  onChange: (value: string) => void;
  /** Icon beside a group heading. */
  groupIcon?: (group: string) => ReactNode;
  emptyText?: ReactNode;
  /**
   * The items are on their way: the picker is drawn in its place and size, disabled, so that the
   * content beside or below it does not move when they come (a layout shift).
   */
  loading?: boolean;
}

const LOADING_TEXT = 'Loading...';
/** Placeholder rows of the sidebar while its items load. */
const LOADING_ROWS = 4;

/** An icon beside a name that says the same thing: hidden from assistive technology so names are not read twice. */
function Decoration({ children }: { children: ReactNode }) {
  if (children === undefined || children === null) return null;
  return (
    <span className="side-picker-icon" aria-hidden="true">
      {children}
    </span>
  );
}

/**
 * Picks one item: a sidebar of buttons grouped under headings on large screens, a dropdown headed
 * by `label` on phones (docs/product.md#screens accounts and brokers screens).
 */
export function SidePicker({ label, items, value, onChange, groupIcon, emptyText = 'Nothing to select', loading = false }: SidePickerProps) {
  const wide = useIsWide();

  if (!wide && loading) {
    return (
      <div className="side-picker-phone" aria-busy="true">
        <Dropdown label={label} showLabel options={[]} value={null} onChange={onChange} disabled placeholder={LOADING_TEXT} className="side-picker-dropdown" />
      </div>
    );
  }

  if (loading) {
    return (
      <nav className="side-picker" aria-label={label} aria-busy="true">
        <h2 className="side-picker-title">{label}</h2>
        <span className="ui-visually-hidden" role="status">
          {LOADING_TEXT}
        </span>
        <ul className="side-picker-list" aria-hidden="true">
          {Array.from({ length: LOADING_ROWS }, (_, i) => (
            <li key={i} className="side-picker-item side-picker-item-loading">
              <Skeleton width="70%" height={14} />
            </li>
          ))}
        </ul>
      </nav>
    );
  }

  if (!wide) {
    const options: DropdownOption<string>[] = items.map((item) => ({
      value: item.value,
      group: item.group,
      label: (
        <span className="side-picker-option">
          <Decoration>{item.icon}</Decoration>
          <span>{item.label}</span>
        </span>
      ),
    }));
    return (
      <div className="side-picker-phone">
        <Dropdown
          label={label}
          showLabel
          options={options}
          value={value}
          onChange={onChange}
          emptyText={emptyText}
          maxHeight="60vh"
          className="side-picker-dropdown"
          renderValue={(option) => {
            const item = items.find((i) => i.value === option.value);
            return (
              <span className="side-picker-option">
                <Decoration>{item?.group && groupIcon ? groupIcon(item.group) : item?.icon}</Decoration>
                <span className="side-picker-value">
                  {item?.group ? `${item.group} · ` : ''}
                  {item?.label}
                </span>
              </span>
            );
          }}
        />
      </div>
    );
  }

  const sections: { group: string | undefined; items: PickerItem[] }[] = [];
  for (const item of items) {
    const last = sections.at(-1);
    if (last !== undefined && last.group === item.group) last.items.push(item);
    else sections.push({ group: item.group, items: [item] });
  }

  return (
    <nav className="side-picker" aria-label={label}>
      <h2 className="side-picker-title">{label}</h2>
      {items.length === 0 ? <p className="side-picker-empty">{emptyText}</p> : null}
      {sections.map((section, index) => (
        <div key={section.group ?? `section-${index}`} className="side-picker-section">
          {section.group === undefined ? null : (
            <h3 className="side-picker-group">
              <Decoration>{groupIcon?.(section.group)}</Decoration>
              <span>{section.group}</span>
            </h3>
          )}
          <ul className="side-picker-list">
            {section.items.map((item) => (
              <li key={item.value}>
                <button
                  type="button"
                  className="side-picker-item"
                  aria-current={item.value === value ? 'true' : undefined}
                  onClick={() => onChange(item.value)}
                >
                  <Decoration>{item.icon}</Decoration>
                  <span className="side-picker-text">
                    <span className="side-picker-label">{item.label}</span>
                    {item.detail === undefined ? null : <span className="side-picker-detail">{item.detail}</span>}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
