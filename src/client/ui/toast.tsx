import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { TOAST_MS } from '#shared/domain/constants.ts';
import { CloseIcon } from './icons.tsx';

export type ToastKind = 'success' | 'error';

export interface ToastApi {
  /** Shows a toast that dismisses itself after TOAST_MS (5 s, docs/product.md#constants); returns its id. */
  show: (message: string, kind?: ToastKind) => number;
  dismiss: (id: number) => void;
}

interface ToastItem {
  id: number;
  message: string;
  kind: ToastKind;
}

const ToastContext = createContext<ToastApi | null>(null);

export interface ToastProviderProps {
  children: ReactNode;
  /** Override of the display time, for tests. */
  durationMs?: number;
}

/** Holds the toasts of the app and shows them at the bottom of the screen. */
export function ToastProvider({ children, durationMs = TOAST_MS }: ToastProviderProps) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: number) => {
    const timer = timers.current.get(id);
    if (timer !== undefined) clearTimeout(timer);
    timers.current.delete(id);
    setToasts((list) => list.filter((toast) => toast.id !== id));
  }, []);

  const show = useCallback(
    (message: string, kind: ToastKind = 'success') => {
      const id = nextId.current++;
      setToasts((list) => [...list, { id, message, kind }]);
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), durationMs),
      );
      return id;
    },
    [dismiss, durationMs],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  const api = useMemo<ToastApi>(() => ({ show, dismiss }), [show, dismiss]);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="ui-toast-region">
        {toasts.map((toast) => (
          <div
            key={toast.id}
            role="status"
            aria-live={toast.kind === 'error' ? 'assertive' : 'polite'}
            className={`ui-toast ui-toast-${toast.kind}`}
          >
            <span className="ui-toast-icon" aria-hidden="true">
              {toast.kind === 'error' ? '!' : '✓'}
            </span>
            <span className="ui-toast-message">{toast.message}</span>
            <button
              type="button"
              className="icon-button ui-toast-close"
              aria-label="Dismiss notification"
              onClick={() => dismiss(toast.id)}
            >
              <CloseIcon />
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** The toast API of the nearest ToastProvider. */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (api === null) throw new Error('useToast must be used inside <ToastProvider>');
  return api;
}
