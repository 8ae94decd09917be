import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditQuery, AuditResponse } from '#shared/contract/audit.ts';
import { ErrorResponse } from '#shared/contract/common.ts';
import { requirePermission } from '#server/auth/guard.ts';
import type { Database } from '#server/db/database.ts';

interface AuditRow {
  id: number;
  at: Date;
  username: string | null;
  action: string;
  detail: unknown;
  total: number;
}

/** GET /api/audit: who changed what, newest first, for users with the write permission. */
export const auditRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/audit',
    {
      preHandler: requirePermission('write'),
      schema: {
        description: 'The audit log of every user (not only the caller’s), newest first. Needs the write permission.',
        querystring: AuditQuery,
        response: { 200: AuditResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse },
      },
    },
    async (request) => {
      const { page, page_size } = request.query;
      // The total rides on every row (a window count); a page past the end asks for it alone.
      const rows = await db.query<AuditRow>(
        `SELECT a.id, a.at, u.username, a.action, a.detail, count(*) OVER ()::int AS total
           FROM audit_log a LEFT JOIN users u ON u.id = a.user_id
          ORDER BY a.at DESC, a.id DESC
          LIMIT $1 OFFSET $2`,
        [page_size, (page - 1) * page_size],
      );
      const total =
        rows[0]?.total ?? (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log'))[0]?.n ?? 0;
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
