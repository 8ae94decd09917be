import {
  BrokerError,
  LeaderDatabaseUnavailable,
  LeaderFailed,
  MarketPaused,
  NoLeader,
  NoTerminal,
  NotLeading,
  OrderRefused,
  OutcomeUnknown,
  ShuttingDown,
} from '#server/broker/errors.ts';

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

/** The HTTP status of each broker error (src/server/broker/errors.ts): the one place they meet HTTP. */
const BROKER_STATUS: [abstract new (...args: never[]) => BrokerError, number][] = [
  [MarketPaused, 503],
  [NotLeading, 503],
  [NoLeader, 503],
  [ShuttingDown, 503],
  [LeaderDatabaseUnavailable, 503],
  [NoTerminal, 409],
  [OrderRefused, 422],
  [OutcomeUnknown, 504],
  [LeaderFailed, 500],
];

/**
 * A deliberate answer (status and message meant for the client): an HttpError as it is, a broker
 * error by its kind; undefined for anything else (a failure of the server).
 */
export function httpAnswerOf(err: unknown): HttpError | undefined {
  if (err instanceof HttpError) return err;
  if (err instanceof BrokerError) {
    const status = BROKER_STATUS.find(([kind]) => err instanceof kind)?.[1] ?? 500;
    return new HttpError(status, err.message);
  }
  return undefined;
}
