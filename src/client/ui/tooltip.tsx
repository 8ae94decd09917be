import {
  cloneElement,
  isValidElement,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { createPortal } from 'react-dom';
import { TOOLTIP_DELAY_MS } from '#shared/domain/constants.ts';

/** What a column header (or any control) explains: a description and, optionally, an example. */
export interface TooltipContent {
  description: ReactNode;
  example?: ReactNode;
}

export interface TooltipProps extends TooltipContent {
  /** The described control; a single element receives aria-describedby, plain text is made focusable. */
  children: ReactNode;
  /** Delay before showing, docs/product.md#constants: 700 ms. */
  delayMs?: number;
  className?: string;
}

const GAP = 6;
const MARGIN = 8;

/**
 * A tooltip that appears TOOLTIP_DELAY_MS after hover or keyboard focus and hides on leave, blur or
 * Escape. It is portalled to the body so scrolling table wrappers and transformed panels do not clip it.
 */
export function Tooltip({ description, example, children, delayMs = TOOLTIP_DELAY_MS, className }: TooltipProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const anchorRef = useRef<HTMLSpanElement>(null);
  const tipRef = useRef<HTMLDivElement>(null);

  const cancel = useCallback(() => {
    if (timer.current !== undefined) clearTimeout(timer.current);
    timer.current = undefined;
  }, []);
  const schedule = useCallback(() => {
    cancel();
    timer.current = setTimeout(() => setOpen(true), delayMs);
  }, [cancel, delayMs]);
  const hide = useCallback(() => {
    cancel();
    setOpen(false);
  }, [cancel]);

  useEffect(() => cancel, [cancel]);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') hide();
    };
    // A touch user dismisses a long-pressed tooltip by touching anywhere else.
    const onPointerDown = (event: PointerEvent) => {
      if (!(event.target instanceof Node) || !anchorRef.current?.contains(event.target)) hide();
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open, hide]);

  // Placed below the anchor (above when there is no room), kept inside the viewport horizontally.
  useLayoutEffect(() => {
    const anchor = anchorRef.current;
    const tip = tipRef.current;
    if (!open || anchor === null || tip === null) return;
    const a = anchor.getBoundingClientRect();
    const t = tip.getBoundingClientRect();
    const viewportWidth = document.documentElement.clientWidth || window.innerWidth;
    const left = Math.max(MARGIN, Math.min(a.left + a.width / 2 - t.width / 2, viewportWidth - t.width - MARGIN));
    const below = a.bottom + GAP;
    const top = below + t.height > window.innerHeight && a.top - GAP - t.height > 0 ? a.top - GAP - t.height : below;
    tip.style.left = `${left}px`;
    tip.style.top = `${top}px`;
  }, [open]);

  const anchorChild = isValidElement<{ 'aria-describedby'?: string }>(children) ? (
    cloneElement(children, {
      'aria-describedby': [children.props['aria-describedby'], id].filter(Boolean).join(' '),
    })
  ) : (
    <span tabIndex={0} aria-describedby={id} className="ui-tooltip-text">
      {children}
    </span>
  );

  return (
    <span
      ref={anchorRef}
      className={className ? `ui-tooltip-anchor ${className}` : 'ui-tooltip-anchor'}
      onPointerEnter={(event) => {
        if (event.pointerType !== 'touch') schedule();
      }}
      onPointerLeave={(event) => {
        if (event.pointerType !== 'touch') hide();
      }}
      onPointerDown={(event) => {
        // Long press on touch screens, which have no hover.
        if (event.pointerType === 'touch') schedule();
      }}
      onPointerUp={(event) => {
        if (event.pointerType === 'touch' && !open) cancel();
      }}
      onPointerCancel={cancel}
      onFocus={schedule}
      onBlur={hide}
    >
      {anchorChild}
      {createPortal(
        <div ref={tipRef} id={id} role="tooltip" className="ui-tooltip" hidden={!open}>
          <span className="ui-tooltip-description">{description}</span>
          {example !== undefined && example !== null && example !== '' ? (
<span className="ui-tooltip-example">{example}</span>
          ) : null}
        </div>,
        document.body,
      )}
    </span>
  );
}
