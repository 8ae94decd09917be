import {
  useEffect,
  useId,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { useEscapeLayer } from './layers.ts';
import { ChevronDownIcon } from './icons.tsx';

export interface DropdownOption<V extends string> {
  value: V;
  label: ReactNode;
  /** Options sharing a group are listed under its heading (e.g. 'Historical NAV'). */
  group?: string;
  disabled?: boolean;
}

interface PopupProps {
  /** Accessible name of the trigger and the menu, e.g. 'Select Portfolio'. */
  label: string;
  /** Shows `label` above the trigger instead of only to assistive technology. */
  showLabel?: boolean;
  /** Shows `label` as the open menu's visible title (e.g. 'Select Portfolio' in the top bar). */
  titledMenu?: boolean;
  /** Max height of the menu before it scrolls, e.g. 400 for the pair selector. */
  maxHeight?: number | string;
  /** Which edge of the trigger the menu lines up with; 'right' for menus near the right edge. */
  align?: 'left' | 'right';
  disabled?: boolean;
  className?: string;
}

export interface DropdownProps<V extends string> extends PopupProps {
  options: readonly DropdownOption<V>[];
  value: V | null;
  onChange: (value: V) => void;
  /** Trigger text when nothing is selected. */
  placeholder?: ReactNode;
  /** Menu text when there are no options, e.g. 'No portfolios'. */
  emptyText?: ReactNode;
  /** Trigger content for the selected option; by default its label. */
  renderValue?: (option: DropdownOption<V>) => ReactNode;
}

/** Closes on a pointer press outside `root` while `open`. */
function useOutsidePress(open: boolean, root: RefObject<HTMLElement | null>, onOutside: () => void) {
  const latest = useRef(onOutside);
  useEffect(() => {
    latest.current = onOutside;
  });
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && root.current?.contains(event.target)) return;
      latest.current();
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open, root]);
}

function rootClass(className: string | undefined, align: 'left' | 'right') {
  return ['ui-dropdown', align === 'right' ? 'ui-dropdown-right' : undefined, className].filter(Boolean).join(' ');
}

function menuStyle(maxHeight: number | string | undefined): CSSProperties | undefined {
  return maxHeight === undefined ? undefined : { maxHeight };
}

/**
 * A select-like dropdown: a button opening a listbox. Arrow keys, Home/End move, Enter or Space
 * picks, Escape, Tab or a press outside close it.
 */
/**
 * A listbox's keyboard and pointer behaviour (the WAI-ARIA select-only combobox pattern): open on the
 * button's arrows, move over enabled options with the arrows, Home and End, pick with Enter or Space,
 * close on Escape, Tab or a press outside, focus back on the button after a pick.
 */
function useListbox<V extends string>(baseId: string, options: readonly DropdownOption<V>[], value: V | null, onChange: (value: V) => void, disabled: boolean) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const optionId = (index: number) => `${baseId}-opt-${index}`;

  const selectedIndex = options.findIndex((option) => option.value === value);
  const selected = options[selectedIndex];
  const enabled = options.flatMap((option, index) => (option.disabled ? [] : [index]));

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };
  const openMenu = (at?: 'first' | 'last') => {
    if (disabled) return;
    const start =
      at === 'first' ? enabled[0] : at === 'last' ? enabled.at(-1) : selectedIndex >= 0 ? selectedIndex : enabled[0];
    setActive(start ?? -1);
    setOpen(true);
  };
  const pick = (index: number) => {
    const option = options[index];
    if (option === undefined || option.disabled) return;
    onChange(option.value);
    close(true);
  };

  useEscapeLayer(open, () => close(true));
  useOutsidePress(open, rootRef, () => close(false));

  useEffect(() => {
    if (open) listRef.current?.focus({ preventScroll: true });
  }, [open]);
  useEffect(() => {
    if (!open || active < 0) return;
    document.getElementById(optionId(active))?.scrollIntoView?.({ block: 'nearest' });
    // optionId only depends on baseId, which never changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, active]);

  const move = (delta: 1 | -1) => {
    const at = enabled.indexOf(active);
    const next = at < 0 ? enabled[0] : enabled[Math.min(enabled.length - 1, Math.max(0, at + delta))];
    if (next !== undefined) setActive(next);
  };

  const onListKeyDown = (event: ReactKeyboardEvent<HTMLUListElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        move(1);
        break;
      case 'ArrowUp':
        event.preventDefault();
        move(-1);
        break;
      case 'Home':
        event.preventDefault();
        setActive(enabled[0] ?? -1);
        break;
      case 'End':
        event.preventDefault();
        setActive(enabled.at(-1) ?? -1);
        break;
      case 'Enter':
      case ' ':
        event.preventDefault();
        pick(active);
        break;
      case 'Tab':
        close(false);
        break;
    }
  };

  const onButtonKeyDown = (event: ReactKeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openMenu(event.key === 'ArrowDown' ? undefined : 'last');
    }
  };

  return { open, active, setActive, rootRef, buttonRef, listRef, optionId, selectedIndex, selected, close, openMenu, pick, onListKeyDown, onButtonKeyDown };
}

/** Consecutive options with the same group share one heading. */
function groupSections<V extends string>(options: readonly DropdownOption<V>[]) {
  const sections: { group: string | undefined; items: { option: DropdownOption<V>; index: number }[] }[] = [];
  options.forEach((option, index) => {
    const last = sections.at(-1);
    if (last !== undefined && last.group === option.group) last.items.push({ option, index });
    else sections.push({ group: option.group, items: [{ option, index }] });
  });
  return sections;
}

