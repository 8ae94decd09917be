import type { ReactNode } from 'react';

/**
 * Offline, a panel whose answer was never saved on this device is missing, not failing: said quietly,
 * in place of a red error or a spinner that cannot end (docs/client.md, "Offline and stale data").
 */
export const NOT_SAVED_OFFLINE = 'Offline: not saved on this device yet. It loads when the connection is back.';
const deviceOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

export interface EmptyStateProps {
  children: ReactNode;
  /** e.g. a button to clear a filter. */
  action?: ReactNode;
  className?: string;
}

/** A quiet message where a list or chart has nothing to show. */
export function EmptyState({ children, action, className }: EmptyStateProps) {
  return (
    <div className={className ? `empty-state ui-state ${className}` : 'empty-state ui-state'}>
      <p className="ui-state-message">{children}</p>
      {action ?? null}
    </div>
  );
}

export interface ErrorStateProps {
  children: ReactNode;
  /** Shows a retry button when given. */
  onRetry?: () => void;
  retryLabel?: string;
  className?: string;
}

/** An error message announced to screen readers at once (role="alert"). */
export function ErrorState({ children, onRetry, retryLabel = 'Retry', className }: ErrorStateProps) {
  if (deviceOffline()) return <EmptyState className={className}>{NOT_SAVED_OFFLINE}</EmptyState>;
  return (
    <div role="alert" className={className ? `ui-state ui-error-state ${className}` : 'ui-state ui-error-state'}>
      <p className="ui-state-message">{children}</p>
      {onRetry ? (
        <button type="button" className="button" onClick={() => onRetry()}>
          {retryLabel}
        </button>
      ) : null}
    </div>
  );
}

export interface LoadingStateProps {
  /** e.g. 'Loading account data...' (docs/product.md#screens). */
  children?: ReactNode;
  className?: string;
}

/** A spinner and a message, announced politely (role="status"). */
export function LoadingState({ children = 'Loading...', className }: LoadingStateProps) {
  if (deviceOffline()) return <EmptyState className={className}>{NOT_SAVED_OFFLINE}</EmptyState>;
  return (
    <div role="status" className={className ? `ui-state ui-loading-state ${className}` : 'ui-state ui-loading-state'}>
      <span className="ui-spinner" aria-hidden="true" />
      <p className="ui-state-message">{children}</p>
    </div>
  );
}
