// The admin CLI's commands for Interactive Brokers accounts' Flex Web Service settings (`npm run
// admin -- flex …`): the same as PUT/GET/DELETE /api/accounts/{account}/flex, for an operator.
import { SetFlexBody } from '#shared/contract/flex.ts';
import { CliError, invalid, required, one } from '#server/admin/args.ts';
import { command, readSecret, table, iso, type Command } from '#server/admin/commands.ts';
import { accountBroker, findAccountRef, type AccountRef } from '#server/db/accounts-repo.ts';
import type { Database } from '#server/db/database.ts';
import { flexSettingsOf } from '#server/db/flex-settings-repo.ts';
import { auditOperator } from '#server/db/registry-repo.ts';
import { FlexFetcher, type FlexActor } from './flex-fetch.ts';
import { IBKR_SOURCE } from './ibkr-broker.ts';
import { tokenKey } from './token-key.ts';

const OPERATOR: FlexActor = { audit: (q, action, detail) => auditOperator(q, action, detail) };

async function ibkrAccount(db: Database, ref: string): Promise<AccountRef> {
  const match = await findAccountRef(db, ref);
  if (!('found' in match)) throw new CliError(`Unknown account ${ref}: register it first with account add --source ${IBKR_SOURCE}.`);
  if ((await accountBroker(db, match.found.id))?.source !== IBKR_SOURCE) {
    throw new CliError(`The account ${ref} is not fed by Interactive Brokers statements (account add --source ${IBKR_SOURCE}).`);
  }
  return match.found;
}

/** A FlexFetcher for the settings alone (the CLI fetches nothing: the leading server does). */
const settingsOnly = (db: Database, key: Uint8Array | null) =>
  new FlexFetcher({
    db,
    key,
    flexUrl: '',
    fetchHourUtc: 0,
    userAgent: '',
    now: Date.now,
    onError: () => {},
  });

const flexSet = command({
  area: 'flex',
  verb: 'set',
  synopsis: '--account <account id or login> --query <Flex Query ID> [--expires YYYY-MM-DD]',
  help: "give an Interactive Brokers account its Flex Web Service token (from FLEX_TOKEN, or one line on stdin) and query id;\n" +
    '      the leading server fetches its statement at once, then daily; --expires: the expiry chosen for the token (alerted 3 days before)',
  options: { account: 'one', query: 'one', expires: 'one' },
  async parse(input) {
    const account = required(input, 'account', 'the account id or login (U1234567)');
    const body = SetFlexBody.safeParse({
      token: await readSecret('FLEX_TOKEN', 'Flex token: ', 'Flex token'),
      query_id: required(input, 'query', 'the Flex Query ID'),
      token_expires: one(input, 'expires') ?? null,
    });
    if (!body.success) throw invalid(body.error.issues.map((i) => i.message).join('; '));
    return { account, body: body.data };
  },
  async run({ db, config, out }, { account, body }) {
    if (!config) throw new CliError('No configuration.');
    const ref = await ibkrAccount(db, account);
    try {
      await settingsOnly(db, tokenKey(config)).set(ref, body, OPERATOR);
    } catch (err) {
      throw new CliError(err instanceof Error ? err.message : String(err));
    }
    out(`Flex token set for ${ref.account} (query ${body.query_id}${body.token_expires ? `, expires ${body.token_expires}` : ''}): the leading server fetches its statement now, then daily.`);
  },
});

const flexShow = command({
  area: 'flex',
  verb: 'show',
  synopsis: '--account <account id or login>',
  help: "whether an Interactive Brokers account has a Flex token (never the token), its query, expiry and last fetch",
  options: { account: 'one' },
  parse: (input) => required(input, 'account', 'the account id or login (U1234567)'),
  async run({ db, out }, account) {
    const ref = await ibkrAccount(db, account);
    const s = await flexSettingsOf(db, ref.id);
    table(
      out,
      ['ACCOUNT', 'TOKEN', 'QUERY', 'EXPIRES', 'LAST FETCH', 'STATUS', 'ERROR', 'NEXT FETCH'],
      [[ref.account, s ? 'set' : 'none', s?.query_id ?? '-', s?.token_expires ?? '-', iso(s?.last_fetch_at ?? null) || '-', s?.last_status ?? '-', s?.last_error ?? '-', iso(s?.next_fetch_at ?? null) || '-']],
    );
  },
});

const flexRemove = command({
  area: 'flex',
  verb: 'remove',
  synopsis: '--account <account id or login>',
  help: "remove an Interactive Brokers account's Flex token: no more daily fetches",
  options: { account: 'one' },
  parse: (input) => required(input, 'account', 'the account id or login (U1234567)'),
  async run({ db, out }, account) {
    const ref = await ibkrAccount(db, account);
    const removed = await settingsOnly(db, null).remove(ref, OPERATOR);
    out(removed ? `Flex token of ${ref.account} removed: no more daily fetches.` : `The account ${ref.account} had no Flex token.`);
  },
});

export const FLEX_COMMANDS: readonly Command[] = [flexSet, flexShow, flexRemove];
