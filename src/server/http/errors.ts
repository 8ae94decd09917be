import {
  BrokerError,
  LeaderDatabaseUnavailable,
  LeaderUnconfirmed,
  LeaderFailed,
  MarketPaused,
  NoLeader,
  NoTerminal,
  NotTradable,
  NotLeading,
  OrderRefused,
  OutcomeUnknown,
  ShuttingDown,
} from '#server/broker/errors.ts';
import { Conflict, DomainError, Forbidden, InvalidRequest, NotFound, Unauthenticated } from '#server/errors.ts';

/** An error whose status and message are meant for the client. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const unauthorized = (message = 'Authentication required.') => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

/**
 * The HTTP status of every error the core throws (the domain's, src/server/errors.ts, and the
 * broker's, src/server/broker/errors.ts): the one place they meet HTTP. The first kind that matches wins.
 */
const STATUS: [abstract new (...args: never[]) => DomainError | BrokerError, number][] = [
  [InvalidRequest, 400],
  [Unauthenticated, 401],
  [Forbidden, 403],
  [NotFound, 404],
  [Conflict, 409],
  [MarketPaused, 503],
  [NotLeading, 503],
  [NoLeader, 503],
  [ShuttingDown, 503],
  [LeaderDatabaseUnavailable, 503],
  [LeaderUnconfirmed, 503],
  [NoTerminal, 409],
  [NotTradable, 409],
  [OrderRefused, 422],
  [OutcomeUnknown, 504],
  [LeaderFailed, 500],
];

/**
 * A deliberate answer (status and message meant for the client): an HttpError as it is, a broker or
 * domain error by its kind; undefined for anything else (a failure of the server).
 */
export function httpAnswerOf(err: unknown): HttpError | undefined {
  if (err instanceof HttpError) return err;
  if (err instanceof DomainError || err instanceof BrokerError) {
    const status = STATUS.find(([kind]) => err instanceof kind)?.[1] ?? (err instanceof DomainError ? 400 : 500);
    return new HttpError(status, err.message);
  }
  return undefined;
}
