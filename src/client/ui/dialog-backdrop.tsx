import type { ReactNode } from 'react';
import { motion, type Transition } from 'framer-motion';

/**
 * The dimmed layer behind a dialog (Modal, BottomSheet): fades in and out with it, and a press on
 * the layer itself, outside the dialog, closes it. A direct child of AnimatePresence, with a key.
 */
export function DialogBackdrop({ className, transition, onClose, children }: { className: string; transition: Transition; onClose: () => void; children: ReactNode }) {
  return (
    <motion.div
      className={className}
      initial={{ opacity: 0 }}
      animate={{ opacity: 1 }}
      exit={{ opacity: 0 }}
      transition={transition}
      onPointerDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      {children}
    </motion.div>
  );
}
