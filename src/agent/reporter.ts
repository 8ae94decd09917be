/**
 * The reporting loop of a terminal agent over Ingest API v1 (src/shared/contract/ingest.ts): once every
 * `everyMs`, every account's report in batches, its deals in pages of at most MAX_DEALS_PER_BATCH. What
 * it reports comes from `Terminals`, in the contract's own words: the agent knows nothing else of them
 * (`npm run agent -- simulate` reads the server's simulated market through it: scripts/agent.ts).
 */
import { randomUUID } from 'node:crypto';
import {
  AGENT_KEY_HEADER,
  IngestAnswer,
  MAX_ACCOUNTS_PER_BATCH,
  MAX_DEALS_PER_BATCH,
  type IngestAccount,
  type IngestBatch,
  type IngestDeal,
} from '#shared/contract/ingest.ts';

/** One account's report: its state, open positions and quotes, and its deals since the cursor (any number of them). */
export type TerminalReport = Omit<IngestAccount, 'deals'> & { deals: IngestDeal[] };

/** What an agent reports from: its terminals' accounts. */
export interface Terminals {
  /** How many accounts they hold. */
  readonly accountCount: number;
  /** Every account's report, with the deals closed after `cursor` (0: all of them); `next` is the cursor after those. */
  read(cursor: number): Promise<{ reports: TerminalReport[]; next: number }>;
}

/** Reports the terminals to a server as one agent, every `everyMs`, until `signal` aborts; a new session sends everything again. */
export async function runAsAgent(
  terminals: Terminals,
  options: { url: string; key: string; everyMs: number; signal?: AbortSignal; log?: (line: string) => void },
): Promise<number> {
  const session = randomUUID();
  let seq = 0;
  let cursor = 0;
  let reports = 0;
  const send = async (accounts: IngestAccount[]) => {
    const batch: IngestBatch = { session, seq: ++seq, batch_id: randomUUID(), utc_offset_minutes: 0, sent_at: Date.now(), accounts };
    const res = await fetch(new URL('/api/ingest/v1/batches', options.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', [AGENT_KEY_HEADER]: options.key },
      body: JSON.stringify(batch),
    });
    const body = (await res.json().catch(() => ({}))) as { message?: string };
    if (!res.ok) throw new Error(`The server refused batch ${batch.seq} (${res.status}): ${body.message ?? res.statusText}`);
    if (IngestAnswer.parse(body).resync) throw new Error('The server asked for a resync: start the simulation again.');
  };
  while (!options.signal?.aborted) {
    const { reports: read, next } = await terminals.read(cursor);
    const reportsOf: IngestAccount[] = [];
    for (const { login, server, deals, ...figures } of read) {
      for (let i = 0; i < Math.max(1, deals.length); i += MAX_DEALS_PER_BATCH) {
        reportsOf.push({
          login,
          server,
          ...(i === 0 ? figures : {}),
          ...(deals.length ? { deals: { items: deals.slice(i, i + MAX_DEALS_PER_BATCH), deleted: [] } } : {}),
        });
      }
    }
    for (let i = 0; i < reportsOf.length; i += MAX_ACCOUNTS_PER_BATCH) await send(reportsOf.slice(i, i + MAX_ACCOUNTS_PER_BATCH));
    cursor = next;
    reports++;
    await new Promise((resolve) => setTimeout(resolve, options.everyMs));
  }
  options.log?.(`${reports} reports of ${terminals.accountCount} accounts sent.`);
  return reports;
}
