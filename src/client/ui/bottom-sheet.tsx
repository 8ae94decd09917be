import { useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { AnimatePresence, motion, useDragControls, useReducedMotion, type PanInfo } from 'framer-motion';
import { trapTab, useEscapeLayer, useFocusInside, useScrollLock } from './layers.ts';
import { CloseIcon } from './icons.tsx';
import { DialogBackdrop } from './dialog-backdrop.tsx';
import { useIsWide } from './use-media-query.ts';

/** Dragging the sheet down further than this (px), or faster than the velocity (px/s), closes it. */
export const SHEET_CLOSE_OFFSET = 100;
export const SHEET_CLOSE_VELOCITY = 500;

export interface BottomSheetProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  closeLabel?: string;
  className?: string;
}

/** Whether a finished drag should dismiss the sheet. */
export function shouldCloseSheet(info: Pick<PanInfo, 'offset' | 'velocity'>): boolean {
  return info.offset.y > SHEET_CLOSE_OFFSET || info.velocity.y > SHEET_CLOSE_VELOCITY;
}

/**
 * On phones a sheet sliding up from the bottom that the user can drag down (by its handle or
 * header) to close; on screens
 * ≥ 900 px the same content in a panel at the top right. Escape, the close button and a click
 * outside close both.
 */
export function BottomSheet({ open, onClose, title, children, closeLabel = 'Close', className }: BottomSheetProps) {
  const titleId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const wide = useIsWide();
  const reduceMotion = useReducedMotion() ?? false;
  const dragControls = useDragControls();
  useEscapeLayer(open, onClose);
  useScrollLock(open && !wide);
  useFocusInside(open, panelRef);

  const transition = reduceMotion
    ? { duration: 0 }
    : wide
      ? { duration: 0.16, ease: 'easeOut' as const }
      : { type: 'spring' as const, damping: 32, stiffness: 320 };
  const hiddenPanel = wide ? { opacity: 0, y: -8 } : { y: '100%' };
  const panelClass = [wide ? 'ui-side-panel' : 'ui-sheet', className].filter(Boolean).join(' ');

  return createPortal(
    <AnimatePresence>
      {open ? (
        <DialogBackdrop
          key={wide ? 'panel' : 'sheet'}
          className={wide ? 'ui-backdrop ui-backdrop-clear' : 'ui-backdrop ui-backdrop-sheet'}
          transition={reduceMotion ? { duration: 0 } : { duration: 0.18 }}
          onClose={onClose}
        >
          <motion.div
            ref={panelRef}
            role="dialog"
            aria-modal="true"
            aria-labelledby={titleId}
            tabIndex={-1}
            className={panelClass}
            initial={hiddenPanel}
            animate={{ opacity: 1, y: 0 }}
            exit={hiddenPanel}
            transition={transition}
            onKeyDown={trapTab}
            {...(wide
              ? {}
              : {
                  drag: 'y' as const,
                  dragConstraints: { top: 0, bottom: 0 },
                  dragElastic: { top: 0, bottom: 0.9 },
                  // Dragged by its handle and header only, so the body can still scroll.
                  dragListener: false,
                  dragControls,
                  onDragEnd: (_event: PointerEvent | MouseEvent | TouchEvent, info: PanInfo) => {
                    if (shouldCloseSheet(info)) onClose();
                  },
                })}
          >
            {wide ? null : (
              <div className="ui-sheet-handle" aria-hidden="true" onPointerDown={(event) => dragControls.start(event)} />
            )}
            <div
              className="ui-modal-header"
              onPointerDown={wide ? undefined : (event) => {
                if (!(event.target instanceof Element && event.target.closest('button'))) dragControls.start(event);
              }}
            >
              <h2 id={titleId} className="ui-modal-title">
                {title}
              </h2>
              <button type="button" className="icon-button ui-close-button" aria-label={closeLabel} onClick={onClose}>
                <CloseIcon />
              </button>
            </div>
            <div className="ui-sheet-body">{children}</div>
          </motion.div>
        </DialogBackdrop>
      ) : null}
    </AnimatePresence>,
    document.body,
  );
}
