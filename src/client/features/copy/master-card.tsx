import type { Account } from '#shared/contract/accounts.ts';
import type { CopyRule } from '#shared/contract/copy-rules.ts';
import type { CopyRelation, CopySizing } from '#shared/contract/copy-relations.ts';
import type { Guard } from '#shared/contract/guards.ts';
import type { Market } from '#shared/domain/market.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { formatMoney } from '#shared/format/money.ts';
import { numberFormat } from '#shared/format/numbers.ts';
import { pairsText, type AllowedPairsEntry } from '#client/offline/outbox.ts';
import { PendingNote } from '#client/offline/outbox-review.tsx';
import { GuardControls } from './guard-controls.tsx';
import { followerChoices, guardsOfMaster, guardsOfRelation, masterChoices } from './relation-guards.ts';

const lots = numberFormat('fr-FR', { minimumFractionDigits: 0, maximumFractionDigits: 4 });

/** How a relation sizes its copies, in a few words. */
export function sizingLabel(sizing: CopySizing, maxLot: number | null, market: Market = 'Forex'): string {
  const unit = (n: number) => (market === 'Forex' ? (n > 1 ? 'lots' : 'lot') : n > 1 ? 'shares' : 'share');
  const size =
    sizing.mode === 'ratio'
      ? `${lots.format(sizing.ratio)} × the master's ${unit(2)}`
      : sizing.mode === 'equity'
        ? `equity proportion × ${lots.format(sizing.multiplier)}`
        : `fixed ${lots.format(sizing.lot)} ${unit(sizing.lot)}`;
  return maxLot === null ? size : `${size}, at most ${lots.format(maxLot)} ${unit(maxLot)}`;
}

function stopLabel(r: CopyRelation): string | null {
  if (r.equity_stop === null) return null;
  const level = formatMoney(r.equity_stop, r.follower.currency);
  return r.equity_stopped_at === null ? `stop ${level}` : `stop ${level} fired ${formatDateFr(r.equity_stopped_at)}: not copying`;
}

export interface MasterCardProps {
  master: Account;
  rule: CopyRule | undefined;
  /** Its pairs changed offline, waiting to be sent. */
  keptPairs: AllowedPairsEntry | undefined;
  followers: readonly CopyRelation[];
  /** Every guard read on the panel. */
  guards: readonly Guard[];
  canWrite: boolean;
  onPairs: () => void;
  onEdit: (r: CopyRelation) => void;
  onAdd: () => void;
}

/**
 * One master: its pairs and its guards, then each follower with its sizing, cap, equity stop and
 * guards. A write user sets the pairs, edits or adds a follower, and sets guards.
 */
export function MasterCard({ master: m, rule, keptPairs, followers, guards, canWrite, onPairs, onEdit, onAdd }: MasterCardProps) {
  return (
    <article className="relation-master" aria-label={`Master ${m.account_name}`}>
      <header className="relation-master-head">
        <div>
          <h3>{m.account_name}</h3>
          <p className="relation-sub">
            {m.broker_name} · {m.account}
          </p>
        </div>
        {canWrite ? (
          <button type="button" className="button relation-small" onClick={onPairs} aria-label={`Pairs of ${m.account_name}`}>
            Pairs
          </button>
        ) : null}
      </header>
      {rule?.allowed_pairs.length ? (
        <p className="relation-pairs">
          Copies {rule.market_type === 'Forex' ? 'forex' : 'equities'}: {rule.allowed_pairs.join(' · ')}
        </p>
      ) : followers.length ? (
        // Followers and nothing they may copy: worth a warning.
        <p className="relation-pairs relation-warn">No pair allowed yet: none of its trades is copied. Set its pairs.</p>
      ) : null}
      {keptPairs ? (
        <p className="relation-pairs">
          <PendingNote /> Pairs: {pairsText(keptPairs.request.new_allowed_pairs)}
        </p>
      ) : null}
      <GuardControls shown={guardsOfMaster(guards, m)} all={guards} name={m.account_name} title={`Master guard on ${m.account_name}`} choices={masterChoices(m)} canWrite={canWrite} addLabel={`Add a master guard to ${m.account_name}`} />
      {followers.length ? (
        <ul className="relation-followers" aria-label={`Followers of ${m.account_name}`}>
          {followers.map((r) => (
            <li key={r.id}>
              <div className="relation-follower">
                <span className="relation-name">{r.follower.account_name}</span>
                <span className="relation-terms">{sizingLabel(r.sizing, r.max_lot, rule?.market_type)}</span>
                {stopLabel(r) ? <span className={r.equity_stopped_at === null ? 'relation-terms' : 'relation-terms relation-warn'}>{stopLabel(r)}</span> : null}
              </div>
              {canWrite ? (
                <button type="button" className="button relation-small" aria-label={`Edit ${r.follower.account_name}`} onClick={() => onEdit(r)}>
                  Edit
                </button>
              ) : null}
              <GuardControls shown={guardsOfRelation(guards, r)} all={guards} name={r.follower.account_name} title={`Guard on ${r.follower.account_name}`} choices={followerChoices(r)} canWrite={canWrite} addLabel={`Add a guard to ${r.follower.account_name}`} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="relation-sub">No follower yet.</p>
      )}
      {canWrite ? (
        <button type="button" className="button relation-add" onClick={onAdd} aria-label={`Add a follower to ${m.account_name}`}>
          + Add a follower
        </button>
      ) : null}
    </article>
  );
}
