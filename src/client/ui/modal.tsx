import { lazy, Suspense, useState, type ReactNode } from 'react';

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  /** Heading that names the dialog. */
  title: ReactNode;
  children: ReactNode;
  /** Buttons under the body (e.g. Cancel / Save). */
  footer?: ReactNode;
  /** Fills the screen, for the panels' expand overlays. */
  fullScreen?: boolean;
  /** Accessible name of the close button. */
  closeLabel?: string;
  className?: string;
}

// The dialog and its animation library load the first time a modal opens: a screen full of
// closed modals (every panel's expand overlay) costs nothing on its first paint.
const ModalDialog = lazy(() => import('./modal-dialog.tsx').then((m) => ({ default: m.ModalDialog })));

/**
 * A modal dialog: Escape, the close button and a click on the backdrop close it; focus moves into
 * it (to its `[data-autofocus]` element if any) and returns to where it was on close.
 */
export function Modal(props: ModalProps) {
  // Stays mounted after the first opening so that closing can animate out.
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <ModalDialog {...props} />
    </Suspense>
  );
}
