// npm run admin -- <command>: operator commands on the configured database (DATABASE_URL, or the
// embedded database in DATA_DIR while no server runs on it).
import { createInterface } from 'node:readline/promises';
import { loadConfig } from '#server/config.ts';
import { AuthStore } from '#server/auth/auth-store.ts';
import { hashPassword } from '#server/auth/password.ts';
import { lockDataDir } from '#server/db/data-dir-lock.ts';
import { openPglite, openPostgres, type Database } from '#server/db/database.ts';
import { migrate } from '#server/db/migrations.ts';

const USAGE = `Usage: npm run admin -- <command>

  user disable <username>    disable a user: every session and socket of theirs ends within a second
  user enable <username>     enable a disabled user again
  user password <username>   set a new password (read from stdin, or NEW_PASSWORD); every session ends

The database is the server's: DATABASE_URL (and DATABASE_SCHEMA), or the embedded database in
DATA_DIR, which only one process may open: stop the server first in that case.`;

async function open(): Promise<{ db: Database; done: () => Promise<void> }> {
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

async function readPassword(): Promise<string> {
  if (process.env.NEW_PASSWORD) return process.env.NEW_PASSWORD;
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
  const line = await rl.question('New password: ');
  rl.close();
  return line.trim();
}

async function main(argv: string[]): Promise<number> {
  const [area, verb, username] = argv;
  if (area !== 'user' || !verb || !username || !['disable', 'enable', 'password'].includes(verb)) {
    console.error(USAGE);
    return 2;
  }
  const password = verb === 'password' ? await readPassword() : '';
  if (verb === 'password' && password.length < 10) {
    console.error('The new password must have at least 10 characters.');
    return 2;
  }
  const { db, done } = await open();
  try {
    await migrate(db);
    const store = new AuthStore(db, loadConfig().auth);
    const user = await store.findUser(username);
    if (!user) {
      console.error(`No such user: ${username}`);
      return 1;
    }
    if (verb === 'password') {
      await store.setPasswordHash(user.id, await hashPassword(password));
      console.log(`Password of ${username} changed; every session of theirs ended.`);
    } else {
      await store.setUserStatus(username, verb === 'disable' ? 'disabled' : 'active');
      console.log(verb === 'disable' ? `${username} disabled; every session of theirs ended.` : `${username} enabled.`);
    }
    return 0;
  } finally {
    await done();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
