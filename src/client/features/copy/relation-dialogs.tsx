/* The Copy screen's relation dialogs: a follower's terms (add or edit, end) and a master's pairs. */
import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Account } from '#shared/contract/accounts.ts';
import type { CopyRule } from '#shared/contract/copy-rules.ts';
import { SIZING_LIMITS, type CopyRelation, type CopySizing } from '#shared/contract/copy-relations.ts';
import { copySize, type SizingMode } from '#shared/domain/copy-lot.ts';
import { FOREX_PAIRS } from '#shared/domain/pairs.ts';
import { parseDecimalInput } from '#shared/domain/suggestions.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { numberFormat } from '#shared/format/numbers.ts';
import { copyRuleKeys, copyRuleMutations } from '#client/api/queries/copy-rules.ts';
import { copyKeys } from '#client/api/queries/copy.ts';
import { UPDATE_FAILED } from '#client/api/queries/write.ts';
import { KEPT_TOAST, pendingForMaster } from '#client/offline/outbox.ts';
import { useOutbox } from '#client/offline/outbox-store.ts';
import { Modal } from '#client/ui/modal.tsx';
import { SegmentedControl } from '#client/ui/segmented-control.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { relationKeys, relationMutations, type RelationChange } from '#client/api/queries/relations.ts';
import type { Market } from '#shared/domain/market.ts';

const fixed2 = numberFormat('fr-FR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

const MODES: readonly { value: SizingMode; label: string }[] = [
  { value: 'ratio', label: 'Ratio' },
  { value: 'equity', label: 'Equity' },
  { value: 'fixed', label: 'Fixed lot' },
];

/** What a dialog edits: a new follower of a master, a relation in force, or a master's pairs. */
export type Editing =
  | { kind: 'add'; master: Account }
  | { kind: 'edit'; relation: CopyRelation; master: Account | undefined; follower: Account | undefined }
  | { kind: 'pairs'; master: Account; rule: CopyRule | undefined };

/** After a change: the relations, the report and the rules are read again. */
export function useRefresh() {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: relationKeys.all() }),
      queryClient.invalidateQueries({ queryKey: copyKeys.all() }),
      queryClient.invalidateQueries({ queryKey: copyRuleKeys.all() }),
    ]);
  };
}

export const messageOf = (err: unknown) => (err instanceof Error && err.message ? err.message : UPDATE_FAILED);
export const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

/**
 * The relation form's state: the follower, the sizing and its limits, the cap and the equity stop as
 * typed; what a master trade becomes with them; the change they ask for, checked before it is sent;
 * the save and the end, each refreshing the relations, the report and the rules.
 */
function useRelationForm(editing: Extract<Editing, { kind: 'add' | 'edit' }>, market: Market, candidates: Account[], onDone: () => void) {
  const toast = useToast();
  const refresh = useRefresh();
  const current = editing.kind === 'edit' ? editing.relation : null;
  const master = editing.master;
  const [followerId, setFollowerId] = useState(current?.follower.account_id ?? candidates[0]?.account_id ?? '');
  const [mode, setMode] = useState<SizingMode>(current?.sizing.mode ?? 'ratio');
  const initial = current ? (current.sizing.mode === 'ratio' ? current.sizing.ratio : current.sizing.mode === 'equity' ? current.sizing.multiplier : current.sizing.lot) : 1;
  const [value, setValue] = useState(text(initial));
  const [maxLot, setMaxLot] = useState(text(current?.max_lot));
  const [stop, setStop] = useState(text(current?.equity_stop));
  const [rearm, setRearm] = useState(false);
  const [confirmEnd, setConfirmEnd] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const follower = editing.kind === 'edit' ? editing.follower : candidates.find((a) => a.account_id === followerId);
  const followerName = current?.follower.account_name ?? follower?.account_name ?? '';
  const currency = current?.follower.currency ?? follower?.currency ?? 'EUR';
  const amount = parseDecimalInput(value);
  const cap = maxLot.trim() === '' ? null : parseDecimalInput(maxLot);
  const sizing: CopySizing | null =
    amount === null ? null : mode === 'ratio' ? { mode, ratio: amount } : mode === 'equity' ? { mode, multiplier: amount } : { mode, lot: amount };
  // What a master trade becomes, by the same rule the server sizes copies with.
  const unit = market === 'Forex' ? { one: 'lot', many: 'lots', example: 1 } : { one: 'share', many: 'shares', example: 100 };
  const example =
    sizing && (maxLot.trim() === '' || cap !== null)
      ? copySize(unit.example, { sizing, maxLot: cap }, market === 'Forex' ? 'lot' : 'share', { follower: follower?.equity_currency ?? null, master: master?.equity_currency ?? null })
      : null;
  const exampleText =
    example === null
      ? mode === 'equity'
        ? 'Sized at each copy by both equities in EUR.'
        : ''
      : `A ${market === 'Forex' ? '1-lot' : '100-share'} master trade is copied at ${market === 'Forex' ? fixed2.format(example) : example} ${example > 1 ? unit.many : unit.one}${mode === 'equity' ? ' at today’s equities' : ''}.`;

  const done = {
    onSuccess: async (res: { message: string }) => {
      toast.show(res.message);
      await refresh();
      onDone();
    },
    onError: (err: unknown) => setError(messageOf(err)),
  };
  const save = useMutation({ ...relationMutations.save(), ...done });
  const end = useMutation({ ...relationMutations.end(), ...done });

  /** The change the form asks for, or what is wrong with it. */
  const change = (): RelationChange => {
    const stopValue = stop.trim() === '' ? null : parseDecimalInput(stop);
    if (!sizing) throw new Error(`Give the ${mode === 'ratio' ? 'ratio' : mode === 'equity' ? 'multiplier' : 'lot'} as a number.`);
    if (maxLot.trim() !== '' && cap === null) throw new Error('The maximum lot must be a number, or empty for none.');
    if (stop.trim() !== '' && stopValue === null) throw new Error('The equity stop must be a number, or empty for none.');
    if (current) return { id: current.id, body: { sizing, max_lot: cap, equity_stop: stopValue, rearm_equity_stop: rearm } };
    if (!master || !followerId) throw new Error('Choose the follower.');
    return { body: { master: master.account_id, follower: followerId, sizing, max_lot: cap, equity_stop: stopValue } };
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    setError(null);
    let wanted: RelationChange;
    try {
      wanted = change();
    } catch (err) {
      setError(messageOf(err));
      return;
    }
    save.mutate(wanted);
  };
  const limits = mode === 'ratio' ? SIZING_LIMITS.ratio : mode === 'equity' ? SIZING_LIMITS.multiplier : SIZING_LIMITS.lot;
  const title = current ? `Copying of ${followerName}` : `Add a follower to ${master?.account_name ?? ''}`;
  const noCandidate = !current && candidates.length === 0;

  return { current, master, followerId, setFollowerId, mode, setMode, value, setValue, maxLot, setMaxLot, stop, setStop, rearm, setRearm, confirmEnd, setConfirmEnd, error, followerName, currency, unit, exampleText, save, end, submit, limits, title, noCandidate };
}

