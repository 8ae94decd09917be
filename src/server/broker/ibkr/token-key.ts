import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '#server/config.ts';

/** The key file of an embedded installation: 32 random bytes, readable by the server's user only. */
const KEY_FILE = 'secrets.key';

/** Per process, for an in-memory database (tests): its tokens die with it anyway. */
let processKey: Uint8Array | undefined;

/**
 * The 32 bytes that seal the Flex tokens stored (src/server/broker/ibkr/secret-box.ts): SECRETS_KEY
 * where set; else, for the embedded database, a key file in DATA_DIR made on first use (never in the
 * database, so a copy of the database alone does not open the tokens); else null — several instances
 * on PostgreSQL must share one key, so they need SECRETS_KEY to store a token.
 */
export function tokenKey(config: AppConfig): Uint8Array | null {
  if (config.ibkr?.secretsKey) return config.ibkr.secretsKey;
  if (config.databaseUrl) return null;
  if (config.inMemory || !config.dataDir) return (processKey ??= new Uint8Array(randomBytes(32)));
  const file = path.join(config.dataDir, KEY_FILE);
  try {
    const key = fs.readFileSync(file);
    if (key.length === 32) return new Uint8Array(key);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(32);
  // 'wx': two processes making it at once: the second reads the first's.
  try {
    fs.writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
    return new Uint8Array(key);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return new Uint8Array(fs.readFileSync(file));
  }
}

export const NO_KEY =
  'This installation cannot store a Flex token yet: set SECRETS_KEY (32 bytes as 64 hex digits, the same on every instance) and restart (docs/ibkr.md).';
