import { useEffect, useState } from 'react';
import './feed-banner.css';
import { WarningIcon } from './icons.tsx';

/** 'Last update 12 s ago', in seconds under a minute, then minutes, then hours; null before any update. */
export function formatUpdateAge(seconds: number | null): string {
  if (seconds === null) return 'No update received yet';
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `Last update ${s} s ago`;
  if (s < 3600) return `Last update ${Math.floor(s / 60)} min ago`;
  return `Last update ${Math.floor(s / 3600)} h ago`;
}

const ageOf = (since: number | null, now: number): number | null => (since === null ? null : (now - since) / 1000);

export interface FeedBannerProps {
  /** docs/product.md#errors's message for the failure: 'WebSocket error' or 'WebSocket closed: {code} {reason}'. */
  message: string;
  /** When the rows still shown arrived (Date.now()), or null when none did; read once a second. */
  lastUpdate: () => number | null;
  onRetry: () => void;
  /** Test seam for the clock. */
  now?: () => number;
}

/**
 * A dropped live feed, in one compact line above the rows it last delivered: the spec's message,
 * how old those rows are (ticking), and a Retry that reconnects at once instead of waiting out the
 * backoff.
 */
export function FeedBanner({ message, lastUpdate, onRetry, now = Date.now }: FeedBannerProps) {
  const [age, setAge] = useState(() => ageOf(lastUpdate(), now()));
  useEffect(() => {
    const timer = setInterval(() => setAge(ageOf(lastUpdate(), now())), 1000);
    return () => clearInterval(timer);
  }, [lastUpdate, now]);
  return (
    <div className="ui-feed-banner">
      <WarningIcon className="ui-feed-banner-icon" />
      <div className="ui-feed-banner-text">
        <p className="ui-feed-banner-message" role="status">
          {message}
        </p>
        <p className="ui-feed-banner-age" data-testid="feed-age">
          {formatUpdateAge(age)}
        </p>
      </div>
      <button type="button" className="button ui-feed-banner-retry" onClick={() => onRetry()}>
        Retry
      </button>
    </div>
  );
}
