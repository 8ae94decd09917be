import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/process.ts';

/**
 * An operator sets up an Interactive Brokers account with the admin CLI alone: the broker, the
 * account (`account add --source ibkr`, no trading server needed), its Flex token (from stdin, never
 * echoed, stored sealed) and query; shown and removed again.
 */

const TOKEN = '761203948576120394857';

function admin(dataDir: string, args: string[], stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir };
  for (const name of ['DATABASE_URL', 'DATABASE_SCHEMA', 'FLEX_TOKEN', 'SECRETS_KEY']) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/admin/cli.ts', ...args], { cwd: REPO_ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  child.stdin.end(stdin);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('Interactive Brokers accounts with the admin CLI', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ibkr-cli-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('registers an account fed by Flex statements, sets its token from stdin, shows it without the token, and removes it', async () => {
    expect((await admin(dataDir, ['broker', 'add', 'Interactive Brokers'])).code).toBe(0);
    const add = await admin(dataDir, ['account', 'add', '--source', 'ibkr', '--broker', 'Interactive Brokers', '--login', 'U1234567', '--name', 'IB Equities', '--currency', 'EUR', '--category', 'global equity']);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain("Account U1234567@IBKR 'IB Equities' (interactive-brokers-U1234567) registered");
    const unknown = await admin(dataDir, ['account', 'add', '--source', 'fix', '--broker', 'Interactive Brokers', '--login', 'U1', '--name', 'X', '--currency', 'EUR', '--category', 'SMA']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--source 'fix' is not one of agent, ibkr/);

    const set = await admin(dataDir, ['flex', 'set', '--account', 'U1234567', '--query', '1087422', '--expires', '2099-06-30'], `${TOKEN}\n`);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout + set.stderr).not.toContain(TOKEN);
    const show = await admin(dataDir, ['flex', 'show', '--account', 'U1234567']);
    expect(show.stdout).toMatch(/U1234567\s+set\s+1087422\s+2099-06-30/);
    expect(show.stdout).not.toContain(TOKEN);
    // Sealed at rest: the database's files never hold the token as it is.
    const files = fs.readdirSync(dataDir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    for (const f of files) expect(fs.readFileSync(path.join(f.parentPath, f.name)).includes(Buffer.from(TOKEN))).toBe(false);

    const bad = await admin(dataDir, ['flex', 'set', '--account', 'U1234567', '--query', 'x1'], `${TOKEN}\n`);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/query_id must be the Flex Query ID/);

    const remove = await admin(dataDir, ['flex', 'remove', '--account', 'U1234567']);
    expect(remove.stdout).toContain('Flex token of U1234567 removed');
    expect((await admin(dataDir, ['flex', 'show', '--account', 'U1234567'])).stdout).toMatch(/U1234567\s+none/);
  });
});
