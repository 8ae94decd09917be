import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditQuery, AuditResponse } from '#shared/contract/audit.ts';
import { ErrorResponse } from '#shared/contract/common.ts';
import { requirePermission } from '#server/auth/guard.ts';
import type { OpsService } from '#server/services/ops-service.ts';

/** GET /api/audit: who changed what, newest first, for users with the write permission. */
export const auditRoutes: FastifyPluginAsyncZod<{ ops: OpsService }> = async (app, { ops }) => {
  app.get(
    '/api/audit',
    {
      preValidation: requirePermission('write'),
      schema: {
        description: 'The audit log of every user (not only the caller’s), newest first. Needs the write permission.',
        querystring: AuditQuery,
        response: { 200: AuditResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse },
      },
    },
    async (request) => ops.auditLog(request.query.page, request.query.page_size),
  );
};
