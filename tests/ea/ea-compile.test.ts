/**
 * What MetaEditor would refuse of the EAs, checked by g++ against the simulated runtimes: an input is a
 * constant in MQL (an EA that assigns one does not compile), so both EAs must compile with `input`
 * defined as `const` (tests/ea/mql5.h, CM_CONST_INPUTS), and with every warning an error (an unsigned
 * `datetime` compared with 0, say).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CXXFLAGS } from './harness.ts';

const compile = (file: string) => promisify(execFile)('g++', [...CXXFLAGS, '-fsyntax-only', '-DCM_CONST_INPUTS', '-I.', file], { timeout: 120_000 });

describe('the EAs compile as MQL would have them', () => {
  it.each(['driver', 'driver4'])('%s (its EA) compiles with its inputs const and no warning', async (driver) => {
    await expect(compile(`tests/ea/${driver}.cpp`)).resolves.toBeDefined();
  });

  it('an EA that assigns an input does not compile', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ea-compile-'));
    const file = path.join(dir, 'assigns.cpp');
    fs.writeFileSync(file, '#include "tests/ea/mql5.h"\ninput int InpPushSeconds = 5;\nvoid OnTimer() { InpPushSeconds = 1; }\nint main() { OnTimer(); }\n');
    try {
      await expect(compile(file)).rejects.toThrow(/assignment of read-only variable .InpPushSeconds./);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
