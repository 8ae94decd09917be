import type { AuditResponse } from '#shared/contract/audit.ts';
import type { ReadyResponse } from '#shared/contract/ops.ts';
import { PORTFOLIOS } from '#shared/domain/portfolios.ts';
import type { SessionUser } from '#server/auth/auth-store.ts';
import { callerScope } from '#server/auth/scope.ts';
import { listAudit, type AuditReader } from '#server/db/audit-repo.ts';
import type { Database } from '#server/db/database.ts';
import { checkDatabase } from '#server/db/health-repo.ts';
import type { RedisHealth } from '#server/scale/bus.ts';

export type PoolStats = { total: number; idle: number; waiting: number };

export interface OpsDeps {
  db: Database;
  /** Whether this process runs the market (it holds the leader's lock). */
  market: { readonly isLeader: boolean };
  /** With REDIS_URL: whether this instance reaches Redis. */
  redisState: () => Promise<RedisHealth> | undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What the operators' routes read (docs/operations.md): readiness, the audit log, the database pool. */
export class OpsService {
  constructor(private readonly deps: OpsDeps) {}

  /**
   * Readiness: the database answers SELECT 1 within 2 s and, with several instances, Redis answers
   * PING within 1 s on both of this instance's connections (without Redis an instance cannot count
   * sign-ins, hear the live feed or reach the instance that copies: the balancer should send users
   * elsewhere). The market is reported, not required: without it the server still serves the stored
   * data (accounts, history, NAV), and a market run by another process is not this one's to wait for.
   */
  async readiness(): Promise<ReadyResponse> {
    const { db, market } = this.deps;
    const [database, redis] = await Promise.all([checkDatabase(db), this.deps.redisState()]);
    return {
      ready: database.ok && (redis?.ok ?? true),
      database: { ...database, kind: db.kind },
      market: market.isLeader
        ? { running: true }
        : { running: false, reason: 'another instance runs the market (this one serves what it publishes and stands by)' },
      ...(redis ? { redis } : {}),
    };
  }

  /**
   * One page of the audit log the caller may read, newest first (docs/security.md, 'Audit log'): an
   * administrator (a user authorised for every portfolio) reads every row; anyone else the rows about
   * accounts and portfolios of theirs only, and their own rows about none.
   */
  async auditLog(user: SessionUser, page: number, pageSize: number): Promise<AuditResponse> {
    const scope = callerScope(user);
    const reader: AuditReader = PORTFOLIOS.every((p) => scope.portfolios.includes(p))
      ? { admin: true }
      : { admin: false, userId: user.id, categories: scope.categories, portfolios: scope.portfolios };
    const { rows, total } = await listAudit(this.deps.db, reader, pageSize, (page - 1) * pageSize);
    return {
      data: rows.map((r) => ({
        id: Number(r.id),
        datetime: Math.floor(new Date(r.at).getTime() / 1000),
        username: r.username,
        action: r.action,
        details: isObject(r.detail) ? r.detail : {},
      })),
      page,
      page_size: pageSize,
      total,
    };
  }

  /** The PostgreSQL pool's connections (absent on PGlite). Read defensively: only a PostgreSQL database has a pool. */
  poolStats(): PoolStats | undefined {
    return (this.deps.db as { poolStats?: () => PoolStats | undefined }).poolStats?.();
  }
}
