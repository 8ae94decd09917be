import type { Guard } from '#shared/contract/guards.ts';
import { basisName, guardTitle, levelsText, markShort, measureShort, SCOPE_LABELS, STATE_LABELS } from './guard-labels.ts';

/** Why the guard buttons are disabled offline: a guard change is never kept to be sent later. */
export const GUARDS_NEED_CONNECTION = 'Guards need a connection: a guard change is never sent later';

/**
 * A guard's badge on two lines: its state (in words, and coloured) with its basis and levels, then its
 * last measure and its mark: 'close-only Trailing 15/20/25 %' over 'fall 21,30 % · peak 10 500,00 $US'.
 */
function GuardChipText({ g, showScope }: { g: Guard; showScope: boolean }) {
  const now = [measureShort(g) ?? 'not measured yet', markShort(g)].filter((part) => part !== null).join(' · ');
  return (
    <>
      <span className="guard-chip-head">
        <span className="guard-chip-state">{STATE_LABELS[g.state]}</span>{' '}
        <span className="guard-chip-name">
          {showScope ? `${SCOPE_LABELS[g.scope]} · ` : ''}
          {basisName(g)} {levelsText(g)}
        </span>
      </span>
      <span className="guard-chip-now">{now}</span>
    </>
  );
}

export interface GuardStripProps {
  guards: readonly Guard[];
  /** Whose guards: 'SMA FX Follower 03'. */
  name: string;
  /** A write user opens a guard (its details, re-arm, remove) and adds one; others read the badges. */
  canWrite: boolean;
  online: boolean;
  onOpen: (g: Guard) => void;
  onAdd: () => void;
  /** Accessible name of the add button. */
  addLabel: string;
}

/**
 * The guards of a relation, follower or master at a glance: one badge each. A relation row shows
 * follower-wide guards with their scope ('Follower · …') beside the relation's own.
 */
export function GuardStrip({ guards, name, canWrite, online, onOpen, onAdd, addLabel }: GuardStripProps) {
  if (guards.length === 0 && !canWrite) return null;
  return (
    <div className="guard-strip">
      {guards.length ? (
        <ul className="guard-list" aria-label={`Guards of ${name}`}>
          {guards.map((g) => (
            <li key={g.id} data-guard={g.id} data-state={g.state}>
              {canWrite ? (
                <button type="button" className={`guard-chip guard-${g.state}`} title={guardTitle(g)} aria-haspopup="dialog" onClick={() => onOpen(g)}>
                  <GuardChipText g={g} showScope={g.scope !== 'relation'} />
                </button>
              ) : (
                <span className={`guard-chip guard-${g.state}`} title={guardTitle(g)}>
                  <GuardChipText g={g} showScope={g.scope !== 'relation'} />
                </span>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {canWrite ? (
        <button type="button" className="button guard-add" aria-label={addLabel} onClick={onAdd} disabled={!online} title={online ? undefined : GUARDS_NEED_CONNECTION}>
          + Guard
        </button>
      ) : null}
    </div>
  );
}
