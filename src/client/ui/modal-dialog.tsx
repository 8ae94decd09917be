import { useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { AnimatePresence, motion, useReducedMotion } from 'framer-motion';
import { trapTab, useEscapeLayer, useFocusInside, useScrollLock } from './layers.ts';
import { CloseIcon } from './icons.tsx';
import { DialogBackdrop } from './dialog-backdrop.tsx';
import type { ModalProps } from './modal.tsx';

/** The dialog behind Modal (modal.tsx), in its own chunk with framer-motion (loaded on first opening). */
export function ModalDialog({
  open,
  onClose,
  title,
  children,
  footer,
  fullScreen = false,
  closeLabel = 'Close',
  className,
}: ModalProps) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const reduceMotion = useReducedMotion() ?? false;
  useEscapeLayer(open, onClose);
  useScrollLock(open);
  useFocusInside(open, dialogRef);

  const transition = reduceMotion ? { duration: 0 } : { duration: 0.18, ease: 'easeOut' as const };
  const panelFrom = fullScreen ? { opacity: 0, y: 24 } : { opacity: 0, scale: 0.96 };
  const panelClass = ['ui-modal', fullScreen ? 'ui-modal-full' : undefined, className].filter(Boolean).join(' ');

  return createPortal(
    <AnimatePresence>
      {open ? (
        <DialogBackdrop key="modal" className={fullScreen ? 'ui-backdrop ui-backdrop-full' : 'ui-backdrop'} transition={transition} onClose={onClose}>
          <motion.div
            ref={dialogRef}
            role="dialog"
            aria-modal="true"
            aria-labelledby={titleId}
            tabIndex={-1}
            className={panelClass}
            initial={panelFrom}
            animate={{ opacity: 1, y: 0, scale: 1 }}
            exit={panelFrom}
            transition={transition}
            onKeyDown={trapTab}
          >
            <div className="ui-modal-header">
              <h2 id={titleId} className="ui-modal-title">
                {title}
              </h2>
              <button type="button" className="icon-button ui-close-button" aria-label={closeLabel} onClick={onClose}>
                <CloseIcon />
              </button>
            </div>
            <div className="ui-modal-body">{children}</div>
            {footer === undefined ? null : <footer className="ui-modal-footer">{footer}</footer>}
          </motion.div>
        </DialogBackdrop>
      ) : null}
    </AnimatePresence>,
    document.body,
  );
}
