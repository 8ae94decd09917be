import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { Position } from '#shared/contract/positions.ts';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import { pipSize } from '#shared/domain/instruments.ts';
import { coverAvailable, parseDecimalInput, suggestLevels } from '#shared/domain/suggestions.ts';
import { formatMoney } from '#shared/format/money.ts';
import { formatPrice } from '#shared/format/numbers.ts';
import { CLOSE_NOT_FOUND, POSITION_NOT_FOUND, positionMutations } from '#client/api/queries/positions.ts';
import { statsQueries } from '#client/api/queries/stats.ts';
import { CLOSE_FAILED, UPDATE_FAILED } from '#client/api/queries/write.ts';
import { NETWORK_ERROR } from '#client/api/http.ts';
import { useOfflineStatus } from '#client/offline/offline-status.ts';
import { CLOSE_NEEDS_CONNECTION, entryChange, KEPT_TOAST, keepAfterFailure, pendingForPosition } from '#client/offline/outbox.ts';
import { PendingNote } from '#client/offline/outbox-review.tsx';
import { useOutbox } from '#client/offline/outbox-store.ts';
import { Modal } from '#client/ui/modal.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { formatExcursion } from './live-model.ts';


const messageOf = (err: unknown, fallback: string) => (err instanceof Error && err.message ? err.message : fallback);
const priceText = (value: number | null, symbol: string) => (value === null ? '' : formatPrice(value, symbol));

/** Online, a save that got no answer: not a success (docs/client.md, "Honest outcomes"). */
export const KEPT_FOR_RETRY = 'Your change is kept on this device and sent again once the server answers.';

/** The success toast, with the levels at the instrument's digits (the server's text carries them as typed). */
export function tpSlSavedText(p: Pick<Position, 'u_symbol' | 'type'>, portfolio: Portfolio, levels: { take_profit: number; stop_loss: number }): string {
  return `Take profit ${formatPrice(levels.take_profit, p.u_symbol)} and stop loss ${formatPrice(levels.stop_loss, p.u_symbol)} set on ${p.u_symbol} ${p.type} in ${portfolio}.`;
}

interface EditProps {
  /** The position as it is in the latest snapshot; null once it is gone. */
  position: Position | null;
  /** What was selected, for the title while the position is gone. */
  selected: Position;
  portfolio: Portfolio;
  onDone: () => void;
}

/**
 * TP/SL editor with MAE/MFE suggestions and the cover button (docs/product.md#screens, §4, §5).
 * Without a connection the edit is kept on the device and offered again once back online
 * (docs/client.md, "Edits made offline").
 */
export function EditPositionModal({ position, selected, portfolio, onDone }: EditProps) {
  const toast = useToast();
  const { browserOnline } = useOfflineStatus();
  const pending = pendingForPosition(useOutbox(), selected);
  const [tp, setTp] = useState(() => priceText(selected.tp, selected.u_symbol));
  const [sl, setSl] = useState(() => priceText(selected.sl, selected.u_symbol));
  const [error, setError] = useState<string | null>(null);
  const current = position ?? selected;
  const mutation = useMutation({
    ...positionMutations.setTpSl(position, portfolio),
    onSuccess: (outcome, levels) => {
      // Online and no answer: the spec's network error, the change kept for a retry; never a success tick.
      if (outcome.kept && navigator.onLine) toast.show(`${NETWORK_ERROR} ${KEPT_FOR_RETRY}`, 'error');
      else if (outcome.kept) toast.show(KEPT_TOAST, 'error');
      else toast.show(tpSlSavedText(current, portfolio, levels));
      onDone();
    },
    onError: (err) => setError(messageOf(err, UPDATE_FAILED)),
  });

  const save = (event?: FormEvent) => {
    event?.preventDefault();
    if (!position) {
      setError(POSITION_NOT_FOUND);
      return;
    }
    const takeProfit = parseDecimalInput(tp);
    const stopLoss = parseDecimalInput(sl);
    // docs/product.md#validation: nothing is sent unless both parse as numbers.
    if (takeProfit === null || stopLoss === null) return;
    setError(null);
    mutation.mutate({ take_profit: takeProfit, stop_loss: stopLoss });
  };

  return (
    <Modal
      open
      onClose={onDone}
      title="Edit Position"
      footer={
        <>
          <button type="button" className="button" onClick={onDone}>
            Cancel
          </button>
          <button type="submit" form="summary-edit-form" className="button primary" disabled={mutation.isPending}>
            {mutation.isPending ? 'Saving...' : 'Save'}
          </button>
        </>
      }
    >
      <form id="summary-edit-form" className="summary-form" onSubmit={save} noValidate>
        <p className="summary-form-lead">
          <strong>
            {current.u_symbol} {current.type}
          </strong>{' '}
          · {current.account_name}
          <br />
          <span className="summary-sub">
            EP {formatPrice(current.price_open, current.u_symbol)} · now {formatPrice(current.price_current, current.u_symbol)} · P/L {formatMoney(current.profit, current.currency)}
          </span>
        </p>
        <p className="summary-sub">
          Applies to every open {current.u_symbol} {current.type} position in {portfolio}.
        </p>
        {pending ? (
          <p className="summary-sub">
            <PendingNote /> {entryChange(pending)}
          </p>
        ) : null}
        {browserOnline ? null : <p className="summary-sub">No connection: Save keeps the change on this device, to send once you are back online.</p>}
        <div className="summary-fields">
          <label className="field">
            <span>Take profit (TP)</span>
            <input type="number" step="any" inputMode="decimal" value={tp} onChange={(e) => setTp(e.target.value)} data-autofocus />
          </label>
          <label className="field">
            <span>Stop loss (SL)</span>
            <input type="number" step="any" inputMode="decimal" value={sl} onChange={(e) => setSl(e.target.value)} />
          </label>
        </div>
        <Suggestions current={current} onSl={setSl} onTp={setTp} />
        {error ? (
          <p role="alert" className="form-error">
            {error}
          </p>
        ) : null}
      </form>
    </Modal>
  );
}

