import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditQuery, AuditResponse } from '#shared/contract/audit.ts';
import { ErrorResponse } from '#shared/contract/common.ts';
import { callerOf, requirePermission } from '#server/auth/guard.ts';
import type { OpsService } from '#server/services/ops-service.ts';

/** GET /api/audit: who changed what, newest first, for users with the write permission: the rows about their portfolios (docs/security.md). */
export const auditRoutes: FastifyPluginAsyncZod<{ ops: OpsService }> = async (app, { ops }) => {
  app.get(
    '/api/audit',
    {
      preValidation: requirePermission('write'),
      schema: {
        description:
          'The audit log, newest first: the rows about accounts and portfolios of the caller’s (every account and portfolio a row names), and the caller’s own rows about none; every row for a user authorised for every portfolio. Needs the write permission.',
        querystring: AuditQuery,
        response: { 200: AuditResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse },
      },
    },
    async (request) => ops.auditLog(callerOf(request), request.query.page, request.query.page_size),
  );
};
