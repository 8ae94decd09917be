// The admin CLI's copy commands (docs/administration.md 'Copy relations'): the same changes, checks
// and audit as the API's (src/server/copy/relations.ts, rules.ts), by login@server, for every account.
import { SIZING_LIMITS } from '#shared/contract/copy-relations.ts';
import type { CopySizing, CopyTerms } from '#shared/domain/copy-lot.ts';
import { FOREX_PAIRS } from '#shared/domain/pairs.ts';
import { createRelation, endRelation, relationOfFollower, sizingText, updateRelation } from '#server/copy/relations.ts';
import { ruleUniverse, saveAllowedPairs } from '#server/copy/rules.ts';
import { listRelations } from '#server/db/copy-relations-repo.ts';
import { rulesOfScope } from '#server/db/copy-rules-repo.ts';
import type { Queryable } from '#server/db/database.ts';
import { accountByLogin, type RegisteredAccountRef } from '#server/db/registry-repo.ts';
import { CATEGORIES } from '#shared/domain/portfolios.ts';
import { CliError, accountKey, accountLabel, invalid, one, required, symbol, type AccountKey, type Input } from './args.ts';
import { command, table, type Command } from './commands.ts';
import { OPERATOR, asCli } from './operator.ts';

async function requireAccount(q: Queryable, key: AccountKey, role: string): Promise<RegisteredAccountRef> {
  const account = await accountByLogin(q, key.login, key.server);
  if (!account) throw new CliError(`Unknown ${role} ${accountLabel(key)}: register it first with account add.`);
  return account;
}

/** A number in [min, max], or `none` when `allowNone`. */
function bounded(option: string, value: string, limits: { min: number; max: number }): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw invalid(`--${option} must be a number (got '${value}').`);
  if (n < limits.min || n > limits.max) throw invalid(`--${option} must be from ${limits.min} to ${limits.max} (got '${value}').`);
  return n;
}

const orNone = (option: string, value: string, limits: { min: number; max: number }): number | null =>
  value.toLowerCase() === 'none' ? null : bounded(option, value, limits);

const SIZING_OPTIONS = { ratio: 'one', equity: 'one', fixed: 'one' } as const;

/** The sizing given (--ratio R, --equity M, --fixed LOT: at most one); undefined when none is. */
function sizingOf(input: Input): CopySizing | undefined {
  const given = (['ratio', 'equity', 'fixed'] as const).filter((o) => one(input, o) !== undefined);
  if (given.length > 1) throw invalid(`Give one sizing: --${given.join(' or --')}, not both.`);
  const [mode] = given;
  if (mode === undefined) return undefined;
  const value = one(input, mode)!;
  if (mode === 'ratio') return { mode, ratio: bounded('ratio', value, SIZING_LIMITS.ratio) };
  if (mode === 'equity') return { mode, multiplier: bounded('equity', value, SIZING_LIMITS.multiplier) };
  return { mode, lot: bounded('fixed', value, SIZING_LIMITS.lot) };
}

const copyAdd = command({
  area: 'copy',
  verb: 'add',
  synopsis:
    '--master <login>@<server> --follower <login>@<server> (--ratio 0.5 | --equity 1 | --fixed 0.10)\n' +
    '    [--max-lot 2] [--equity-stop 5000]',
  help: 'the follower starts copying the master: by ratio of its lots, by equity proportion (follower/master\n' +
    '      equity in EUR × the multiplier) or a fixed lot; an optional cap and equity stop (its currency)',
  options: { master: 'one', follower: 'one', ...SIZING_OPTIONS, 'max-lot': 'one', 'equity-stop': 'one' },
  parse(input) {
    const sizing = sizingOf(input);
    if (!sizing) throw invalid('Give the sizing: --ratio <ratio>, --equity <multiplier> or --fixed <lot>.');
    const maxLot = one(input, 'max-lot');
    const stop = one(input, 'equity-stop');
    return {
      master: accountKey(required(input, 'master', 'the account copied, <login>@<server>'), 'master'),
      follower: accountKey(required(input, 'follower', 'the account that copies, <login>@<server>'), 'follower'),
      terms: { sizing, maxLot: maxLot === undefined ? null : orNone('max-lot', maxLot, SIZING_LIMITS.lot) } satisfies CopyTerms,
      equityStop: stop === undefined ? null : orNone('equity-stop', stop, { min: 0.01, max: 1e12 }),
    };
  },
  async run({ db, out }, c) {
    const master = await requireAccount(db, c.master, 'master');
    const follower = await requireAccount(db, c.follower, 'follower');
    const r = await asCli(() => createRelation(db, OPERATOR, { masterId: master.id, followerId: follower.id, terms: c.terms, equityStop: c.equityStop }, new Date()));
    out(`${accountLabel(c.follower)} now copies ${accountLabel(c.master)} by ${sizingText(r.terms)} (relation ${r.id}).`);
  },
});