export function RelationModal({
  editing,
  market,
  candidates,
  onDone,
}: {
  editing: Extract<Editing, { kind: 'add' | 'edit' }>;
  /** The master's market: sizes are lots for forex, shares for equities. */
  market: Market;
  candidates: Account[];
  onDone: () => void;
}) {
  const { current, followerId, setFollowerId, mode, setMode, value, setValue, maxLot, setMaxLot, stop, setStop, rearm, setRearm, confirmEnd, setConfirmEnd, error, followerName, currency, unit, exampleText, save, end, submit, limits, title, noCandidate } = useRelationForm(editing, market, candidates, onDone);
  return (
    <Modal
      open
      onClose={onDone}
      title={title}
      footer={
        confirmEnd ? (
          <>
            <button type="button" className="button" onClick={() => setConfirmEnd(false)}>
              Keep copying
            </button>
            <button type="button" className="button primary relation-danger" onClick={() => end.mutate(current!.id)} disabled={end.isPending} data-autofocus>
              {end.isPending ? 'Ending...' : 'End relation'}
            </button>
          </>
        ) : (
          <>
            {current ? (
              <button type="button" className="button relation-end" onClick={() => setConfirmEnd(true)}>
                End…
              </button>
            ) : null}
            <button type="button" className="button" onClick={onDone}>
              {noCandidate ? 'Close' : 'Cancel'}
            </button>
            {noCandidate ? null : (
              <button type="submit" form="relation-form" className="button primary" disabled={save.isPending}>
                {save.isPending ? 'Saving...' : current ? 'Save' : 'Start copying'}
              </button>
            )}
          </>
        )
      }
    >
      {noCandidate ? (
        <p className="relation-confirm">
          Every other account of this portfolio copies a master or is copied already. End one of those relations first, then add it here.
        </p>
      ) : confirmEnd ? (
        <p className="relation-confirm">
          {followerName} stops copying {current?.master.account_name}: nothing more is copied to it. Its open copies still follow their master trades to
          their close.
        </p>
      ) : (
        <form id="relation-form" className="relation-form" onSubmit={submit} noValidate>
          {current ? (
            <p className="relation-sub">
              Copies {current.master.account_name} since {formatDateFr(current.started_at)}.
            </p>
          ) : (
            <label className="field">
              <span>Follower</span>
              <select value={followerId} onChange={(e) => setFollowerId(e.target.value)} data-autofocus>
                {candidates.map((a) => (
                  <option key={a.account_id} value={a.account_id}>
                    {a.account_name} ({a.currency})
                  </option>
                ))}
              </select>
            </label>
          )}
          <div className="relation-field">
            <span className="relation-label">Sizing</span>
            <SegmentedControl label="Sizing" options={MODES} value={mode} onChange={setMode} block />
          </div>
          <label className="field">
            <span>
              {mode === 'ratio'
                ? `Ratio (× the master's ${unit.many})`
                : mode === 'equity'
                  ? 'Multiplier (× follower equity ÷ master equity)'
                  : `${market === 'Forex' ? 'Lots' : 'Shares'} of every copy`}
            </span>
            <input type="number" step="any" min={limits.min} max={limits.max} inputMode="decimal" value={value} onChange={(e) => setValue(e.target.value)} />
          </label>
          <div className="relation-fields">
            <label className="field">
              <span>Max {unit.many}</span>
              <input type="number" step="any" min={0.01} inputMode="decimal" value={maxLot} onChange={(e) => setMaxLot(e.target.value)} placeholder="none" />
            </label>
            <label className="field">
              <span>Equity stop ({currency})</span>
              <input type="number" step="any" min={0} inputMode="decimal" value={stop} onChange={(e) => setStop(e.target.value)} placeholder="none" />
            </label>
          </div>
          {exampleText ? (
            <p className="relation-sub" aria-live="polite">
              {exampleText}
            </p>
          ) : null}
          {current?.equity_stopped_at != null ? (
            <label className="relation-check">
              <input type="checkbox" checked={rearm} onChange={(e) => setRearm(e.target.checked)} />
              <span>The stop fired on {formatDateFr(current.equity_stopped_at)}: arm it again and resume copying</span>
            </label>
          ) : null}
        </form>
      )}
      {error ? (
        <p role="alert" className="form-error relation-error">
          {error}
        </p>
      ) : null}
    </Modal>
  );
}

