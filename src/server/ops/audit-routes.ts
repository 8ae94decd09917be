import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditQuery, AuditResponse } from '#shared/contract/audit.ts';
import { ErrorResponse } from '#shared/contract/common.ts';
import { requirePermission } from '#server/auth/guard.ts';
import { listAudit } from '#server/db/audit-repo.ts';
import type { Database } from '#server/db/database.ts';

/** GET /api/audit: who changed what, newest first, for users with the write permission. */
export const auditRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
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
    async (request) => {
      const { page, page_size } = request.query;
      const { rows, total } = await listAudit(db, page_size, (page - 1) * page_size);
      return {
        data: rows.map((r) => ({
          id: Number(r.id),
          datetime: Math.floor(new Date(r.at).getTime() / 1000),
          username: r.username,
          action: r.action,
          details: isObject(r.detail) ? r.detail : {},
        })),
        page,
        page_size,
        total,
      };
    },
  );
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
