import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { navReport } from './nav-report.ts';
import { rebatesReport } from './rebates-report.ts';
import type { FontFiles } from '#shared/reports/pdf-fonts.ts';
import { buildTableReport, pdfText } from '#shared/reports/table-report.ts';

/** The fonts from node_modules, as the server reads them (the app's font-files.ts fetches its build's copies). */
const require = createRequire(import.meta.url);
const fontDir = (family: string) => path.dirname(require.resolve(`@fontsource/${family}/LICENSE`));
const fonts: FontFiles = {
  ranges: async (family) => JSON.parse(fs.readFileSync(path.join(fontDir(family), 'unicode.json'), 'utf8')) as Record<string, string>,
  woff: async (family, file) => new Uint8Array(fs.readFileSync(path.join(fontDir(family), 'files', file))),
};

const navRow = (i: number) => ({
  id: String(i),
  broker_name: 'IBKR',
  account_name: `Account ${String(i).padStart(2, '0')}`,
  account: String(i),
  currency: 'USD',
  balance: 1234.5,
  equity: 1300,
  pnl: 65.5,
  last_update: 0,
});

describe('NAV report', () => {
  it('has a Live P/L column only in real time and the one money format', () => {
    const summary = [{ currency: 'USD', balance: 1234.5, equity: 1300, pnl: 65.5, accounts: 1 }];
    const live = navReport({ portfolio: 'SMA', realtime: true, date: '2026-03-05', period: 'Real-Time Data', rows: [navRow(1)], summary });
    expect(live.fileName).toBe('nav_report_SMA_2026-03-05.pdf');
    expect(live.detail.head).toEqual(['Broker', 'Account Name', 'Balance', 'Equity', 'Live P/L']);
    expect(live.detail.body[0]?.map(pdfText)).toEqual(['IBKR', 'Account 01', '1 234,50 $', '1 300,00 $', '65,50 $']);
    const eod = navReport({ portfolio: 'SMA', realtime: false, date: '2026-03-05', period: 'End of Day', rows: [navRow(1)], summary });
    expect(eod.detail.head).toEqual(['Broker', 'Account Name', 'Balance', 'Equity']);
    expect(eod.summary.head).toEqual(['Currency', 'Accounts', 'Balance', 'Equity']);
  });
});

describe('rebates report', () => {
  it('names the file after portfolio, grouping and month, with a Broker column for accounts only', () => {
    const row = {
      name: 'Acc',
      brokerName: 'IBKR',
      currency: 'USD',
      balance: 25_000,
      totalRebate: 87.5,
      totalProfitSharing: 0,
      rebatePercentage: 0.35,
      monthlyBreakdown: [],
    };
    const summary = [{ currency: 'USD', balance: 25_000, totalRebate: 87.5, totalProfitSharing: 0, rebatePercentage: 0.35 }];
    const byAccount = rebatesReport({ portfolio: 'All', grouping: 'account', month: null, rows: [row], summary });
    expect(byAccount.fileName).toBe('rebates_report_All_account_All_Months.pdf');
    // docs/figures.md R1: 87.50 USD on a 25,000 balance is 0.35 %.
    expect(byAccount.detail.body[0]?.map(pdfText)).toEqual(['IBKR', 'Acc', '25 000,00 $', '87,50 $', '0,35 %', '0,00 $', 'USD']);
    const byBroker = rebatesReport({ portfolio: 'SMA', grouping: 'broker', month: '2026-03', rows: [row], summary });
    expect(byBroker.fileName).toBe('rebates_report_SMA_broker_2026-03.pdf');
    expect(byBroker.period).toBe('March 2026, by broker');
    expect(byBroker.detail.head[0]).toBe('Broker');
    expect(byBroker.detail.head).toHaveLength(6);
  });
});

describe('PDF document', () => {
  it('puts Page X of Y on every page of a long report', async () => {
    const rows = Array.from({ length: 70 }, (_, i) => navRow(i));
    const summary = [{ currency: 'USD', balance: 1, equity: 1, pnl: 0, accounts: 70 }];
    const doc = await buildTableReport(
      navReport({ portfolio: 'Consolidated Portfolio', realtime: true, date: '2026-03-05', period: 'Real-Time Data', rows, summary }),
      fonts,
    );
    const pages = doc.getNumberOfPages();
    expect(pages).toBeGreaterThanOrEqual(2);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'report-')), 'nav.pdf');
    fs.writeFileSync(file, new Uint8Array(doc.output('arraybuffer')));
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    for (let page = 1; page <= pages; page += 1) expect(text).toContain(`Page ${page} of ${pages}`);
    expect(text).toContain('Account 69');
  });
});
