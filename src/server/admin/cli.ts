// npm run admin -- <command>: operator commands on the configured database (DATABASE_URL, or the
// embedded database in DATA_DIR while no server runs on it).
import { loadConfig } from '#server/config.ts';
import { lockDataDir } from '#server/db/data-dir-lock.ts';
import type { Database } from '#server/db/database.ts';
import { CliError, splitArgs } from './args.ts';
import { COMMANDS as BASE_COMMANDS, isUniqueViolation, type Command } from './commands.ts';
import { COPY_COMMANDS } from './copy-commands.ts';
import { FEE_COMMANDS } from './fee-commands.ts';
import { GUARD_COMMANDS } from './guard-commands.ts';
import { AGENT_COMMANDS } from '#server/broker/agent/admin-commands.ts';
import { FLEX_COMMANDS } from '#server/broker/ibkr/admin-commands.ts';

const COMMANDS: readonly Command[] = [...BASE_COMMANDS, ...AGENT_COMMANDS, ...FLEX_COMMANDS, ...COPY_COMMANDS, ...GUARD_COMMANDS, ...FEE_COMMANDS];

function usage(): string {
  const lines = COMMANDS.map((c) => `  ${[c.area, c.verb, c.synopsis].filter(Boolean).join(' ')}\n      ${c.help}`);
  return `Usage: npm run admin -- <command>

${lines.join('\n')}

Every command checks what it is given and exits non-zero with one line saying what is wrong (2 for
bad input, 1 for what the database refuses); a change is made whole or not at all.

The database is the server's: DATABASE_URL (and DATABASE_SCHEMA), or the embedded database in
DATA_DIR, which only one process may open: stop the server first in that case.`;
}

const HINT = 'Run npm run admin -- --help for the commands.';

async function open(): Promise<{ db: Database; done: () => Promise<void> }> {
  // The database drivers load only once the input is known good: a refusal answers at once.
  const { openPglite, openPostgres } = await import('#server/db/database.ts');
  const config = loadConfig();
  if (config.databaseUrl) {
    const db = await openPostgres(config.databaseUrl, config.databaseSchema);
    return { db, done: () => db.close() };
  }
  const release = await lockDataDir(config.dataDir);
  const db = await openPglite(config.dataDir);
  return {
    db,
    done: async () => {
      await db.close();
      release();
    },
  };
}

function find(area: string | undefined, verb: string | undefined): Command {
  const inArea = COMMANDS.filter((c) => c.area === area);
  if (inArea.length === 0) {
    const areas = [...new Set(COMMANDS.map((c) => c.area))].join(', ');
    throw new CliError(area ? `Unknown command '${area}': the commands are ${areas}. ${HINT}` : `No command given. ${HINT}`, 2);
  }
  const cmd = inArea.find((c) => c.verb === verb);
  if (!cmd) {
    const verbs = inArea.map((c) => c.verb).join(', ');
    throw new CliError(`${verb ? `Unknown command '${area} ${verb}'` : `'${area}' needs a verb`}: ${area} takes ${verbs}. ${HINT}`, 2);
  }
  return cmd;
}

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0) {
    console.error(usage());
    return 2;
  }
  if (argv.some((a) => a === '--help' || a === '-h') || argv[0] === 'help') {
    console.log(usage());
    return 0;
  }
  const [area, verb, ...rest] = argv;
  const cmd = find(area, verb);
  const title = `${cmd.area} ${cmd.verb}`;
  const input = splitArgs(rest, cmd.options, title);
  if (input.positionals.length !== cmd.positionals) {
    throw new CliError(
      `'${title}' takes ${cmd.positionals || 'no'} argument${cmd.positionals === 1 ? '' : 's'} besides its options` +
        ` (got ${input.positionals.length}): ${title} ${cmd.synopsis.split('\n')[0]}`,
      2,
    );
  }
  // Bad input is refused before the database opens (and before the data directory is locked).
  const run = await cmd.prepare(input);
  const config = loadConfig();
  const { db, done } = await open();
  try {
    const { migrate } = await import('#server/db/migrations.ts');
    await migrate(db);
    await run({ db, auth: config.auth, config, out: (line) => console.log(line) });
    return 0;
  } finally {
    await done();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof CliError) {
      console.error(err.message);
      process.exit(err.exitCode);
    }
    if (isUniqueViolation(err)) {
      // A concurrent change took the name first: nothing of this command was written.
      const detail = (err as { detail?: unknown }).detail;
      console.error(`Refused: it exists already${typeof detail === 'string' ? ` (${detail})` : ''}.`);
      process.exit(1);
    }
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
