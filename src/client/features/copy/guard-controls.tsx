import { useState } from 'react';
import type { Guard } from '#shared/contract/guards.ts';
import { useOfflineStatus } from '#client/offline/offline-status.ts';
import { GuardDialog } from './guard-dialog.tsx';
import { GuardForm } from './guard-form.tsx';
import type { GuardChoice } from './guard-form-values.ts';
import { GuardStrip } from './guard-strip.tsx';

export interface GuardControlsProps {
  /** The badges: the guards of this relation (and its follower), or of this master. */
  shown: readonly Guard[];
  /** Every guard read on the panel: the form fills its levels from one already set. */
  all: readonly Guard[];
  /** Whose guards: 'GFX Follower 05'. */
  name: string;
  /** The dialogs' title: 'Guard on GFX Follower 05'. */
  title: string;
  /** What a guard set here may apply to. */
  choices: readonly [GuardChoice, ...GuardChoice[]];
  canWrite: boolean;
  addLabel: string;
}

type Open = { kind: 'set'; preset?: Guard } | { kind: 'guard'; guard: Guard };

/** The badges of one row, and for a write user the dialogs that set, change, re-arm or remove a guard. */
export function GuardControls({ shown, all, name, title, choices, canWrite, addLabel }: GuardControlsProps) {
  const { browserOnline } = useOfflineStatus();
  const [open, setOpen] = useState<Open | null>(null);
  const close = () => setOpen(null);
  return (
    <>
      <GuardStrip
        guards={shown}
        name={name}
        canWrite={canWrite}
        online={browserOnline}
        onOpen={(guard) => setOpen({ kind: 'guard', guard })}
        onAdd={() => setOpen({ kind: 'set' })}
        addLabel={addLabel}
      />
      {canWrite && open?.kind === 'set' ? <GuardForm title={title} choices={choices} existing={all} preset={open.preset} onDone={close} /> : null}
      {canWrite && open?.kind === 'guard' ? (
        <GuardDialog
          // The guard as last read while the dialog is open (its state and measure move).
          guard={all.find((g) => g.id === open.guard.id) ?? open.guard}
          onChange={(guard) => setOpen({ kind: 'set', preset: guard })}
          onDone={close}
        />
      ) : null}
    </>
  );
}