/**
 * Levels suggested from the symbol's median MAE and MFE (the server's, else the feed's), and a TP at
 * breakeven that covers a loss; a tap puts one in the form.
 */
function Suggestions({ current, onSl, onTp }: { current: Position; onSl: (text: string) => void; onTp: (text: string) => void }) {
  const stats = useQuery(statsQueries.maeMfe(current.u_symbol));
  const medianMae = stats.data?.stats.median_mae ?? current.medianMae;
  const medianMfe = stats.data?.stats.median_mfe ?? current.medianMfe;
  const pip = pipSize(current.u_symbol);
  const suggestion =
    medianMae !== null && medianMfe !== null ? suggestLevels(current.type, current.price_open, medianMae, medianMfe, pip) : null;
  const canCover = coverAvailable(current.profit, current.breakeven);
  return (
    <section className="summary-suggest" aria-label="MAE/MFE suggestions">
      <h3>MAE/MFE suggestions</h3>
      <p className="summary-sub">
        Median MAE {formatExcursion(medianMae, current)} · median MFE {formatExcursion(medianMfe, current)}
        {current.category === 'Forex' ? ` · pip ${pip}` : null}
      </p>
      {suggestion ? (
        <div className="summary-suggest-row">
          <button type="button" className="button" onClick={() => onSl(formatPrice(suggestion.sl, current.u_symbol))}>
            SL {formatPrice(suggestion.sl, current.u_symbol)}
          </button>
          <button type="button" className="button" onClick={() => onTp(formatPrice(suggestion.tp, current.u_symbol))}>
            TP {formatPrice(suggestion.tp, current.u_symbol)}
          </button>
        </div>
      ) : (
        <p className="summary-sub">No MAE/MFE data for {current.u_symbol} yet.</p>
      )}
      {canCover && current.breakeven !== null ? (
        <button type="button" className="button summary-cover" onClick={() => onTp(formatPrice(current.breakeven, current.u_symbol))}>
          Cover loss: TP at breakeven {formatPrice(current.breakeven, current.u_symbol)}
        </button>
      ) : null}
    </section>
  );
}

interface CloseProps {
  position: Position | null;
  selected: Position;
  portfolio: Portfolio;
  onDone: () => void;
}

/** Close confirmation (docs/product.md#screens, §4). A close is never kept for later: offline it cannot be confirmed. */
export function ClosePositionModal({ position, selected, portfolio, onDone }: CloseProps) {
  const toast = useToast();
  const { browserOnline } = useOfflineStatus();
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    ...positionMutations.close(position, portfolio),
    onSuccess: (response) => {
      toast.show(response.message);
      onDone();
    },
    onError: (err) => setError(keepAfterFailure(err, true) ? `${messageOf(err, CLOSE_FAILED)} ${CLOSE_NEEDS_CONNECTION}.` : messageOf(err, CLOSE_FAILED)),
  });
  const confirm = () => {
    if (!position) {
      setError(CLOSE_NOT_FOUND);
      return;
    }
    setError(null);
    mutation.mutate();
  };
  return (
    <Modal
      open
      onClose={onDone}
      title="Close Position"
      footer={
        <>
          {/* Focus on Cancel: Enter on an opened dialog must not close positions at market. */}
          <button type="button" className="button" onClick={onDone} data-autofocus>
            Cancel
          </button>
          <button
            type="button"
            className="button primary summary-danger"
            onClick={confirm}
            disabled={mutation.isPending || !browserOnline}
            title={browserOnline ? undefined : CLOSE_NEEDS_CONNECTION}
          >
            {mutation.isPending ? 'Closing...' : 'Confirm close'}
          </button>
        </>
      }
    >
      <p>
        Close every open{' '}
        <strong>
          {selected.u_symbol} {selected.type}
        </strong>{' '}
        position in {portfolio} at the market price?
      </p>
      <p className="summary-sub">
        Selected: {selected.account_name} · P/L {formatMoney((position ?? selected).profit, selected.currency)}
      </p>
      {browserOnline ? null : <p className="summary-sub">{CLOSE_NEEDS_CONNECTION}.</p>}
      {error ? (
        <p role="alert" className="form-error">
          {error}
        </p>
      ) : null}
    </Modal>
  );
}
