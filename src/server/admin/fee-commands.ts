// The admin CLI's fee commands (docs/administration.md 'Fee terms'): the same change, check and audit
// as PUT /api/fees/terms (src/server/fees/fee-terms.ts), by login@server, for every account.
import { FeeTerms, IsoDay } from '#shared/contract/fees.ts';
import type { FeeTerms as Terms } from '#shared/domain/fees.ts';
import { feeStateOf, termsHistory, termsVersionsOf } from '#server/db/fees-repo.ts';
import { accountByLogin, auditOperator } from '#server/db/registry-repo.ts';
import { setFeeTerms, termsText } from '#server/fees/fee-terms.ts';
import { termsOn } from '#server/ledger/fees.ts';
import { CliError, accountKey, accountLabel, invalid, one, required, type Input } from './args.ts';
import { command, table, type Command } from './commands.ts';
import { asCli } from './operator.ts';
import { DAY_MS } from '#shared/domain/days.ts';

const today = (): number => Math.floor(Date.now() / DAY_MS);

/** A rate option: a number, or `none` (not charged). */
function rate(input: Input, option: string): number | null | undefined {
  const v = one(input, option);
  if (v === undefined || v.toLowerCase() === 'none') return v === undefined ? undefined : null;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) throw invalid(`--${option} must be a number or none (got '${v}').`);
  return n;
}

/** The terms the options give, checked by the API's own schema. */
function termsOf(input: Input): Terms {
  const performance = rate(input, 'performance');
  const management = rate(input, 'management');
  const volume = rate(input, 'volume');
  if (performance === undefined && management === undefined && volume === undefined) {
    throw invalid('Give at least one fee: --performance <rate 0–1>, --management <annual rate 0–1>, --volume <USD per million> (or none).');
  }
  const parsed = FeeTerms.safeParse({
    period: one(input, 'period') ?? 'monthly',
    performance:
      performance == null ? null : { rate: performance, basis: one(input, 'basis') ?? 'equity', withdrawals: one(input, 'withdrawals') ?? 'amount' },
    management: management == null ? null : { annual_rate: management },
    volume: volume == null ? null : { usd_per_million: volume },
  });
  if (!parsed.success) throw invalid(parsed.error.issues.map((i) => i.message).join('; '));
  return parsed.data;
}

const feesSet = command({
  area: 'fees',
  verb: 'set',
  synopsis:
    '--account <login>@<server> --from YYYY-MM-DD [--period monthly|quarterly]\n' +
    '    [--performance 0.25|none [--basis equity|balance] [--withdrawals amount|proportional]]\n' +
    '    [--management 0.02|none] [--volume 30|none]',
  help: "set a follower's fee terms from a day on (today, UTC, or later; never retroactive); a fee not given is not charged",
  options: { account: 'one', from: 'one', period: 'one', performance: 'one', basis: 'one', withdrawals: 'one', management: 'one', volume: 'one' },
  parse(input) {
    const from = IsoDay('--from').safeParse(required(input, 'from', 'the first day the terms are in force, YYYY-MM-DD'));
    if (!from.success) throw invalid(from.error.issues[0]!.message);
    return { account: accountKey(required(input, 'account', 'the follower, <login>@<server>'), 'account'), from: from.data, terms: termsOf(input) };
  },
  async run({ db, out }, c) {
    const account = await accountByLogin(db, c.account.login, c.account.server);
    if (!account) throw new CliError(`Unknown account ${accountLabel(c.account)}: register it first with account add.`);
    const message = await asCli(() => setFeeTerms(db, { userId: null, audit: auditOperator }, account, c.from, c.terms, today()));
    out(`${message} ${termsText(c.terms)}.`);
  },
});

const feesShow = command({
  area: 'fees',
  verb: 'show',
  synopsis: '--account <login>@<server>',
  help: "an account's fee terms in force, every version set, its high-water mark and the management fee accrued",
  options: { account: 'one' },
  parse: (input) => accountKey(required(input, 'account', 'the account, <login>@<server>'), 'account'),
  async run({ db, out }, key) {
    const account = await accountByLogin(db, key.login, key.server);
    if (!account) throw new CliError(`Unknown account ${accountLabel(key)}.`);
    const history = (await termsHistory(db, [account.id])).get(account.id);
    const versions = await termsVersionsOf(db, account.id);
    const state = await feeStateOf(db, account.id);
    out(`In force today: ${termsText(termsOn(history, today(), account.teiko_category))}${history?.some((v) => v.fromDay <= today()) ? '' : ' (the category default)'}.`);
    out(`High-water mark ${state.hwm}; management fee accrued ${Math.round(state.accrued * 100) / 100}.`);
    out('');
    table(out, ['FROM', 'TERMS', 'SET BY', 'SET AT'], versions.map((v) => [v.effective_from, termsText(v.terms), v.set_by ?? 'admin cli', new Date(Number(v.set_at) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')]));
  },
});

export const FEE_COMMANDS: readonly Command[] = [feesSet, feesShow];
