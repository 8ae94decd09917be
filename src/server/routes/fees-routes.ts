import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '#shared/contract/endpoints.ts';
import { ErrorResponse } from '#shared/contract/common.ts';
import { callerOf, requirePermission } from '#server/auth/guard.ts';
import type { Idempotent } from '#server/http/idempotency.ts';
import type { FeesService } from '#server/services/fees-service.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 422: ErrorResponse, 429: ErrorResponse };

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
          'PDFs are drawn off the main thread, two at once and eight waiting: past that, 429 (try again in a moment).',
        querystring: endpoints.statement.query,
        response: { 200: endpoints.statement.response, ...errors },
      },
    },
    async (request, reply) => {
      const answer = await fees.statement(callerOf(request), request.query);
      if ('data' in answer) return answer;
      return reply
        .header('content-type', answer.contentType)
        .header('content-disposition', `attachment; filename="${answer.fileName.replace(/[^\w.-]/g, '_')}"`)
        .header('cache-control', 'private, no-store')
        // A file, not the JSON schema's object: Fastify sends a Buffer or a string as it is.
        .send(answer.body as never);
    },
  );
};
