/**
 * Why a broker write did not happen, in the broker's words: adapters, the copy engine and the
 * instances' order relay (src/server/scale/) throw these; the HTTP layer alone turns them into a
 * status and an answer (src/server/http/errors.ts). Each has a default message; the message is
 * what the user reads.
 */
export abstract class BrokerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** This process lost the right to run the broker connection for a moment: writes wait for it. */
export class MarketPaused extends BrokerError {
  constructor(message = 'The market is paused while its database connection is restored. Please try again in a few seconds.') {
    super(message);
  }
}

/** Another instance runs the market: this one takes no orders itself. */
export class NotLeading extends BrokerError {
  constructor(message = 'This server does not run the market at the moment: another instance takes it over. Try again in a few seconds.') {
    super(message);
  }
}

/** No instance runs the market (the leader went silent; another one is taking over). */
export class NoLeader extends BrokerError {
  constructor(message = 'No instance runs the market at the moment (another one is taking it over). Try again in a few seconds.') {
    super(message);
  }
}

/** No terminal reports the account, or none may trade it: the order cannot be sent. */
export class NoTerminal extends BrokerError {
  constructor(message = 'No terminal reports the account.') {
    super(message);
  }
}

/**
 * The account's broker connection takes no orders: it is read from the broker's statements (an
 * Interactive Brokers Flex account), so a copy, a close or a TP/SL edit is placed at the broker itself.
 */
export class NotTradable extends BrokerError {
  constructor(message = "This account is read from its broker's statements: orders for it are placed at the broker, not here.") {
    super(message);
  }
}

/** The terminal refused the order, in its own words. */
export class OrderRefused extends BrokerError {
  constructor(readonly terminalWords = 'Update failed.') {
    super(`The terminal refused: ${terminalWords}`);
  }
}

/** The order was sent and not confirmed in time: it may or may not have happened, and is not sent again. */
export class OutcomeUnknown extends BrokerError {
  constructor(message = 'The terminal has not confirmed yet: the outcome is unknown. The order will not be sent again.') {
    super(message);
  }
}

/** The server closed while the order waited for its answer. */
export class ShuttingDown extends BrokerError {
  constructor(message = 'The server is shutting down: the outcome is unknown. Please check before sending the order again.') {
    super(message);
  }
}

/** The instance that runs the market could not reach its database. */
export class LeaderDatabaseUnavailable extends BrokerError {
  constructor(message = 'The database is unavailable at the moment. Please try again in a few seconds.') {
    super(message);
  }
}

/** The order failed on the instance that runs the market for a reason it does not tell. */
export class LeaderFailed extends BrokerError {
  constructor(message = 'The order failed on the instance that runs the market.') {
    super(message);
  }
}

/**
 * A change was saved, but the instance that copies did not confirm that it applied it (out of reach,
 * silent, or failing): it reads the saved state from the database within a few seconds, and the
 * caller may send the same request again to have it confirmed.
 */
export class LeaderUnconfirmed extends BrokerError {
  constructor(message = 'Saved, but the instance that copies has not confirmed it yet: it applies the saved state within 5 seconds of reaching the database. Send the request again to confirm.') {
    super(message);
  }
}

const KINDS: Record<string, new () => BrokerError> = {
  MarketPaused,
  NotLeading,
  NoLeader,
  NoTerminal,
  NotTradable,
  OrderRefused,
  OutcomeUnknown,
  ShuttingDown,
  LeaderDatabaseUnavailable,
  LeaderFailed,
};

/** A broker error as it crosses to another instance: its kind and message. */
export interface BrokerErrorWire {
  kind: string;
  message: string;
}

export function brokerErrorToWire(err: BrokerError): BrokerErrorWire {
  return { kind: err.name, message: err.message };
}

/** The error another instance reported, as the same kind with the same message (unknown kinds: LeaderFailed). */
export function brokerErrorFromWire(wire: Partial<BrokerErrorWire>): BrokerError {
  const Kind = (wire.kind !== undefined && Object.hasOwn(KINDS, wire.kind) ? KINDS[wire.kind] : undefined) ?? LeaderFailed;
  const err = new Kind();
  if (wire.message !== undefined) err.message = wire.message;
  return err;
}
