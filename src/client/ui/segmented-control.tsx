import { useRef, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';

export interface SegmentedOption<V extends string> {
  value: V;
  label: ReactNode;
  disabled?: boolean;
}

export interface SegmentedControlProps<V extends string> {
  /** Accessible name of the group, e.g. 'Chart type'. */
  label: string;
  /** Plain values are their own labels (e.g. CHART_TYPES). */
  options: readonly (V | SegmentedOption<V>)[];
  value: V;
  onChange: (value: V) => void;
  /** Stretches the segments over the full width (phones). */
  block?: boolean;
  className?: string;
}

function normalise<V extends string>(option: V | SegmentedOption<V>): SegmentedOption<V> {
  return typeof option === 'string' ? { value: option, label: option } : option;
}

/**
 * Mutually exclusive buttons (radio group semantics): one tab stop, arrow keys move and select,
 * as in the WAI-ARIA radio group pattern.
 */
export function SegmentedControl<V extends string>({
  label,
  options,
  value,
  onChange,
  block = false,
  className,
}: SegmentedControlProps<V>) {
  const items = options.map(normalise);
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const checkedIndex = items.findIndex((item) => item.value === value);
  const tabStop = checkedIndex >= 0 ? checkedIndex : items.findIndex((item) => !item.disabled);

  const onKeyDown = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    const step =
      event.key === 'ArrowRight' || event.key === 'ArrowDown' ? 1 : event.key === 'ArrowLeft' || event.key === 'ArrowUp' ? -1 : 0;
    if (step === 0 || items.length === 0) return;
    event.preventDefault();
    const from = Math.max(0, checkedIndex);
    for (let i = 1; i <= items.length; i += 1) {
      const index = (from + step * i + items.length * i) % items.length;
      const item = items[index];
      if (item !== undefined && !item.disabled) {
        onChange(item.value);
        refs.current[index]?.focus();
        return;
      }
    }
  };

  const classes = ['ui-segmented', block ? 'ui-segmented-block' : undefined, className].filter(Boolean).join(' ');
  return (
    <div role="radiogroup" aria-label={label} className={classes} onKeyDown={onKeyDown}>
      {items.map((item, index) => (
        <button
          key={item.value}
          ref={(element) => {
            refs.current[index] = element;
          }}
          type="button"
          role="radio"
          aria-checked={item.value === value}
          tabIndex={index === tabStop ? 0 : -1}
          disabled={item.disabled}
          className="ui-segment"
          onClick={() => {
            if (item.value !== value) onChange(item.value);
          }}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