export function PairsModal({ master, rule, onDone }: { master: Account; rule: CopyRule | undefined; onDone: () => void }) {
  const toast = useToast();
  const refresh = useRefresh();
  const market = rule?.market_type ?? 'Forex';
  // A change kept while offline is where the user left the pairs.
  const kept = pendingForMaster(useOutbox(), master.account_id);
  const [start] = useState(() => kept?.request.new_allowed_pairs ?? rule?.allowed_pairs ?? []);
  const [chosen, setChosen] = useState<Set<string>>(new Set(start));
  const [equities, setEquities] = useState((market === 'Equities' ? start : []).join(', '));
  // Forex instruments beyond the 14 pairs (a metal, an exotic pair) are typed, as equities are.
  const [otherForex, setOtherForex] = useState(
    (market === 'Forex' ? start.filter((p) => !(FOREX_PAIRS as readonly string[]).includes(p)) : []).join(', '),
  );
  const listed = (text: string) =>
    text
      .split(',')
      .map((s) => s.trim().toUpperCase())
      .filter(Boolean);
  const [error, setError] = useState<string | null>(null);
  const pairsBody = () => ({
    master_id: master.account_id,
    new_allowed_pairs: market === 'Forex' ? [...FOREX_PAIRS.filter((p) => chosen.has(p)), ...listed(otherForex)] : listed(equities),
  });
  const save = useMutation({
    // Offline, the change is kept on the device (docs/client.md, "Edits made offline").
    ...copyRuleMutations.allowedPairsOrKeep(rule ?? { master_id: master.account_id, account_name: master.account_name, allowed_pairs: [] }),
    onSuccess: async (outcome) => {
      if (outcome.kept) {
        toast.show(KEPT_TOAST);
        onDone();
        return;
      }
      toast.show(outcome.result.message);
      await refresh();
      onDone();
    },
    onError: (err) => setError(messageOf(err)),
  });
  const toggle = (pair: string) =>
    setChosen((now) => {
      const next = new Set(now);
      if (next.has(pair)) next.delete(pair);
      else next.add(pair);
      return next;
    });
  return (
    <Modal
      open
      onClose={onDone}
      title={`Pairs copied from ${master.account_name}`}
      footer={
        <>
          <button type="button" className="button" onClick={onDone}>
            Cancel
          </button>
          <button type="button" className="button primary" onClick={() => save.mutate(pairsBody())} disabled={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save pairs'}
          </button>
        </>
      }
    >
      <p className="relation-sub relation-lead">Its followers copy only these {market === 'Forex' ? 'pairs' : 'equities'}; its other trades stay with it.</p>
      {market === 'Forex' ? (
        <fieldset className="relation-pairs-grid">
          <legend className="ui-visually-hidden">Forex pairs</legend>
          {FOREX_PAIRS.map((p) => (
            <label key={p} className={chosen.has(p) ? 'relation-pair relation-pair-on' : 'relation-pair'}>
              <input type="checkbox" checked={chosen.has(p)} onChange={() => toggle(p)} />
              <span>{p}</span>
            </label>
          ))}
          <label className="field relation-pairs-other">
            <span>Other pairs and metals, comma-separated</span>
            <input value={otherForex} onChange={(e) => setOtherForex(e.target.value)} placeholder="XAUUSD, USDTRY" />
          </label>
        </fieldset>
      ) : (
        <label className="field">
          <span>Equities, comma-separated</span>
          <input value={equities} onChange={(e) => setEquities(e.target.value)} placeholder="AAPL, MSFT" data-autofocus />
        </label>
      )}
      {error ? (
        <p role="alert" className="form-error relation-error">
          {error}
        </p>
      ) : null}
    </Modal>
  );
}
