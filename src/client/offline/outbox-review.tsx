import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { CopyRule } from '#shared/contract/copy-rules.ts';
import type { Position } from '#shared/contract/positions.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { formatPrice } from '#shared/format/numbers.ts';
import { copyRuleKeys } from '#client/api/queries/copy-rules.ts';
import { onServerRegained } from '#client/live/reachability.ts';
import { Modal } from '#client/ui/modal.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { useOfflineStatus } from './offline-status.ts';
import {
  currentOf,
  entryChange,
  entryLabel,
  expiredMessage,
  failedSendOutcome,
  freshNeeds,
  isExpired,
  levelsText,
  pairsDelta,
  pairsText,
  PENDING_NOTE,
  refusedMessage,
  reviewEntry,
  type CurrentState,
  type OutboxEntry,
} from './outbox.ts';
import { outbox, useOutbox } from './outbox-store.ts';
import { fetchCurrentState, sendEntry } from './outbox-sync.ts';
import './outbox.css';

export const REVIEW_TITLE = 'Changes made offline';
export const STILL_OFFLINE = 'Still no connection: your changes stay on this device.';

interface Item {
  entry: OutboxEntry;
  /** The position or rule as fetched for this review. */
  current: Position | CopyRule;
  /** Why the last send did not go through (kept for later). */
  note: string | null;
  sending: boolean;
}

interface Review {
  items: Item[];
  /** Changes dropped unsent, each with why. */
  dropped: string[];
}

const timeOf = (ms: number) => formatDateFr(ms / 1000);
const expiredNow = (entry: OutboxEntry) => isExpired(entry, Date.now());
const messageOf = (err: unknown) => (err instanceof Error && err.message ? err.message : 'Request failed.');

/**
 * The changes kept while offline (docs/client.md, "Edits made offline"): a bar while any waits, and,
 * when the server is reached again (the browser's `online` event, or reachability's regained
 * signal) or on 'Review now', each change against the position or rule as the server has it now,
 * to send or discard. Expired changes and those that no longer match are dropped, with why.
 */
/**
 * Checks the changes kept on this device against the server when the connection returns (and at
 * once when one is kept): expired or no longer applicable ones go with a message; the others wait in
 * a review for the user to send or discard. `check(true)` is the user asking, who is told when the
 * server still does not answer.
 */
function useOutboxCheck(entries: readonly OutboxEntry[], toast: ReturnType<typeof useToast>) {
  const [review, setReview] = useState<Review | null>(null);
  const [checking, setChecking] = useState(false);
  const busy = useRef(false);
  const open = useRef(false);
  useEffect(() => {
    open.current = review !== null;
  }, [review]);

  const check = useCallback(
    async (manual = false) => {
      const pending = outbox.entries();
      if (busy.current || open.current || pending.length === 0) return;
      if (!navigator.onLine) {
        if (manual) toast.show(STILL_OFFLINE, 'error');
        return;
      }
      busy.current = true;
      setChecking(true);
      try {
        const now = Date.now();
        const live = pending.filter((e) => !isExpired(e, now));
        let state: CurrentState | null = null;
        if (live.length > 0) {
          try {
            state = await fetchCurrentState(freshNeeds(live));
          } catch {
            // No answer yet: everything stays for the next reconnect (expired changes go now all the same).
            if (manual) toast.show(STILL_OFFLINE, 'error');
          }
        }
        const dropped: string[] = [];
        const dropKeys: string[] = [];
        const items: Item[] = [];
        for (const entry of pending) {
          if (!isExpired(entry, now) && state === null) continue;
          const current = state ? currentOf(entry, state) : null;
          const verdict = reviewEntry(entry, current, Date.now());
          if (verdict.verdict === 'drop') {
            dropped.push(verdict.message);
            dropKeys.push(entry.key);
          } else if (current) {
            items.push({ entry, current, note: null, sending: false });
          }
        }
        if (dropKeys.length > 0) await outbox.remove(dropKeys);
        if (items.length > 0 || dropped.length > 0) setReview({ items, dropped });
      } finally {
        busy.current = false;
        setChecking(false);
      }
    },
    [toast],
  );

  useEffect(() => {
    const run = () => void check();
    window.addEventListener('online', run);
    const stop = onServerRegained(run);
    return () => {
      window.removeEventListener('online', run);
      stop();
    };
  }, [check]);

  // At start (kept changes read from the device) and when a change is kept: try at once, in case
  // the server answers (the first attempt may have failed on a moment's dead zone).
  const hasEntries = entries.length > 0;
  useEffect(() => {
    if (!hasEntries) return;
    const timer = setTimeout(() => void check(), 0);
    return () => clearTimeout(timer);
  }, [hasEntries, check]);

  return { review, setReview, checking, check };
}

