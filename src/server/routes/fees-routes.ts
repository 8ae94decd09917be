import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '#shared/contract/endpoints.ts';
import { ErrorResponse } from '#shared/contract/common.ts';
import { callerOf, requirePermission } from '#server/auth/guard.ts';
import type { Idempotent } from '#server/http/idempotency.ts';
import { StatementAbandonedError, StatementsBusyError, STATEMENT_QUEUE } from '#server/fees/statement-queue.ts';
import { MAX_STATEMENT_DAYS, MAX_STATEMENT_DEALS, type FeesService } from '#server/services/fees-service.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 408: ErrorResponse, 409: ErrorResponse, 422: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse };

interface Options {
  fees: FeesService;
  idempotent: Idempotent;
}

/**
 * Fees and statements (docs/fees.md): a follower's fee terms, the fee entries with their arithmetic,
 * and the investor statement of a period as JSON, PDF or CSV. FeesService does the work; every read
 * is scoped to the caller's portfolios like any account read, and only write users set terms.
 */
export const feesRoutes: FastifyPluginAsyncZod<Options> = async (app, { fees, idempotent }) => {
  app.get(
    endpoints.feeTerms.path,
    {
      schema: {
        description:
          "An account's fee terms in force today (the portfolio category's profit sharing when nobody set any), every version set with who set it and when, " +
          'the high-water mark now and the management fee accrued in the period under way.',
        querystring: endpoints.feeTerms.query,
        response: { 200: endpoints.feeTerms.response, ...errors },
      },
    },
    async (request) => fees.terms(callerOf(request), request.query.account),
  );

  app.put(
    endpoints.setFeeTerms.path,
    {
      preValidation: requirePermission('write'),
      schema: {
        description:
          "Sets a follower's fee terms from `effective_from` (today, UTC, or later: never retroactive; terms already set for that day are replaced): " +
          'period monthly or quarterly; performance fee (rate 0–1, basis equity or balance, withdrawals lower the mark by their amount or in proportion); ' +
          'management fee (annual rate on end-of-day equity, accrued daily, actual/365); volume fee (USD per million of notional, each leg of a copied trade). ' +
          'A kind set to null is not charged. Audited. Takes Idempotency-Key.',
        body: endpoints.setFeeTerms.body,
        response: { 200: endpoints.setFeeTerms.response, ...errors },
      },
    },
    async (request, reply) => {
      const user = callerOf(request);
      return idempotent(request, reply, user.id, () => fees.setTerms(user, request.body, request.log));
    },
  );

  app.get(
    endpoints.fees.path,
    {
      schema: {
        description:
          "An account's fee entries booked in a range (`period` 2026-03 or 2026-Q1, or `from` and `to`, days included, UTC): each management accrual, " +
          'each charge (performance, management, volume) and each adjustment of a charged period, with its basis, the mark before and after, the rate, ' +
          'the amount and the arithmetic as text; and the totals per kind.',
        querystring: endpoints.fees.query,
        response: { 200: endpoints.fees.response, ...errors },
      },
    },
    async (request) => fees.fees(callerOf(request), request.query),
  );

  app.get(
    endpoints.statement.path,
    {
      schema: {
        description:
          "An account's investor statement for a month, a quarter or a range of days: opening and closing balance and equity, deposits, withdrawals, " +
          'closed P/L, swap, commissions, fees by kind, the high-water mark at the start and the end, time-weighted and money-weighted return, the closed trades. ' +
          '`format=pdf` (default) answers application/pdf, `csv` text/csv, `json` the schema below; the file is named in Content-Disposition. ' +
          `A range covers at most ${MAX_STATEMENT_DAYS.toLocaleString('en-US')} days and ${MAX_STATEMENT_DEALS.csv.toLocaleString('en-US')} deals ` +
          `(a PDF ${MAX_STATEMENT_DEALS.pdf.toLocaleString('en-US')}): past that, 400. Statements are made off the main thread, ` +
          `${STATEMENT_QUEUE.running} at once and ${STATEMENT_QUEUE.waiting} waiting, at most ${STATEMENT_QUEUE.perUser} of one user: past that, 429 with Retry-After (seconds).`,
        querystring: endpoints.statement.query,
        response: { 200: endpoints.statement.response, ...errors },
      },
    },
    async (request, reply) => {
      // The request went away (the connection closed before the answer): a statement still waiting is dropped.
      const gone = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableEnded) gone.abort();
      };
      reply.raw.once('close', onClose);
      try {
        const answer = await fees.statement(callerOf(request), request.query, gone.signal);
        reply.header('content-type', answer.contentType).header('cache-control', 'private, no-store');
        if (answer.fileName !== null) reply.header('content-disposition', `attachment; filename="${answer.fileName.replace(/[^\w.-]/g, '_')}"`);
        // A file, or JSON text already encoded through the response schema (statement-worker.ts): Fastify sends either as it is.
        return reply.send(answer.body as never);
      } catch (err) {
        if (err instanceof StatementsBusyError) {
          return reply.status(429).header('retry-after', String(err.retryAfterS)).send({ message: err.message });
        }
        // Nobody is there to read it; not a failure of the server.
        if (err instanceof StatementAbandonedError) return reply.status(408).send({ message: err.message });
        throw err;
      } finally {
        reply.raw.off('close', onClose);
      }
    },
  );
};
