/**
 * The reference terminal agent: a Node command that speaks Ingest API v1 (src/shared/contract/ingest.ts)
 * the way an Expert Advisor in MetaTrader would.
 *
 *   npm run agent -- replay <report file> --url http://127.0.0.1:8080 --key <agent key> \
 *     [--login 51234567 --server Pepperstone-Live01] [--utc-offset 120]
 *
 * `replay` reads an MT5 Trade History Report (HTML in UTF-8 or UTF-16, or XLSX) or an MT4
 * Statement.htm, in any language, and pushes its deals in batches of at most 500 deals, the last with
 * the report's own figures (its opening balance and its open positions' floating result:
 * docs/statements.md), then the open positions it lists. Replaying a report again, or one that
 * overlaps it, changes nothing: deals are stored by ticket. The account is the report's own (its login
 * and server) unless --login/--server name it.
 *
 *   npm run agent -- simulate --print-setup [--seed 42]      # the admin commands that register its accounts
 *   npm run agent -- simulate --url http://127.0.0.1:8080 --key <agent key> [--seed 42] [--seconds 60]
 *
 * `simulate` runs the server's simulated market in this process and reports its accounts as a terminal
 * agent would, through this agent's reporting loop (src/agent/reporter.ts); `npm run agent` starts
 * this command line with it (scripts/agent.ts). The agent itself speaks only the ingest contract.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import {
  AGENT_KEY_HEADER,
  IngestAnswer,
  MAX_DEALS_PER_BATCH,
  type IngestAccount,
  type IngestBatch,
  type IngestDeal,
  type IngestStatement,
} from '#shared/contract/ingest.ts';
import { parseStatement } from '#shared/statements/report.ts';

export interface ReplayOptions {
  url: string;
  key: string;
  login?: string;
  server?: string;
  utcOffsetMinutes: number;
  /** Where progress goes (stdout by default). */
  log?: (line: string) => void;
}

export interface ReplayResult {
  batches: number;
  deals: number;
  booked: number;
}

class AgentError extends Error {}

/** One agent session: batches numbered 1, 2, 3 …, each with its own id. */
class Session {
  private id = randomUUID();
  private seq = 0;

  constructor(
    private readonly options: ReplayOptions,
    private readonly account: { login: string; server: string },
  ) {}

  async send(content: Omit<IngestAccount, 'login' | 'server'>): Promise<IngestAnswer> {
    for (let attempt = 0; ; attempt++) {
      const batch: IngestBatch = {
        session: this.id,
        seq: ++this.seq,
        batch_id: randomUUID(),
        utc_offset_minutes: this.options.utcOffsetMinutes,
        sent_at: Date.now(),
        accounts: [{ ...this.account, ...content }],
      };
      const res = await fetch(new URL('/api/ingest/v1/batches', this.options.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [AGENT_KEY_HEADER]: this.options.key },
        body: JSON.stringify(batch),
      });
      const body = (await res.json().catch(() => ({}))) as { message?: string };
      if (!res.ok) throw new AgentError(`The server refused batch ${batch.seq} (${res.status}): ${body.message ?? res.statusText}`);
      const answer = IngestAnswer.parse(body);
      if (!answer.resync) return answer;
      // A gap the server saw (a batch of ours lost): start a new session and send this one again.
      if (attempt > 0) throw new AgentError('The server keeps asking for a resync.');
      this.id = randomUUID();
      this.seq = 0;
    }
  }
}

export async function replay(bytes: Uint8Array, fileName: string, options: ReplayOptions): Promise<ReplayResult> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const report = await parseStatement(bytes, fileName);
  const login = options.login ?? report.account.login;
  const server = options.server ?? report.account.server;
  if (!login || !server) throw new AgentError('The report does not name its account: give --login and --server.');
  for (const warning of report.warnings) log(`warning: ${warning}`);
  const session = new Session(options, { login, server });
  const pages: IngestDeal[][] = [];
  for (let i = 0; i < report.deals.length; i += MAX_DEALS_PER_BATCH) pages.push(report.deals.slice(i, i + MAX_DEALS_PER_BATCH));
  const result: ReplayResult = { batches: 0, deals: report.deals.length, booked: 0 };
  // The report's own figures ride with its last deals: its opening balance and its open positions' floating result.
  const statement: IngestStatement = {
    opening: report.opening && { before_ticket: report.opening.ticket, balance: report.opening.balance },
    floating: report.floating,
  };
  const last = Math.max(pages.length, 1) - 1;
  for (const [i, page] of (pages.length ? pages : [[]]).entries()) {
    const answer = await session.send({ deals: { items: page, deleted: [] }, ...(i === last ? { statement } : {}) });
    result.batches++;
    result.booked += answer.applied.deals;
  }
  if (report.positions.length) {
    await session.send({ positions: { full: false, open: report.positions, closed: [] } });
    result.batches++;
  }
  log(`${report.format}: ${result.deals} deals of ${login}@${server} sent in ${result.batches} batches; ${result.booked} rows booked.`);
  return result;
}

/** The value after `--name` in a command line, if any. */
export function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

/** Commands that run on more than the ingest contract, given by whoever starts the command line (scripts/agent.ts). */
export interface MoreCommands {
  /** `simulate …`: the arguments after the command; answers the exit code. */
  simulate?: (args: string[]) => Promise<number>;
}

const USAGE =
  'usage: npm run agent -- replay <report file> --url <server> --key <agent key> [--login L --server S] [--utc-offset minutes]\n' +
  '       npm run agent -- simulate (--print-setup | --url <server> --key <agent key>) [--seed 42] [--seconds N]\n';

/** The command line: `replay`, and `simulate` when given; answers the exit code. */
export async function main(argv: string[], more: MoreCommands = {}): Promise<number> {
  // Asking for help is no error: the usage on stdout, exit 0. A command line it cannot run: stderr, 2.
  if (argv[0] === 'help' || argv.some((a) => a === '--help' || a === '-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  const [command, file, ...rest] = argv;
  if (command === 'simulate') {
    if (more.simulate) return more.simulate(argv.slice(1));
    process.stderr.write('simulate runs the simulated market of the server: start it with npm run agent -- simulate.\n');
    return 2;
  }
  if (command !== 'replay' || !file) {
    process.stderr.write(USAGE);
    return 2;
  }
  const url = option(rest, 'url') ?? process.env.AGENT_URL;
  const key = option(rest, 'key') ?? process.env.AGENT_KEY;
  const offset = Number(option(rest, 'utc-offset') ?? '0');
  if (!url || !key) {
    process.stderr.write('Give the server (--url or AGENT_URL) and the agent key (--key or AGENT_KEY).\n');
    return 2;
  }
  if (!Number.isInteger(offset) || offset < -720 || offset > 840) {
    process.stderr.write('--utc-offset is the broker clock minus UTC in minutes, -720 to 840.\n');
    return 2;
  }
  try {
    await replay(fs.readFileSync(file), file, { url, key, login: option(rest, 'login'), server: option(rest, 'server'), utcOffsetMinutes: offset });
    return 0;
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2));
}
