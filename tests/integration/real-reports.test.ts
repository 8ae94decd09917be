import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount, insertBroker } from '#server/db/accounts-repo.ts';
import { grantAccount, insertAgent } from '#server/db/agents-repo.ts';
import { hashToken, newToken } from '#server/auth/tokens.ts';
import { NotAStatementError, parseStatement } from '#shared/statements/report.ts';
import type { ImportStatementResponse } from '#shared/contract/import.ts';
import type { HistoricalDealsResponse } from '#shared/contract/deals.ts';
import { BACKENDS, http, login, startServer, type TestServer } from './helpers/server.ts';
import { REAL_REPORTS, realReportsDescribe, realReportsTitle } from '../fixtures/real-reports.ts';

/**
 * Conformance over genuine MetaTrader reports written by other people (../shared/real-reports, beside
 * the project; REAL_REPORTS_DIR overrides it). Each MT4/MT5 file is imported into an account of its
 * own twice — through the app's import route and through the reference agent run as a command
 * (`npm run agent -- replay`) against the real server — and its figures are read back through the API.
 * The expected figures are each file's own, as its summary prints them (and its folder's README lists
 * them), written here by hand; importing a file again must change nothing.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FOLDER = REAL_REPORTS;

interface Expected {
  file: string;
  login: string;
  /** The account's trade server (MT4 statements print none: a name is made up for the account). */
  server: string;
  currency: string;
  balance: number;
  equity: number;
  /** Σ of the closed trades' profit, swap, commission and taxes. */
  net: number;
  commission: number;
  swap: number;
  /** The amounts of the deposit and withdrawal rows ('Deposit' / 'Withdrawal' in the deals list). */
  deposits: number;
  withdrawals: number;
  /** The balance before the report's period (an 'Opening balance' row), where the report has one. */
  opening: number | null;
  trades: number;
  /**
   * Where the report states them: its profit and loss trades, best and worst trade, gross profit and
   * loss; and `evens`, its trades that close at exactly 0.00, counted by hand in the file. MetaTrader
   * counts those among its profit trades; the app counts them as neither a win nor a loss
   * (docs/statements.md, "Figures").
   */
  results?: { profitTrades: number; lossTrades: number; evens: number; best: number; worst: number; grossProfit: number; grossLoss: number };
  /** A warning the import must give (the report disagrees with itself). */
  warning?: RegExp;
}

