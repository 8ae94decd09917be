import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StatementData } from '#shared/contract/fees.ts';
import type { FontFiles } from '#shared/reports/pdf-fonts.ts';
import { statementReport } from '#shared/reports/statement-report.ts';
import { buildTableReport } from '#shared/reports/table-report.ts';
import { serverFontFiles } from './font-files.ts';

/*
 * Statements in every script (issue 39): the PDF prints names, symbols and comments as written,
 * right-to-left text in its order, read back with pdftotext (poppler-utils).
 */

const trade = (symbol: string, i: number): StatementData['trades'][number] => ({
  symbol,
  type: i % 2 ? 'Sell' : 'Buy',
  quantity: 1,
  opened_at: 1_790_000_000,
  open_price: 10,
  closed_at: 1_790_003_600 + i * 60,
  close_price: 11,
  profit: 100,
  swap: 0,
  commission: 0,
  fee: 0,
  net: 100,
});

function statement(name: string, symbols: string[], comments: string[]): StatementData {
  return {
    account: { account_id: '1', account_name: name, broker_name: 'Τράπεζα Αθηνών', login: '7100001', currency: 'USD', category: 'Forex' },
    from: '2026-10-01',
    to: '2026-10-31',
    opening_balance: 100_000,
    opening_equity: 100_000,
    deposits: 0,
    withdrawals: 0,
    closed_pl: 1234.5,
    swap: 0,
    commissions: 0,
    broker_fees: 0,
    rebates: null,
    other_results: 0,
    closing_balance: 101_234.5,
    closing_equity: 101_234.5,
    mark_start: 100_000,
    mark_end: 101_234.5,
    fees: [{ kind: 'performance', currency: 'USD', charged: 245.1, accrued: 0 }],
    twr_pct: 1.23,
    mwr_pct: 1.23,
    trades: symbols.map(trade),
    risk_events: comments.map((message, i) => ({ at: 1_790_003_600 + i * 60, kind: 'warn', message })),
  };
}

/** Files asked for, by name. */
function counting(files: FontFiles) {
  const asked: string[] = [];
  return {
    asked,
    files: { ranges: (family) => files.ranges(family), woff: (family, file) => (asked.push(file), files.woff(family, file)) } satisfies FontFiles,
  };
}

async function drawn(data: StatementData, files: FontFiles = serverFontFiles) {
  const doc = await buildTableReport(statementReport(data, 1_790_000_000), files);
  const bytes = new Uint8Array(doc.output('arraybuffer'));
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'statement-scripts-')), 's.pdf');
  fs.writeFileSync(file, bytes);
  // pdftotext marks right-to-left runs with embedding controls: they are no part of the text.
  // (poppler warns of jsPDF's '/Ordering (Identity-H)' on stderr, and reads the text all the same.)
  const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
  return { bytes, text };
}

describe('a statement PDF in every script', () => {
  it('prints Cyrillic, Greek, Arabic, Hebrew, Chinese and Korean names, symbols and comments as written', async () => {
    const { bytes, text } = await drawn(
      statement(
        'Сметка Иванов',
        ['EURUSD', 'Χρυσός', 'حساب', 'חשבון', '账户', '계좌'],
        ['Σχόλιο: ο λογαριασμός έφτασε το όριο', 'تعليق: حساب المتابع 12 وصل إلى الحد', 'הערה: חשבון 7 הגיע לגבול', '备注：账户已达到上限', '메모: 계좌 한도 도달'],
      ),
    );
    expect(text).toContain('Statement - Сметка Иванов');
    expect(text).toContain('Τράπεζα Αθηνών, login 7100001');
    for (const symbol of ['Χρυσός', 'حساب', 'חשבון', '账户', '계좌']) expect(text).toMatch(new RegExp(`^\\s*${symbol}\\s*$`, 'm'));
    expect(text).toContain('Σχόλιο: ο λογαριασμός έφτασε το όριο');
    expect(text).toContain('备注：账户已达到上限');
    expect(text).toContain('메모: 계좌 한도 도달');
    // A right-to-left comment reads, run by run, in its logical order: a word drawn left to right
    // would come back reversed ('باسح', 'ןובשח'). pdftotext gives the runs of a line in the page's
    // direction, so each run is looked for on its own.
    for (const run of ['تعليق', 'حساب المتابع', 'وصل إلى الحد', 'הערה', 'חשבון', 'הגיע לגבול']) expect(text).toContain(run);
    expect(text).not.toMatch(/باسح|ןובשח/);
    expect(text).toMatch(/Page 1 of \d/);
    // Only the glyphs drawn are embedded: a whole Noto Sans SC alone is megabytes.
    expect(bytes.length).toBeLessThan(100_000);
  });

  it('loads only the font subsets its characters need', async () => {
    const latin = counting(serverFontFiles);
    const { text } = await drawn(statement('Follower 7100001', ['EURUSD'], []), latin.files);
    expect(text).toContain('Statement - Follower 7100001');
    // The broker's Greek name needs Noto Sans' Greek subset (normal only: it is not in bold).
    expect(latin.asked.sort()).toEqual(['noto-sans-greek-400-normal.woff', 'noto-sans-latin-400-normal.woff', 'noto-sans-latin-700-normal.woff']);

    const chinese = counting(serverFontFiles);
    await drawn(statement('账户', ['EURUSD'], []), chinese.files);
    // 账 and 户 lie in two of Noto Sans SC's hundred subsets: those two, in the title's bold and the footer's normal.
    expect(chinese.asked.filter((f) => f.startsWith('noto-sans-sc-')).sort()).toEqual([
      'noto-sans-sc-115-400-normal.woff',
      'noto-sans-sc-115-700-normal.woff',
      'noto-sans-sc-118-400-normal.woff',
      'noto-sans-sc-118-700-normal.woff',
    ]);
  });

  it('prints U+FFFD for a character no font has, and for one outside the Basic Multilingual Plane', async () => {
    const { text } = await drawn(statement('Account \u{1F600} \u0D05', ['EURUSD'], []));
    expect(text).toContain('Statement - Account \uFFFD \uFFFD');
  });
});
