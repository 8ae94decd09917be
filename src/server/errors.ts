/**
 * The core's own refusals, thrown by the domain (the books, the import, the ingest API's batches, the
 * copy relations and rules, fee terms, the caller's scope) and never knowing HTTP: one table in
 * src/server/http/errors.ts (httpAnswerOf) gives each its status, beside the broker errors'. Each
 * message is meant for the person who asked.
 */
export abstract class DomainError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** What was asked cannot be done as it is (a file that is no statement, a value out of range). */
export class InvalidRequest extends DomainError {}

/** What was named does not exist, or is not the caller's to see. */
export class NotFound extends DomainError {}

/** What was asked clashes with what is there already. */
export class Conflict extends DomainError {}

/** What was asked is outside the caller's rights (a permission, a portfolio, an account of another agent). */
export class Forbidden extends DomainError {}

/** Nobody is signed in (no session, or one that ended; no agent key, or a revoked one). */
export class Unauthenticated extends DomainError {
  constructor(message = 'Authentication required.') {
    super(message);
  }
}