/** Sending or discarding one change of the review; each leaves the review once settled. */
function useReviewActions(setReview: Dispatch<SetStateAction<Review | null>>, toast: ReturnType<typeof useToast>) {
  const queryClient = useQueryClient();
  const updateItem = (key: string, change: Partial<Item>) =>
    setReview((r) => (r ? { ...r, items: r.items.map((i) => (i.entry.key === key ? { ...i, ...change } : i)) } : r));
  /** The item leaves the review (and the review closes once nothing is left in it). */
  const settle = (key: string, droppedMessage?: string) =>
    setReview((r) => {
      if (!r) return r;
      const next = { items: r.items.filter((i) => i.entry.key !== key), dropped: droppedMessage ? [...r.dropped, droppedMessage] : r.dropped };
      return next.items.length === 0 && next.dropped.length === 0 ? null : next;
    });

  const send = async (item: Item) => {
    const { entry } = item;
    if (expiredNow(entry)) {
      await outbox.remove([entry.key]);
      settle(entry.key, expiredMessage(entry));
      return;
    }
    updateItem(entry.key, { sending: true, note: null });
    try {
      const message = await sendEntry(entry);
      await outbox.remove([entry.key]);
      toast.show(message);
      settle(entry.key);
      if (entry.kind === 'allowed-pairs') void queryClient.invalidateQueries({ queryKey: copyRuleKeys.all() });
    } catch (err) {
      if (failedSendOutcome(err) === 'refused') {
        await outbox.remove([entry.key]);
        settle(entry.key, refusedMessage(entry, messageOf(err)));
      } else {
        updateItem(entry.key, { sending: false, note: `Not sent: ${messageOf(err)} It stays on this device.` });
      }
    }
  };

  const discard = async (item: Item) => {
    await outbox.remove([item.entry.key]);
    toast.show(`${entryLabel(item.entry)}: discarded.`);
    settle(item.entry.key);
  };

  return { send, discard };
}

export function OutboxReview() {
  const entries = useOutbox();
  const { browserOnline } = useOfflineStatus();
  const toast = useToast();
  const { review, setReview, checking, check } = useOutboxCheck(entries, toast);
  const { send, discard } = useReviewActions(setReview, toast);

  const count = entries.length;
  return (
    <>
      {count > 0 ? (
        <div className="outbox-bar" role="status">
          <span>
            {count === 1 ? '1 change made offline' : `${count} changes made offline`} · {PENDING_NOTE}
          </span>
          {browserOnline ? (
            <button type="button" className="button outbox-bar-button" onClick={() => void check(true)} disabled={checking}>
              {checking ? 'Checking...' : 'Review now'}
            </button>
          ) : null}
        </div>
      ) : null}
      <Modal
        open={review !== null}
        onClose={() => setReview(null)}
        title={REVIEW_TITLE}
        footer={
          <button type="button" className="button" onClick={() => setReview(null)}>
            {review?.items.length ? 'Later' : 'OK'}
          </button>
        }
      >
        {review?.dropped.length ? (
          <ul className="outbox-dropped" role="alert">
            {review.dropped.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        ) : null}
        {review?.items.length ? (
          <>
            <p className="outbox-lead">Made while offline and not sent yet. Check each against the server&apos;s values now, then send it or discard it.</p>
            {review.items.map((item) => (
              <ReviewItem key={item.entry.key} item={item} onSend={() => void send(item)} onDiscard={() => void discard(item)} />
            ))}
          </>
        ) : null}
      </Modal>
    </>
  );
}

function ReviewItem({ item, onSend, onDiscard }: { item: Item; onSend: () => void; onDiscard: () => void }) {
  const { entry, current } = item;
  const label = entryLabel(entry);
  return (
    <article className="outbox-item" aria-label={label}>
      <h3>{label}</h3>
      <dl className="outbox-values">
        {entry.kind === 'tp-sl' ? (
          <>
            <dt>Now on the server</dt>
            <dd data-value="now">
              {levelsText(current as Position)} · price {formatPrice((current as Position).price_current)}
            </dd>
            <dt>When you edited</dt>
            <dd>
              {levelsText(entry.seen)} · price {formatPrice(entry.seen.price_current)}
            </dd>
          </>
        ) : (
          <>
            <dt>Now on the server</dt>
            <dd data-value="now">{pairsText((current as CopyRule).allowed_pairs)}</dd>
          </>
        )}
        <dt>Your change</dt>
        <dd data-value="change">{entryChange(entry)}</dd>
        {entry.kind === 'allowed-pairs' ? (
          <>
            <dt>That is</dt>
            <dd>{pairsDelta((current as CopyRule).allowed_pairs, entry.request.new_allowed_pairs)}</dd>
          </>
        ) : null}
      </dl>
      <p className="outbox-time">
        Made {timeOf(entry.created_at)} · not sent after {timeOf(entry.expires_at)}
      </p>
      {item.note ? (
        <p role="alert" className="form-error">
          {item.note}
        </p>
      ) : null}
      <div className="outbox-actions">
        <button type="button" className="button" onClick={onDiscard} disabled={item.sending} aria-label={`Discard ${label}`}>
          Discard
        </button>
        <button type="button" className="button primary" onClick={onSend} disabled={item.sending} aria-label={`Send ${label}`}>
          {item.sending ? 'Sending...' : 'Send'}
        </button>
      </div>
    </article>
  );
}

/** "Pending — will be sent when you are back online", on a position or rule with a kept change. */
export function PendingNote({ detail }: { detail?: string }) {
  return (
    <span className="outbox-pending" title={detail ? `${PENDING_NOTE}: ${detail}` : PENDING_NOTE}>
      {PENDING_NOTE}
    </span>
  );
}