export function Dropdown<V extends string>({
  label,
  showLabel = false,
  titledMenu = false,
  options,
  value,
  onChange,
  placeholder = 'Select…',
  emptyText = 'No options',
  renderValue,
  maxHeight,
  align = 'left',
  disabled = false,
  className,
}: DropdownProps<V>) {
  const baseId = useId();
  const labelId = `${baseId}-label`;
  const listId = `${baseId}-list`;
  const { open, active, setActive, rootRef, buttonRef, listRef, optionId, selectedIndex, selected, close, openMenu, pick, onListKeyDown, onButtonKeyDown } =
    useListbox(baseId, options, value, onChange, disabled);
  const sections = groupSections(options);

  const renderOption = (option: DropdownOption<V>, index: number) => (
    <li
      key={option.value}
      id={optionId(index)}
      role="option"
      aria-selected={index === selectedIndex}
      aria-disabled={option.disabled ? true : undefined}
      className={index === active ? 'ui-option ui-option-active' : 'ui-option'}
      onPointerMove={() => {
        if (!option.disabled && index !== active) setActive(index);
      }}
      onClick={() => pick(index)}
    >
      <span className="ui-option-check" aria-hidden="true">
        {index === selectedIndex ? '✓' : ''}
      </span>
      <span className="ui-option-label">{option.label}</span>
    </li>
  );

  return (
    <div ref={rootRef} className={rootClass(className, align)}>
      <span id={labelId} className={showLabel ? 'ui-dropdown-label' : 'ui-visually-hidden'}>
        {label}
      </span>
      <button
        ref={buttonRef}
        type="button"
        className="button ui-dropdown-trigger"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-labelledby={`${labelId} ${baseId}-value`}
        disabled={disabled}
        onClick={() => (open ? close(false) : openMenu())}
        onKeyDown={onButtonKeyDown}
      >
        <span id={`${baseId}-value`} className="ui-dropdown-value">
          {selected ? (renderValue ? renderValue(selected) : selected.label) : placeholder}
        </span>
        <ChevronDownIcon className="ui-dropdown-chevron" />
      </button>
      {open ? (
        <ul
          ref={listRef}
          id={listId}
          role="listbox"
          aria-labelledby={labelId}
          aria-activedescendant={active >= 0 ? optionId(active) : undefined}
          tabIndex={-1}
          className="ui-dropdown-menu"
          style={menuStyle(maxHeight)}
          onKeyDown={onListKeyDown}
        >
          {titledMenu ? (
            <li role="presentation" className="ui-dropdown-title" aria-hidden="true">
              {label}
            </li>
          ) : null}
          {options.length === 0 ? (
            <li role="presentation" className="ui-dropdown-empty">
              {emptyText}
            </li>
          ) : (
            sections.map((section, sectionIndex) =>
              section.group === undefined ? (
                section.items.map(({ option, index }) => renderOption(option, index))
              ) : (
                <li key={`group-${sectionIndex}`} role="presentation">
                  <div id={`${baseId}-group-${sectionIndex}`} className="ui-dropdown-group" role="presentation">
                    {section.group}
                  </div>
                  <ul role="group" aria-labelledby={`${baseId}-group-${sectionIndex}`} className="ui-dropdown-group-list">
                    {section.items.map(({ option, index }) => renderOption(option, index))}
                  </ul>
                </li>
              ),
            )
          )}
        </ul>
      ) : null}
    </div>
  );
}

export interface DropdownMenuProps extends PopupProps {
  /** Trigger content; the accessible name is it, then `label`. */
  trigger: ReactNode;
  /** Free content of the menu, e.g. a list of pair toggles; it stays open while the user works in it. */
  children: ReactNode;
}

/**
 * A button opening a panel of free content (checkboxes, filters) that closes on Escape or a press
 * outside; use Dropdown for picking one value.
 */
export function DropdownMenu({
  label,
  showLabel = false,
  trigger,
  children,
  maxHeight,
  align = 'left',
  disabled = false,
  className,
}: DropdownMenuProps) {
  const baseId = useId();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = `${baseId}-panel`;
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };
  const labelSaysTrigger = typeof trigger === 'string' && label.toLowerCase().includes(trigger.toLowerCase());
  useEscapeLayer(open, () => close(true));
  useOutsidePress(open, rootRef, () => close(false));

  return (
    <div ref={rootRef} className={rootClass(className, align)}>
      <span id={`${baseId}-label`} className={showLabel ? 'ui-dropdown-label' : 'ui-visually-hidden'}>
        {label}
      </span>
      {/* Named by what it shows, then its label ('Pairs 8/14 Pairs of …'): the visible words are in the name (WCAG 2.5.3);
          by its label alone where that already says them. */}
      <button
        ref={buttonRef}
        type="button"
        className="button ui-dropdown-trigger"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-labelledby={labelSaysTrigger ? `${baseId}-label` : `${baseId}-value ${baseId}-label`}
        disabled={disabled}
        onClick={() => setOpen((was) => !was)}
      >
        <span id={`${baseId}-value`} className="ui-dropdown-value">
          {trigger}
        </span>
        <ChevronDownIcon className="ui-dropdown-chevron" />
      </button>
      {open ? (
        <div
          id={panelId}
          role="group"
          aria-label={label}
          className="ui-dropdown-menu ui-dropdown-panel"
          style={menuStyle(maxHeight)}
        >
          {children}
        </div>
      ) : null}
    </div>
  );
}