const copyEdit = command({
  area: 'copy',
  verb: 'edit',
  synopsis: '--follower <login>@<server> [--ratio R | --equity M | --fixed LOT] [--max-lot N|none] [--equity-stop N|none]',
  help: "change a follower's relation: what is not given stays; a changed equity stop is armed again",
  options: { follower: 'one', ...SIZING_OPTIONS, 'max-lot': 'one', 'equity-stop': 'one' },
  parse(input) {
    const maxLot = one(input, 'max-lot');
    const stop = one(input, 'equity-stop');
    const edit = {
      follower: accountKey(required(input, 'follower', 'the account that copies, <login>@<server>'), 'follower'),
      sizing: sizingOf(input),
      maxLot: maxLot === undefined ? undefined : orNone('max-lot', maxLot, SIZING_LIMITS.lot),
      equityStop: stop === undefined ? undefined : orNone('equity-stop', stop, { min: 0.01, max: 1e12 }),
    };
    if (edit.sizing === undefined && edit.maxLot === undefined && edit.equityStop === undefined) {
      throw invalid('Nothing to change: give --ratio, --equity, --fixed, --max-lot or --equity-stop.');
    }
    return edit;
  },
  async run({ db, out }, e) {
    const follower = await requireAccount(db, e.follower, 'follower');
    const current = await relationOfFollower(db, follower.id);
    if (!current) throw new CliError(`${accountLabel(e.follower)} copies no master: start with copy add.`);
    const r = await asCli(() =>
      updateRelation(db, OPERATOR, current.id, {
        terms: { sizing: e.sizing ?? current.terms.sizing, maxLot: e.maxLot === undefined ? current.terms.maxLot : e.maxLot },
        equityStop: e.equityStop === undefined ? current.equityStop : e.equityStop,
      }),
    );
    const stop = r.equityStop === null ? 'no equity stop' : `equity stop ${r.equityStop} ${r.follower.currency}`;
    out(`${accountLabel(e.follower)} copies ${r.master.account}@${r.master.server} by ${sizingText(r.terms)}; ${stop} (relation ${r.id}).`);
  },
});

const copyEnd = command({
  area: 'copy',
  verb: 'end',
  synopsis: '--follower <login>@<server>',
  help: "end a follower's relation: nothing more is copied to it (its open copies still follow their master trades)",
  options: { follower: 'one' },
  parse: (input) => accountKey(required(input, 'follower', 'the account that copies, <login>@<server>'), 'follower'),
  async run({ db, out }, key) {
    const follower = await requireAccount(db, key, 'follower');
    const current = await relationOfFollower(db, follower.id);
    if (!current) throw new CliError(`${accountLabel(key)} copies no master.`);
    const r = await asCli(() => endRelation(db, OPERATOR, current.id, new Date()));
    out(`${accountLabel(key)} no longer copies ${r.master.account}@${r.master.server} (relation ${r.id} ended).`);
  },
});

const iso = (s: number | null) => (s === null ? '' : new Date(s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'));

const copyList = command({
  area: 'copy',
  verb: 'list',
  synopsis: '[--all yes]',
  help: 'list the copy relations in force (with --all yes, the ended ones too) and the masters\' copy rules',
  options: { all: 'one' },
  parse(input) {
    const all = one(input, 'all');
    if (all !== undefined && all !== 'yes' && all !== 'no') throw invalid(`--all takes yes or no (got '${all}').`);
    return all === 'yes';
  },
  async run({ db, out }, includeEnded) {
    const relations = await listRelations(db, { includeEnded });
    table(
      out,
      ['ID', 'FOLLOWER', 'MASTER', 'SIZING', 'EQUITY STOP', 'SINCE', 'ENDED'],
      relations.map((r) => [
        String(r.id),
        `${r.follower.account}@${r.follower.server}`,
        `${r.master.account}@${r.master.server}`,
        sizingText(r.terms),
        r.equityStop === null ? '-' : `${r.equityStop} ${r.follower.currency}${r.equityStoppedAt === null ? '' : ' (fired)'}`,
        iso(r.startedAt),
        iso(r.endedAt) || '-',
      ]),
    );
    out('');
    const rules = await rulesOfScope(db, { categories: CATEGORIES });
    table(out, ['MASTER', 'NAME', 'MARKET', 'ALLOWED PAIRS'], rules.map((r) => [r.master_id, r.account_name, r.market_type, r.allowed_pairs.join(',') || '-']));
  },
});

const copyPairs = command({
  area: 'copy',
  verb: 'pairs',
  synopsis: '--master <login>@<server> <EURUSD,GBPUSD,… | none>',
  help: "set the pairs a master's followers copy (its copy rule; made if it has none): comma-separated, or none",
  positionals: 1,
  options: { master: 'one' },
  parse(input) {
    const list = input.positionals[0]!;
    const pairs = list.toLowerCase() === 'none' ? [] : [...new Set(list.split(',').map((p) => p.trim()).filter(Boolean))].map((p) => symbol('symbol', p));
    if (pairs.length === 0 && list.toLowerCase() !== 'none') throw invalid(`Give the pairs comma-separated (${FOREX_PAIRS.slice(0, 3).join(',')}…), or none.`);
    return { master: accountKey(required(input, 'master', 'the master, <login>@<server>'), 'master'), pairs };
  },
  async run({ db, out }, c) {
    const master = await requireAccount(db, c.master, 'master');
    const shown = (await rulesOfScope(db, { categories: CATEGORIES })).find((r) => r.master_id === master.account_id);
    if (!shown) throw new CliError(`${accountLabel(c.master)} ('${master.account_name}') follows a master: only a master has copy rules.`);
    const saved = await asCli(() => saveAllowedPairs(db, OPERATOR, master, shown.market_type, c.pairs, (q, m) => ruleUniverse(q, m)));
    out(`${accountLabel(c.master)} (${saved.market_type}): its followers copy ${saved.allowed_pairs.join(', ') || 'nothing'}.`);
  },
});

export const COPY_COMMANDS: readonly Command[] = [copyAdd, copyEdit, copyEnd, copyList, copyPairs];