// From each report's Results / Summary / Details blocks and its deals table's totals row.
const REPORTS: Expected[] = [
  {
    file: 'mt5-metaquotes-70358000-en.html',
    login: '70358000', server: 'MetaQuotes-Demo', currency: 'EUR',
    // Balance 9 949.16; Equity 9 927.92 (open positions: profit −20.68, swap −0.56).
    balance: 9_949.16, equity: 9_927.92,
    // Total Net Profit −50.84: profit −50.45 and swap −0.39 of the deals' totals row; no commission.
    net: -50.84, commission: 0, swap: -0.39, deposits: 10_000, withdrawals: 0, opening: null,
    trades: 658,
    // Six positions close at 0.00 (their Profit cells read 0.00).
    results: { profitTrades: 370, lossTrades: 288, evens: 6, best: 9.67, worst: -9.36, grossProfit: 157.73, grossLoss: -208.57 },
  },
  {
    file: 'mt5-metaquotes-5014131788-bg.html',
    login: '5014131788', server: 'MetaQuotes-Demo', currency: 'USD',
    balance: 99_996.7, equity: 99_997.1,
    net: -3.3, commission: 0, swap: 0, deposits: 100_000, withdrawals: 0, opening: null,
    trades: 18,
    // One position (50485256131) closes at 0.00.
    results: { profitTrades: 5, lossTrades: 13, evens: 1, best: 1.9, worst: -3.1, grossProfit: 4.5, grossLoss: -7.8 },
  },
  {
    file: 'mt5-oandajp-400078005-ja-utf16.html',
    login: '400078005', server: 'OANDA-Japan MT5 Demo', currency: 'JPY',
    // No balance row: 3 000 691 before the period (the first deal's running balance), −427 in it.
    balance: 3_000_264, equity: 3_000_346,
    net: -427, commission: 0, swap: 0, deposits: 0, withdrawals: 0, opening: 3_000_691,
    trades: 10,
    results: { profitTrades: 3, lossTrades: 7, evens: 0, best: 156, worst: -128, grossProfit: 463, grossLoss: -890 },
  },
  {
    file: 'mt5-hfm-57174315.xlsx',
    login: '57174315', server: 'HFMarketsKE-Demo2', currency: 'USD',
    // 50.61 before the period, a deposit of 50.00 in it, −49.67 traded; equity with the open NZDUSD's −2.37.
    balance: 50.94, equity: 48.57,
    net: -49.67, commission: 0, swap: 0, deposits: 50, withdrawals: 0, opening: 50.61,
    trades: 9,
    results: { profitTrades: 4, lossTrades: 5, evens: 0, best: 184.6, worst: -264.07, grossProfit: 242.24, grossLoss: -291.91 },
  },
  {
    file: 'mt4-tradeslide-2100104808.htm',
    login: '2100104808', server: 'Tradeslide-Live', currency: 'USD',
    // The statement disagrees with itself: Deposit/Withdrawal 100 000.00 + Closed Trade P/L 8 205.65 is
    // 108 205.65, its Balance says 94 174.94. Imported from its rows, with a warning; equity adds its
    // Floating P/L of 186.65.
    balance: 108_205.65, equity: 108_392.3,
    net: 8_205.65, commission: -2_265.77, swap: -308.6, deposits: 100_000, withdrawals: 0, opening: null,
    trades: 124,
    warning: /states a balance of 94 174\.94 USD, but its rows add up to 108 205\.65 USD \(a difference of -14 030\.71 USD\)/,
  },
  {
    file: 'mt4-ronnaru-120010550-jpy.htm',
    login: '120010550', server: 'Ronnaru-Live', currency: 'JPY',
    balance: 151_396, equity: 152_619,
    net: -348_604, commission: 0, swap: -171, deposits: 500_000, withdrawals: 0, opening: null,
    trades: 1_761,
    // Details: Gross Profit 838 124, Gross Loss 1 186 728, 1328 profit and 433 loss trades, largest 27 190 and −36 203;
    // four closed trades' commission, taxes, swap and profit add up to 0.
    results: { profitTrades: 1_328, lossTrades: 433, evens: 4, best: 27_190, worst: -36_203, grossProfit: 838_124, grossLoss: -1_186_728 },
  },
  {
    file: 'mt4-oanda-7400777.htm',
    login: '7400777', server: 'OANDA-Live', currency: 'USD',
    // Deposit/Withdrawal 4 997.46: a 5 000.00 adjustment and two financing charges of 2.46 and 0.08.
    balance: 4_731.27, equity: 4_731.27,
    net: -266.19, commission: 0, swap: 0, deposits: 5_000, withdrawals: 2.54, opening: null,
    trades: 42,
  },
  {
    file: 'mt4-rawtrading-30921505.htm',
    login: '30921505', server: 'RawTrading-Live', currency: 'USD',
    balance: 299.31, equity: 299.31,
    net: 99.31, commission: 0, swap: -0.66, deposits: 200, withdrawals: 0, opening: null,
    trades: 42,
  },
  {
    file: 'mt4-fyntura-1320698.htm',
    login: '1320698', server: 'Fyntura-Live', currency: 'USD',
    // Deposit/Withdrawal −403.00 (397 in, 800 out); Equity 951.00 with a Floating P/L of −281.24.
    balance: 1_232.24, equity: 951,
    net: 1_635.24, commission: -73.06, swap: -61.4, deposits: 397, withdrawals: 800, opening: null,
    trades: 297,
  },
];

const run = promisify(execFile);

interface Info {
  account_id: string;
  balance: number;
  equity: number;
  equity_perc: number;
  pnl: number;
  net_profit: number;
  total_commission: number;
  total_swap: number;
}

realReportsDescribe(realReportsTitle('genuine MetaTrader reports cut short'), () => {
  it.each(REPORTS)('$file: refused at every cut from 5 % to 95 %, and whole it is read', async (report) => {
    const bytes = new Uint8Array(fs.readFileSync(path.join(FOLDER, report.file)));
    for (let share = 0.05; share < 0.96; share += 0.05) {
      const cut = bytes.subarray(0, Math.floor(bytes.length * share));
      const error: unknown = await parseStatement(cut).catch((caught: unknown) => caught);
      expect({ share, refused: error instanceof NotAStatementError }).toEqual({ share, refused: true });
    }
    expect((await parseStatement(bytes)).account.login).toBe(report.login);
  });
});

