import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse } from '#shared/contract/common.ts';
import {
  IMPORT_STATEMENT_PATH,
  ImportStatementBody,
  ImportStatementQuery,
  ImportStatementResponse,
  STATEMENT_CONTENT_TYPE,
  STATEMENT_MAX_BYTES,
} from '#shared/contract/import.ts';
import { callerOf, requirePermission } from '#server/auth/guard.ts';
import { audit } from '#server/db/audit-repo.ts';
import type { Database } from '#server/db/database.ts';
import { badRequest, HttpError } from '#server/http/errors.ts';
import { ReaderBusyError, readStatement } from '#server/import/read-in-worker.ts';
import { NotAStatementError, ReadBudgetError, type ParsedStatement } from '#server/import/report.ts';
import { money } from '#server/import/stated.ts';
import type { AgentChannel } from '#server/broker/agent/agent-broker.ts';
import type { Ingest } from '#server/ingest/ingest.ts';
import { findAccount } from './account-lookup.ts';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  413: ErrorResponse,
  415: ErrorResponse,
  429: ErrorResponse,
};

const UNSUPPORTED = `Send the report file itself as the request body, with content-type ${STATEMENT_CONTENT_TYPE}.`;
const EMPTY = 'The file is empty. Choose a MetaTrader trade history report.';
const TOO_LARGE = `The file is larger than ${STATEMENT_MAX_BYTES / 1024 / 1024} MB, too large for a trade history report.`;
const UNREADABLE = 'This file could not be read as a MetaTrader 4 or 5 trade history report.';

/**
 * Statement import (issue 18 item 4): a user with write uploads an investor's MT5 Trade History Report
 * or MT4 Statement into one account of their portfolios; its deals are stored by ticket, as the
 * terminal agents' are, so importing an overlapping report again changes nothing.
 */
export const importRoutes: FastifyPluginAsyncZod<{ db: Database; ingest: Ingest; agents: Pick<AgentChannel, 'reported'> }> = async (
  app,
  { db, ingest, agents },
) => {
  // This plugin's route takes raw bytes and nothing else (content-type parsers are encapsulated: the
  // rest of the API keeps its JSON). Anything else is refused before its body is read.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(STATEMENT_CONTENT_TYPE, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.addContentTypeParser('*', (_request, _payload, done) => done(new HttpError(415, UNSUPPORTED)));

  app.post(
    IMPORT_STATEMENT_PATH,
    {
      // Before the body is read: a caller without write, or a file said to be too large, is refused
      // at once (a body that turns out longer than it said still meets bodyLimit).
      onRequest: [
        requirePermission('write'),
        async (request) => {
          if (Number(request.headers['content-length']) > STATEMENT_MAX_BYTES) throw new HttpError(413, TOO_LARGE);
        },
      ],
      bodyLimit: STATEMENT_MAX_BYTES,
      schema: {
        description:
          `Imports a trade history report into an account: MetaTrader 5's Trade History Report (HTML in UTF-8 or UTF-16, or .xlsx) ` +
          `or MetaTrader 4's Statement.htm or DetailedStatement.htm, in any language the terminal writes, sent as the raw request ` +
          `body (content-type ${STATEMENT_CONTENT_TYPE}, at most ${STATEMENT_MAX_BYTES / 1024 / 1024} MB). Needs the write permission. ` +
          'Deals are stored by ticket: new ones are added, changed ones updated, the rest skipped, so importing an overlapping report ' +
          "again changes nothing. A report of a period opens with the balance before its first deal (an opening balance entry), and " +
          "the account's equity becomes its balance plus the floating result of the positions the report lists. The report's times " +
          'are broker server time, `utc_offset_minutes` ahead of UTC. Refused with a message (400): a file that is not a report, ' +
          'one cut short, one listing a deal twice with different figures, one too large or complex to read within the budget, and ' +
          'a report of another account (by its login) or in another currency (docs/statements.md).',
        consumes: [STATEMENT_CONTENT_TYPE],
        querystring: ImportStatementQuery,
        body: ImportStatementBody,
        response: { 200: ImportStatementResponse, ...errors },
      },
    },
    async (request) => {
      const user = callerOf(request);
      const account = await findAccount(db, user, request.query.account);
      const bytes: unknown = request.body;
      if (!(bytes instanceof Uint8Array) || bytes.length === 0) throw badRequest(EMPTY);
      const parsed = await readFile(bytes, (err) => request.log.warn({ err }, 'statement import: the reader failed'));

      const login = parsed.account.login;
      if (login !== null && login !== account.account) {
        throw badRequest(`This report is for account ${login}, not ${account.account}.`);
      }
      const currency = parsed.account.currency;
      if (currency !== null && currency !== account.currency) {
        throw badRequest(`This report is in ${currency}, but the account ${account.account} is in ${account.currency}.`);
      }

      const result = await ingest.importDeals(account.id, parsed.deals, request.query.utc_offset_minutes, {
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
    },
  );
};

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
