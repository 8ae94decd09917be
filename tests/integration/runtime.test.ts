import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// The project runs on the Node it pins (package.json's `node` dependency, installed by npm ci), not
// on whatever Node the machine has: every npm script, and what they start, runs on it.
const pinned = (JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> }).dependencies['node']!;

describe('the runtime', () => {
  it('is the pinned Node LTS, 24 or later', () => {
    expect(Number(pinned.split('.')[0])).toBeGreaterThanOrEqual(24);
    expect(process.versions.node).toBe(pinned);
  });

  it('is the Node a child process started by name gets (the server, the agent, the CLI)', () => {
    expect(execFileSync('node', ['--version'], { encoding: 'utf8' }).trim()).toBe(`v${pinned}`);
  });
});
