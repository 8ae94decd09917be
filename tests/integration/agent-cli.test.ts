import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/process.ts';

const run = (args: string[]) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/agent/agent.ts', ...args], { cwd: REPO_ROOT }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
  );

/** `npm run agent -- …` (the reference agent's command line): asking for help is no error. */
describe.concurrent('the reference agent\'s command line', () => {
  it.each([[['--help']], [['-h']], [['help']], [['replay', '--help']], [['simulate', '-h']]])('%j prints the usage on stdout and exits 0', async (args) => {
    const res = await run(args);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^usage: npm run agent -- replay <report file> --url <server> --key <agent key>/);
    expect(res.stdout).toContain('npm run agent -- simulate');
    expect(res.stderr).toBe('');
  }, 30_000);

  it.each([[['frobnicate']], [[]], [['replay']]])('%j exits 2 with the usage on stderr', async (args) => {
    const res = await run(args);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/usage: npm run agent -- replay/);
    expect(res.stdout).toBe('');
  }, 30_000);
});
