import type { BrokerEvent } from '#shared/domain/broker-events.ts';
import type { SlashOrder } from './dates.ts';
import type { RateBook } from './rates.ts';
import { RowRefs } from './refs.ts';
import type { FlexRow } from './walk.ts';
import { counted, type Warnings } from './warnings.ts';

/*
 * What the row mappers (trades.ts, cash-transactions.ts, corporate-actions.ts) write one statement's rows
 * into: its events, the money each row moves per currency as IB books it, the commissions per their own
 * currency, and the currencies that had no rate into base.
 */

/** A fill whose openCloseIndicator is missing: its effect is told from the running position (effects.ts). */
export interface PendingEffect {
  /** IB's fifoPnlRealized, booked if the fill turns out to close (null for futures, whose realized IB leaves at 0). */
  realized: number | null;
}

export class StatementBook {
  readonly events: BrokerEvent[] = [];
  /** Money moved per currency by the booked rows (cash.ts adds it to the starting cash). */
  readonly moved = new Map<string, number>();
  readonly commissions = new Map<string, number>();
  /** Currencies without any rate into base, with how many events each left out. */
  readonly missing = new Map<string, number>();
  readonly pending = new Map<BrokerEvent, PendingEffect>();
  readonly refs = new RowRefs();
  private readonly used = new Set<number>();

  constructor(
    readonly accountId: string,
    readonly order: SlashOrder | null,
    readonly rates: RateBook,
    readonly warnings: Warnings,
  ) {}

  /** Money a row moves in `currency` (signed, into the account positive). */
  move(currency: string, amount: number): void {
    if (currency === '' || !Number.isFinite(amount) || amount === 0) return;
    this.moved.set(currency, (this.moved.get(currency) ?? 0) + amount);
  }

  /** A trade's commission, in the currency IB charged it in. */
  commission(currency: string, amount: number): void {
    if (currency === '' || !Number.isFinite(amount) || amount === 0) return;
    this.commissions.set(currency, (this.commissions.get(currency) ?? 0) + amount);
    this.move(currency, amount);
  }

  /**
   * One unit of `currency` in base on `day`: the row's own fxRateToBase where it states one (for the row's
   * currency), else the statement's rate of the day (rates.ts). Null when there is none.
   */
  rate(currency: string, day: string, stated?: string): number | null {
    const own = stated === undefined || stated.trim() === '' ? NaN : Number(stated);
    if (own > 0 && Number.isFinite(own)) return own;
    return this.rates.on(currency, day);
  }

  /** An event left out for want of a rate of `currency` (its money still counts in the currency's cash). */
  leftOut(currency: string): void {
    this.missing.set(currency, (this.missing.get(currency) ?? 0) + 1);
    this.warnings.add(
      `no-rate:${this.accountId}:${currency}`,
      (n) =>
        `Account ${this.accountId}: ${counted(n, 'event')} in ${currency} left out of the events: the statement has no rate of ` +
        `${currency} into the base currency (add ConversionRates to the Flex Query)`,
    );
  }

  /** Adds an event; a ref already taken in the statement (two rows sharing an id) gets the row's hash instead. */
  add(event: BrokerEvent, row: FlexRow): void {
    if (this.used.has(event.ref)) {
      event.ref = this.refs.hashed(row.tag, row.attrs);
      this.warnings.add('ref-shared', (n) => `${counted(n, 'row')} sharing an id with another row of the statement given a ref of its own`);
    }
    this.used.add(event.ref);
    this.events.push(event);
  }
}