realReportsDescribe(realReportsTitle('the English MT5 report\'s 1 402 deals'), () => {
  it('tie each of its 658 closing deals to its own closed position of the Positions section, without a warning', async () => {
    const file = path.join(FOLDER, 'mt5-metaquotes-70358000-en.html');
    const html = fs.readFileSync(file, 'utf8');
    // The Positions section's rows, read here with a regular expression: each row's second cell is the position.
    const section = html.slice(html.indexOf('<b>Positions</b>'), html.indexOf('<b>Orders</b>'));
    const closed = [...section.matchAll(/<tr[^>]*>\s*<td>[^<]*<\/td>\s*<td>(\d+)<\/td>/g)].map((m) => Number(m[1]));
    expect(closed).toHaveLength(658);
    const statement = await parseStatement(new Uint8Array(fs.readFileSync(file)));
    expect(statement.warnings).toEqual([]);
    const closing = statement.deals.filter((d) => (d.type === 0 || d.type === 1) && d.entry === 'out').map((d) => d.position_id);
    expect(closing.toSorted((a, b) => a - b)).toEqual(closed.toSorted((a, b) => a - b));
  });
});

realReportsDescribe.each(BACKENDS)(realReportsTitle('genuine MetaTrader reports import with their own figures (%s)'), (backend) => {
  let server: TestServer;
  let admin: string;
  let agentKey: string;

  const accountIdOf = (report: Expected, path: 'app' | 'agent') => `${path}-${report.login}`;

  beforeAll(async () => {
    server = await startServer(backend, { demo: true });
    admin = await login(server, 'admin');
    const db = server.app.db;
    const broker = await insertBroker(db, {
      broker_name: 'Real Reports', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0,
    });
    agentKey = newToken();
    const agent = await insertAgent(db, 'replayer', hashToken(agentKey));
    for (const report of REPORTS) {
      for (const via of ['app', 'agent'] as const) {
        const id = await insertAccount(db, {
          account_id: accountIdOf(report, via),
          account: report.login,
          account_name: `${report.file} (${via})`,
          broker_id: broker,
          // One login, two accounts: the agent's is the report's own server, the app's another.
          server: via === 'agent' ? report.server : `${report.server}-app`,
          server_name: report.server,
          teiko_category: 'SMA',
          currency: report.currency,
          is_master: false,
          master_id: null,
          copy_ratio: 1,
          leverage: 100,
          ping: 0,
          last_update: 0,
          source: 'agent',
        });
        if (via === 'agent') await grantAccount(db, agent, id, 'read');
      }
    }
  });
  afterAll(async () => {
    await server.close();
  });

  const upload = (report: Expected) =>
    fetch(`${server.url}/api/accounts/import-statement?account=${accountIdOf(report, 'app')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'x-api-key': admin },
      body: new Uint8Array(fs.readFileSync(path.join(FOLDER, report.file))),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as ImportStatementResponse }));

  const replay = (report: Expected) =>
    run('npm', ['run', '--silent', 'agent', '--', 'replay', path.join(FOLDER, report.file), '--url', server.url, '--key', agentKey,
      '--login', report.login, '--server', report.server], { cwd: ROOT });

  /** What the API shows of an account: accounts/info, and the historical deals with their statistics. */
  const figures = async (report: Expected, via: 'app' | 'agent') => {
    const accountId = accountIdOf(report, via);
    const info = await http<{ data: Info[] }>(server, 'GET', '/api/brokers/accounts/info', { key: admin });
    const row = info.body.data.find((a) => a.account_id === accountId)!;
    const history = await http<HistoricalDealsResponse>(server, 'GET', `/api/brokers/historical-deals?account=${accountId}`, { key: admin });
    const { deals, all } = history.body.dealsStats[0]!;
    const trades = deals.filter((d) => d.type === 'Buy' || d.type === 'Sell');
    const net = trades.map((d) => d.profit + d.swap + d.commission + d.fee);
    const sum = (xs: number[]) => Math.round(xs.reduce((s, x) => s + x, 0) * 100) / 100;
    return {
      balance: row.balance,
      equity: row.equity,
      pnl: row.pnl,
      equityPerc: row.equity_perc,
      netProfit: row.net_profit,
      commission: row.total_commission,
      swap: row.total_swap,
      deposits: sum(deals.filter((d) => d.type === 'Deposit').map((d) => d.profit)),
      withdrawals: sum(deals.filter((d) => d.type === 'Withdrawal').map((d) => -d.profit)),
      openings: deals.filter((d) => d.type === 'Opening balance').map((d) => d.profit),
      trades: trades.length,
      wins: all.stats.win,
      losses: all.stats.loss,
      best: all.stats.best_trade?.profit ?? null,
      worst: all.stats.worst_trade?.profit ?? null,
      evens: net.filter((x) => Math.abs(x) < 0.005).length,
      grossProfit: sum(net.filter((x) => x > 0)),
      grossLoss: sum(net.filter((x) => x < 0)),
      dealRows: deals.length,
    };
  };

  const expectFigures = async (report: Expected, via: 'app' | 'agent') => {
    const got = await figures(report, via);
    const money = (label: string, actual: number | null, expected: number) => expect({ [label]: actual }).toEqual({ [label]: expected });
    money('balance', got.balance, report.balance);
    money('equity', got.equity, report.equity);
    // Equity against balance: the floating result of the open positions, never −100 %.
    money('pnl', got.pnl, Math.round((report.equity - report.balance) * 100) / 100);
    expect(got.equityPerc).toBeCloseTo(((report.equity - report.balance) / report.balance) * 100, 2);
    money('net profit', got.netProfit, report.net);
    money('commission', got.commission, report.commission);
    money('swap', got.swap, report.swap);
    money('deposits', got.deposits, report.deposits);
    money('withdrawals', got.withdrawals, report.withdrawals);
    expect(got.openings).toEqual(report.opening === null ? [] : [report.opening]);
    expect(got.trades).toBe(report.trades);
    if (report.results) {
      const { profitTrades, lossTrades, evens, best, worst, grossProfit, grossLoss } = report.results;
      expect({ wins: got.wins, evens: got.evens, losses: got.losses, best: got.best, worst: got.worst, grossProfit: got.grossProfit, grossLoss: got.grossLoss }).toEqual({
        wins: profitTrades - evens, evens, losses: lossTrades, best, worst, grossProfit, grossLoss,
      });
    }
    return got;
  };

  // Each file's two accounts are its own: the files, and the app and agent paths, run side by side.
  describe.concurrent.each(REPORTS)('$file', (report) => {
    it('through the app: refused when cut short (nothing written), imported whole with its own figures, and again without a change', async () => {
      const bytes = fs.readFileSync(path.join(FOLDER, report.file));
      for (const end of [Math.floor(bytes.length * 0.45), bytes.length - 40]) {
        const res = await fetch(`${server.url}/api/accounts/import-statement?account=${accountIdOf(report, 'app')}`, {
          method: 'POST',
          headers: { 'content-type': 'application/octet-stream', 'x-api-key': admin },
          body: new Uint8Array(bytes.subarray(0, end)),
        });
        const body = (await res.json()) as { message: string };
        expect({ end, status: res.status }).toEqual({ end, status: 400 });
        expect(body.message).toMatch(/^This report is incomplete|damaged spreadsheet/);
      }
      const empty = await figures(report, 'app');
      expect({ balance: empty.balance, dealRows: empty.dealRows }).toEqual({ balance: 0, dealRows: 0 });

      const first = await upload(report);
      expect(first.status).toBe(200);
      expect(first.body.added).toBeGreaterThan(0);
      if (report.warning) expect(first.body.warnings.some((w) => report.warning!.test(w))).toBe(true);
      else expect(first.body.warnings).toEqual([]);
      if (report.opening !== null) expect(first.body.message).toContain(`Opening balance`);
      const before = await expectFigures(report, 'app');

      const again = await upload(report);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ added: 0, updated: 0, skipped: first.body.added });
      expect(await figures(report, 'app')).toEqual(before);
    });

    it('through the reference agent (npm run agent -- replay): the same figures, and again without a change', async () => {
      const first = await replay(report);
      expect(first.stdout).toMatch(new RegExp(`deals of ${report.login}@${report.server} sent in \\d+ batches`));
      if (report.warning) expect(first.stdout).toMatch(report.warning);
      const before = await expectFigures(report, 'agent');
      const again = await replay(report);
      expect(again.stdout).toMatch(/; 0 rows booked\./);
      expect(await figures(report, 'agent')).toEqual(before);
    });
  });
});
