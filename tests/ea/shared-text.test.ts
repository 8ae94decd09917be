/**
 * ea/CopyMonitor.mq4 repeats CopyMonitor.mq5's protocol code as text rather than sharing an include
 * (docs/ea.md, "MetaTrader 4"): this keeps the copies the same, so a fix made in one EA is not
 * forgotten in the other.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

const SHARED = [
  'JsonText', 'Clip', 'JsonNum', 'JsonSkipSpace', 'JsonValueEnd', 'HexValue', 'JsonString', 'JsonGet', 'JsonItem', 'JsonDouble',
  'NewUuid', 'BaseUrl', 'SymbolWanted', 'Backoff', 'KeyRefused', 'ShowStatus', 'AccountKnown', 'TerminalReady', 'TradeAllowed',
  'WatchConnection', 'SnapshotDue', 'HttpCall', 'Listed', 'AddDropped', 'DroppedJson', 'ForgetDropped', 'LeaveOut', 'DropRefused',
  'BatchKind', 'BatchDue', 'Push', 'VolumeFor', 'PriceFor', 'VolumeCut', 'VolumeRange', 'BrokerSymbol', 'FlushAnswers', 'RunCommand',
  'PollCommands', 'ResetAgent',
];

/** A top-level function's text: from its signature line to its closing brace (MetaEditor's layout). */
function functionText(source: string, name: string): string | undefined {
  const lines = source.split('\n');
  const start = lines.findIndex((l) => new RegExp(`^[A-Za-z_][\\w ]* ${name}\\(`).test(l));
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && l === '  }');
  return end < 0 ? undefined : lines.slice(start, end + 1).join('\n');
}

describe('the MT4 and MT5 Expert Advisors share their protocol code as the same text', () => {
  const mq5 = fs.readFileSync('ea/CopyMonitor.mq5', 'utf8');
  const mq4 = fs.readFileSync('ea/CopyMonitor.mq4', 'utf8');
  for (const name of SHARED) {
    it(name, () => {
      const five = functionText(mq5, name);
      expect(five, `${name} in CopyMonitor.mq5`).toBeDefined();
      expect(functionText(mq4, name), `${name} in CopyMonitor.mq4: the same text as in CopyMonitor.mq5`).toBe(five);
    });
  }
});
