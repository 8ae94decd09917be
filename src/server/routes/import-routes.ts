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
import { HttpError } from '#server/http/errors.ts';
import type { ImportService } from '#server/services/import-service.ts';

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
const TOO_LARGE = `The file is larger than ${STATEMENT_MAX_BYTES / 1024 / 1024} MB, too large for a trade history report.`;

/**
 * Statement import: a user with write uploads an investor's MT5 Trade History Report or MT4
 * Statement into one account of their portfolios (ImportService).
 */
export const importRoutes: FastifyPluginAsyncZod<{ imports: ImportService }> = async (app, { imports }) => {
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
          `Imports a statement file into an account whose adapter takes statements: MetaTrader 5's Trade History Report (HTML in UTF-8 or ` +
          `UTF-16, or .xlsx), MetaTrader 4's Statement.htm or DetailedStatement.htm, in any language the terminal writes, or an Interactive ` +
          `Brokers Flex statement (Activity Flex Query, XML; a file of several accounts books each into its registered account: docs/ibkr.md), sent as the raw request ` +
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
    async (request) => imports.importStatement(callerOf(request), request.query, request.body, request.log),
  );
};

