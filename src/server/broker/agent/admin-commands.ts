// The admin CLI's commands for terminal agents' keys (`npm run admin -- agent …`): what the terminal
// adapter needs an operator to set up, beside the core's users, brokers and accounts (src/server/admin/).
import { hashToken, newToken } from '#server/auth/tokens.ts';
import { clockStatus } from './clock.ts';
import { grantAccount, insertAgent, listAgents, revokeAgent } from '#server/db/agents-repo.ts';
import { agentByName, auditOperator } from '#server/db/registry-repo.ts';
import { CliError, accountLabel, grants, name } from '#server/admin/args.ts';
import { command, grantedAccounts, grantsText, isUniqueViolation, iso, sameCase, table, type Command } from '#server/admin/commands.ts';

const agentCreate = command({
  area: 'agent',
  verb: 'create',
  synopsis: '<name> --account <login>@<server>:read|trade [--account …]',
  help: 'issue a terminal agent its key, scoped to these accounts (read: it reports them; trade: it also\n' +
    '      takes commands for them); the key is printed once and only its SHA-256 is stored',
  positionals: 1,
  options: { account: 'many' },
  parse: (input) => ({ name: name('agent name', input.positionals[0]!), grants: grants(input.options.get('account') ?? []) }),
  async run({ db, out }, a) {
    const key = newToken();
    try {
      await db.transaction(async (tx) => {
        const existing = await agentByName(tx, a.name);
        if (existing) {
          throw new CliError(
            existing.revoked_at
              ? `An agent named ${existing.name} existed and was revoked: pick another name${sameCase}.`
              : `An agent named ${existing.name} exists already${sameCase}.`,
          );
        }
        const accounts = await grantedAccounts(tx, a.grants);
        const agentId = await insertAgent(tx, a.name, hashToken(key));
        for (const { grant, id } of accounts) await grantAccount(tx, agentId, id, grant.rights);
        await auditOperator(tx, 'agents.create', { agent: a.name, accounts: a.grants.map((g) => `${accountLabel(g)}:${g.rights}`) });
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new CliError(`An agent named ${a.name} exists already.`);
      throw err;
    }
    out(`Agent ${a.name} created for ${grantsText(a.grants)}.`);
    out('Its key, shown this once (only its hash is stored): put it in the agent now.');
    out(key);
  },
});

const agentGrant = command({
  area: 'agent',
  verb: 'grant',
  synopsis: '<name> --account <login>@<server>:read|trade [--account …]',
  help: "give an agent more accounts, or change its rights on one it has",
  positionals: 1,
  options: { account: 'many' },
  parse: (input) => ({ name: name('agent name', input.positionals[0]!), grants: grants(input.options.get('account') ?? []) }),
  async run({ db, out }, a) {
    await db.transaction(async (tx) => {
      const agent = await agentByName(tx, a.name);
      if (!agent) throw new CliError(`Unknown agent ${a.name}.`);
      if (agent.revoked_at) throw new CliError(`The agent ${a.name} is revoked: create a new one.`);
      for (const { grant, id } of await grantedAccounts(tx, a.grants)) await grantAccount(tx, agent.id, id, grant.rights);
      await auditOperator(tx, 'agents.grant', { agent: a.name, accounts: a.grants.map((g) => `${accountLabel(g)}:${g.rights}`) });
    });
    out(`Agent ${a.name} now has ${grantsText(a.grants)}.`);
  },
});

const agentRevoke = command({
  area: 'agent',
  verb: 'revoke',
  synopsis: '<name>',
  help: "revoke an agent's key: its next batch is refused",
  positionals: 1,
  parse: (input) => input.positionals[0]!,
  async run({ db, out }, agentName) {
    await db.transaction(async (tx) => {
      if (!(await revokeAgent(tx, agentName, new Date()))) {
        const agent = await agentByName(tx, agentName);
        throw new CliError(agent ? `The agent ${agentName} is revoked already.` : `Unknown agent ${agentName}.`);
      }
      await auditOperator(tx, 'agents.revoke', { agent: agentName });
    });
    out(`Agent ${agentName} revoked: its key is refused from now on.`);
  },
});

const agentList = command({
  area: 'agent',
  verb: 'list',
  synopsis: '',
  help: 'list the agents, whether revoked, their accounts with rights, their clock against the server\'s (FLAGGED when\n' +
    '      far enough ahead that orders expire before the terminal runs them), and what each last left out of its batches',
  parse: () => undefined,
  async run({ db, out }) {
    table(
      out,
      ['AGENT', 'CREATED', 'REVOKED', 'ACCOUNTS', 'CLOCK', 'LEFT OUT'],
      (await listAgents(db)).map((a) => [
        a.name, iso(a.created_at), iso(a.revoked_at) || '-', a.accounts.join(', ') || '-', clockStatus(a.clock_skew_s),
        a.dropped?.length ? a.dropped.map((d) => `${d.item}: ${d.reason}`).join('; ') : '-',
      ]),
    );
  },
});

export const AGENT_COMMANDS: readonly Command[] = [agentCreate, agentGrant, agentRevoke, agentList];
