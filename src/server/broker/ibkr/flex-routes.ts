import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse } from '#shared/contract/common.ts';
import { endpoints } from '#shared/contract/endpoints.ts';
import { callerOf, requirePermission } from '#server/auth/guard.ts';
import { audit } from '#server/db/audit-repo.ts';
import type { Database } from '#server/db/database.ts';
import { findAccount } from '#server/services/account-lookup.ts';
import { NotFound } from '#server/errors.ts';
import type { SessionUser } from '#server/auth/auth-store.ts';
import type { FlexActor, FlexFetcher } from './flex-fetch.ts';
import { IBKR_SOURCE } from './ibkr-broker.ts';
import { accountBroker } from '#server/db/accounts-repo.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse };

const actorOf = (user: SessionUser): FlexActor => ({ audit: (q, action, detail) => audit(q, user.id, action, detail) });

/**
 * An Interactive Brokers account's Flex Web Service settings (docs/ibkr.md): write users set, read,
 * remove and run the daily fetch of an account of their portfolios. The token goes in and never out.
 */
export const flexRoutes: FastifyPluginAsyncZod<{ db: Database; flex: FlexFetcher }> = async (app, { db, flex }) => {
  /** The account the path names among the caller's portfolios, fed by IB's statements (else 404, as any account they may not see). */
  const ibkrAccount = async (user: SessionUser, ref: string) => {
    const account = await findAccount(db, user, ref);
    if ((await accountBroker(db, account.id))?.source !== IBKR_SOURCE) {
      throw new NotFound(`The account ${account.account} is not an Interactive Brokers account fed by Flex statements.`);
    }
    return account;
  };

  app.get(
    endpoints.flexStatus.path,
    {
      preValidation: requirePermission('write'),
      schema: {
        description: "Whether an Interactive Brokers account has a Flex token set (never the token), its query id and chosen expiry, and how its last fetch went. Write users only.",
        params: endpoints.flexStatus.params,
        querystring: endpoints.flexStatus.query,
        response: { 200: endpoints.flexStatus.response, ...errors },
      },
    },
    async (request) => ({ data: await flex.status(await ibkrAccount(callerOf(request), request.params.account)) }),
  );

  app.put(
    endpoints.setFlex.path,
    {
      preValidation: requirePermission('write'),
      schema: {
        description:
          "Gives an Interactive Brokers account its Flex Web Service token and Activity Flex Query id (Client Portal → Settings → Reporting → Flex Queries). " +
          'The token is stored sealed and never answered or logged; `token_expires` (the expiry chosen when it was made) is alerted on three days before. ' +
          'The first fetch runs at once on the leading instance, then once a day. Audited (without the token). Write users only.',
        params: endpoints.setFlex.params,
        body: endpoints.setFlex.body,
        response: { 200: endpoints.setFlex.response, ...errors },
      },
    },
    async (request) => {
      const user = callerOf(request);
      return { data: await flex.set(await ibkrAccount(user, request.params.account), request.body, actorOf(user)) };
    },
  );

  app.delete(
    endpoints.deleteFlex.path,
    {
      preValidation: requirePermission('write'),
      schema: {
        description: "Removes an Interactive Brokers account's Flex token: no more daily fetches. Audited. Write users only.",
        params: endpoints.deleteFlex.params,
        response: { 200: endpoints.deleteFlex.response, ...errors },
      },
    },
    async (request) => {
      const user = callerOf(request);
      const account = await ibkrAccount(user, request.params.account);
      const removed = await flex.remove(account, actorOf(user));
      return { message: removed ? `The Flex token of ${account.account} is removed: no more daily fetches.` : `The account ${account.account} had no Flex token.` };
    },
  );

  app.post(
    endpoints.fetchFlex.path,
    {
      preValidation: requirePermission('write'),
      schema: {
        description:
          "Fetches an Interactive Brokers account's Activity statement now through the Flex Web Service and books it: the answer is the statement import's. " +
          "409 with IB's words when IB refuses (token expired or invalid, IP restriction, query invalid) or is still busy after its retries. Audited. Write users only.",
        params: endpoints.fetchFlex.params,
        response: { 200: endpoints.fetchFlex.response, ...errors },
      },
    },
    async (request) => {
      const user = callerOf(request);
      return flex.fetchNow(await ibkrAccount(user, request.params.account), actorOf(user));
    },
  );
};
