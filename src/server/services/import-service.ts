import type { FastifyBaseLogger } from 'fastify';
import type { ImportStatementResponse } from '#shared/contract/import.ts';
import type { SessionUser } from '#server/auth/auth-store.ts';
import { audit } from '#server/db/audit-repo.ts';
import type { Database } from '#server/db/database.ts';
import { badRequest, HttpError } from '#server/http/errors.ts';
import { ReaderBusyError, readStatement } from '#server/import/read-in-worker.ts';
import { NotAStatementError, ReadBudgetError, type ParsedStatement } from '#shared/statements/report.ts';
import { money } from '#shared/statements/stated.ts';
import type { AgentChannel } from '#server/broker/agent/agent-broker.ts';
import type { Ingest } from '#server/ingest/ingest.ts';
import { findAccount } from './account-lookup.ts';

const EMPTY = 'The file is empty. Choose a MetaTrader trade history report.';
const UNREADABLE = 'This file could not be read as a MetaTrader 4 or 5 trade history report.';

export interface ImportDeps {
  db: Database;
  ingest: Ingest;
  agents: Pick<AgentChannel, 'reported'>;
}

/**
 * Statement import (docs/statements.md): an investor's MT5 Trade History Report or MT4 Statement
 * into one account of the caller's portfolios; its deals are stored by ticket, as the terminal
 * agents' are, so importing an overlapping report again changes nothing.
 */
export class ImportService {
  constructor(private readonly deps: ImportDeps) {}

  /** Reads the report in `bytes` and books its deals into the account `ref` names, audited. */
  async importStatement(
    user: SessionUser,
    query: { account: string; utc_offset_minutes: number },
    bytes: unknown,
    log: FastifyBaseLogger,
  ): Promise<ImportStatementResponse> {
    const { db, ingest, agents } = this.deps;
    const account = await findAccount(db, user, query.account);
    if (!(bytes instanceof Uint8Array) || bytes.length === 0) throw badRequest(EMPTY);
    const parsed = await readFile(bytes, (err) => log.warn({ err }, 'statement import: the reader failed'));

    const login = parsed.account.login;
    if (login !== null && login !== account.account) {
      throw badRequest(`This report is for account ${login}, not ${account.account}.`);
    }
    const currency = parsed.account.currency;
    if (currency !== null && currency !== account.currency) {
      throw badRequest(`This report is in ${currency}, but the account ${account.account} is in ${account.currency}.`);
    }

    const result = await ingest.importDeals(account.id, parsed.deals, query.utc_offset_minutes, {
      opening: parsed.opening && { before_ticket: parsed.opening.ticket, balance: parsed.opening.balance },
      floating: parsed.floating,
    });
    await audit(db, user.id, 'accounts.import-statement', {
      account: account.account_id,
      format: parsed.format,
      added: result.added,
      updated: result.updated,
      skipped: result.unchanged,
    });
    // Real accounts' figures are served from the agents' snapshot: read it again from the books.
    await agents.reported([]);
    const opening = result.booked?.opening;
    return {
      message:
        `Imported: ${result.added} added, ${result.updated} updated, ${result.unchanged} skipped.` +
        (opening ? ` Opening balance ${money(opening, account.currency)} ${account.currency}: the balance before the report's first deal.` : ''),
      added: result.added,
      updated: result.updated,
      skipped: result.unchanged,
      warnings: parsed.warnings,
    };
  }
}

/**
 * The report in these bytes, read in a worker under the reading budget (src/server/import/budget.ts);
 * any file the reader cannot take is the uploader's 400, never a 500, and never a stalled server.
 */
async function readFile(bytes: Uint8Array, onUnexpected: (err: unknown) => void): Promise<ParsedStatement> {
  try {
    return await readStatement(bytes);
  } catch (err) {
    if (err instanceof NotAStatementError || err instanceof ReadBudgetError) throw badRequest(err.message);
    if (err instanceof ReaderBusyError) throw new HttpError(429, err.message);
    onUnexpected(err);
    throw badRequest(UNREADABLE);
  }
}
