// The admin CLI's copy guard commands (docs/administration.md 'Copy guards'): the same changes, checks
// and audit as the API's (src/server/copy/guards.ts), naming accounts by login@server, for every account.
import { SetGuardBody } from '#shared/contract/guards.ts';
import { GUARD_BASES, GUARD_PERIODS, GUARD_SCOPES } from '#shared/domain/guards.ts';
import { guardsFor, rearm, removeGuard, setGuard } from '#server/copy/guards.ts';
import { relationOfFollower } from '#server/copy/relations.ts';
import { accountByLogin } from '#server/db/registry-repo.ts';
import type { Queryable } from '#server/db/database.ts';
import { CliError, accountKey, accountLabel, invalid, one, required, type AccountKey, type Input } from './args.ts';
import { command, iso, table, type Command } from './commands.ts';
import { OPERATOR, asCli } from './operator.ts';

async function accountOf(q: Queryable, key: AccountKey): Promise<{ id: number; account_id: string }> {
  const account = await accountByLogin(q, key.login, key.server);
  if (!account) throw new CliError(`Unknown account ${accountLabel(key)}: register it first with account add.`);
  return account;
}

const level = (input: Input, name: string): number | null => {
  const text = one(input, name);
  if (text === undefined || text.toLowerCase() === 'none') return null;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) throw invalid(`--${name} must be a number (got '${text}').`);
  return n;
};

const guardSet = command({
  area: 'guard',
  verb: 'set',
  synopsis:
    `--scope ${GUARD_SCOPES.join('|')} --account <login>@<server> --basis ${GUARD_BASES.join('|')}\n` +
    `    [--unit percent|money] [--period ${GUARD_PERIODS.join('|')}] [--warn 15] [--close-only 20] [--close-all 25]`,
  help: 'set a copy guard: on the relation the --account follows by (relation), on every relation into it (follower), or on every\n' +
    '      follower of it (master); levels in % (15 for 15 %) or money; the same guard set again takes the new levels',
  options: { scope: 'one', account: 'one', basis: 'one', unit: 'one', period: 'one', warn: 'one', 'close-only': 'one', 'close-all': 'one' },
  parse(input) {
    const account = accountKey(required(input, 'account', 'the account, as login@server'), 'account');
    const body = {
      scope: required(input, 'scope', GUARD_SCOPES.join(', ')),
      target: 0,
      basis: required(input, 'basis', GUARD_BASES.join(', ')),
      ...(one(input, 'unit') === undefined ? {} : { unit: one(input, 'unit') }),
      ...(one(input, 'period') === undefined ? {} : { period: one(input, 'period') }),
      warn: level(input, 'warn'),
      close_only: level(input, 'close-only'),
      close_all: level(input, 'close-all'),
    };
    const checked = SetGuardBody.safeParse({ ...body, target: 1 });
    if (!checked.success) throw invalid(checked.error.issues.map((i) => `${i.path.join('.') || 'guard'}: ${i.message}`).join('; '));
    return { account, body: checked.data };
  },
  async run({ db, out }, { account, body }) {
    const target = await accountOf(db, account);
    let ref: number | string = target.account_id;
    if (body.scope === 'relation') {
      const relation = await relationOfFollower(db, target.id);
      if (!relation) throw new CliError(`${accountLabel(account)} copies no master: a relation guard needs its relation.`);
      ref = relation.id;
    }
    const guard = await asCli(() => setGuard(db, OPERATOR, { ...body, target: ref }, new Date()));
    out(`Guard ${guard.id} set: ${guard.scope} ${guard.basis} on ${accountLabel(account)} (${[['warn', guard.warn], ['close-only', guard.close_only], ['close-all', guard.close_all]].filter(([, v]) => v !== null).map(([k, v]) => `${k} ${v}`).join(', ')}).`);
  },
});

const guardList = command({
  area: 'guard',
  verb: 'list',
  synopsis: '--account <login>@<server>',
  help: 'list the guards that apply to an account: its own, its relation\'s, its master\'s; their state and last measure',
  options: { account: 'one' },
  parse: (input) => accountKey(required(input, 'account', 'the account, as login@server'), 'account'),
  async run({ db, out }, key) {
    const account = await accountOf(db, key);
    const guards = await asCli(() => guardsFor(db, OPERATOR, account.account_id));
    table(
      out,
      ['ID', 'SCOPE', 'ON', 'BASIS', 'UNIT', 'WARN', 'CLOSE-ONLY', 'CLOSE-ALL', 'STATE', 'LAST', 'FIRED'],
      guards.map((g) => [
        String(g.id), g.scope, g.relation ? `${g.relation.follower.account_id} ← ${g.relation.master.account_id}` : (g.account?.account_id ?? '-'),
        g.basis + (g.period ? ` (${g.period})` : ''), g.unit, String(g.warn ?? '-'), String(g.close_only ?? '-'), String(g.close_all ?? '-'), g.state,
        g.last_value === null ? '-' : String(Math.round(g.last_value * 100) / 100), g.fired_at === null ? '-' : iso(new Date(g.fired_at * 1000)),
      ]),
    );
  },
});

const guardId = (input: Input) => {
  const id = Number(input.positionals[0]);
  if (!Number.isInteger(id) || id <= 0) throw invalid(`'${input.positionals[0]}' is not a guard id (guard list shows them).`);
  return id;
};

const guardRearm = command({
  area: 'guard',
  verb: 'rearm',
  synopsis: '<id> [--mark keep|fresh]',
  help: 're-arm a guard that reached close-only or closed: copying resumes as its levels allow; --mark fresh starts it afresh\n' +
    '      from today\'s equity, keep (the default) keeps its mark',
  positionals: 1,
  options: { mark: 'one' },
  parse(input) {
    const mark = one(input, 'mark') ?? 'keep';
    if (mark !== 'keep' && mark !== 'fresh') throw invalid(`--mark must be keep or fresh (got '${mark}').`);
    return { id: guardId(input), fresh: mark === 'fresh' };
  },
  async run({ db, out }, { id, fresh }) {
    const guard = await asCli(() => rearm(db, OPERATOR, id, fresh, new Date()));
    out(`Guard ${guard.id} re-armed${fresh ? ' from today\'s equity' : ', keeping its mark'}: the leading server copies again as its levels allow.`);
  },
});

const guardRemove = command({
  area: 'guard',
  verb: 'remove',
  synopsis: '<id>',
  help: 'remove a guard',
  positionals: 1,
  parse: guardId,
  async run({ db, out }, id) {
    await asCli(() => removeGuard(db, OPERATOR, id));
    out(`Guard ${id} removed.`);
  },
});

export const GUARD_COMMANDS: readonly Command[] = [guardSet, guardList, guardRearm, guardRemove];
