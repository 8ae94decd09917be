import type { BrokerEvent } from '#shared/domain/broker-events.ts';
import { mt5Event } from '#shared/domain/mt5-events.ts';
import { NotAStatementError } from './errors.ts';
import { IBKR_FLEX_FORMAT, isFlexStatement, parseFlex, type CurrencyCash, type StatementPosition } from './ibkr/flex.ts';
import { isMetaTraderReport, NOT_A_METATRADER_REPORT, parseStatement } from './report.ts';

/**
 * The statement readers: each knows one broker's file format, how to recognise it from its bytes,
 * and how to read it into the neutral shape below (the broker-neutral events of
 * src/shared/domain/broker-events.ts and the figures the file states), so that the import books every
 * format the same way. A new format is a reader and a line in READERS.
 */

/** One account's part of a statement file. */
export interface AccountStatement {
  /** The account as the file names it (a MetaTrader login, an Interactive Brokers account id); null where it does not. */
  accountId: string | null;
  /** The account's currency as the file tells it (its base currency), and how it was told; null where it does not. */
  currency: string | null;
  currencyRule: string | null;
  /** The period the file covers (ISO days), where it says. */
  from: string | null;
  to: string | null;
  /**
   * Every row the file books, as neutral events, their times as the file prints them (the broker's
   * clock; the import applies its UTC offset); money in each event's currency ('' where the file does
   * not name it: the account's).
   */
  events: BrokerEvent[];
  /** The balance just before the event `beforeRef`, the file's first, where the file states it: what the account held before its period. */
  opening: { beforeRef: number; balance: number } | null;
  /** The open positions' floating result, where the file lists them (0 without any). */
  floating: number;
  /** What the file states of the account at its end, in the account's currency: its cash balance and its equity (net asset value). */
  stated: { balance: number | null; equity: number | null; asOf: string | null };
  /** Open positions at the end of the period with their prices (as of their report date); null where the file does not list positions. */
  positions: StatementPosition[] | null;
  /** The broker's net asset value by day, where the file states it. */
  nav: { day: string; total: number }[];
  /** Cash per currency, where the file keeps several. */
  cash: CurrencyCash[];
  /** Currencies the file has money in but no rate for (never counted as 0). */
  missingRates: string[];
}

/** What a statement file holds: one statement per account, and what the reader left out or read with a guess. */
export interface StatementFile {
  /** The format read (its reader's id and the file's own kind): 'mt5-html', 'mt5-xlsx', 'mt4-html', 'ibkr-flex'. */
  format: string;
  /** The format in words, for messages ('MetaTrader 5 trade history report'). */
  formatName: string;
  statements: AccountStatement[];
  warnings: string[];
}

export interface StatementReader {
  /** The reader's id. */
  id: string;
  /** What it reads, in words ('an Interactive Brokers Flex statement (XML)'): the refusal of an unknown file lists them. */
  reads: string;
  /** Whether these bytes are its format (their first bytes are enough). */
  recognises(bytes: Uint8Array): boolean;
  /** Reads the whole file; throws NotAStatementError or ReadBudgetError. */
  read(bytes: Uint8Array, fileName?: string): Promise<StatementFile>;
}

/** A file no reader takes. */
export const NOT_A_STATEMENT_FILE =
  'This file is not a statement this app reads: a MetaTrader 5 trade history report (HTML or Excel), a MetaTrader 4 ' +
  'statement, or an Interactive Brokers Flex statement (Activity Flex Query, XML).';
const UNKNOWN = NOT_A_STATEMENT_FILE;

const FORMAT_NAMES: Record<string, string> = {
  'mt5-html': 'MetaTrader 5 trade history report',
  'mt5-xlsx': 'MetaTrader 5 trade history report (Excel)',
  'mt4-html': 'MetaTrader 4 statement',
};

/** MetaTrader 5's Trade History Report (HTML or .xlsx) and MetaTrader 4's statements (src/shared/statements/report.ts). */
export const metaTraderReader: StatementReader = {
  id: 'metatrader',
  reads: 'a MetaTrader 5 trade history report (HTML or Excel) or a MetaTrader 4 statement',
  recognises: isMetaTraderReport,
  async read(bytes, fileName) {
    const parsed = await parseStatement(bytes, fileName).catch((err: unknown) => {
      // An HTML file that is no report: told with every format the import reads, not MetaTrader's alone.
      if (err instanceof NotAStatementError && err.message === NOT_A_METATRADER_REPORT) throw new NotAStatementError(UNKNOWN, fileName);
      throw err;
    });
    const currency = parsed.account.currency;
    return {
      format: parsed.format,
      formatName: FORMAT_NAMES[parsed.format] ?? parsed.format,
      warnings: parsed.warnings,
      statements: [
        {
          accountId: parsed.account.login,
          currency,
          currencyRule: currency === null ? null : 'the report header',
          from: null,
          to: null,
          events: parsed.deals.map((d) => mt5Event(d, currency ?? '')),
          opening: parsed.opening && { beforeRef: parsed.opening.ticket, balance: parsed.opening.balance },
          floating: parsed.floating,
          stated: { balance: null, equity: null, asOf: null },
          positions: null,
          nav: [],
          cash: [],
          missingRates: [],
        },
      ],
    };
  },
};

/** Interactive Brokers' Flex Query statements (Activity, XML): src/shared/statements/ibkr/. */
export const ibkrFlexReader: StatementReader = {
  id: IBKR_FLEX_FORMAT,
  reads: 'an Interactive Brokers Flex statement (Activity Flex Query, XML)',
  recognises: isFlexStatement,
  read(bytes, fileName) {
    const file = parseFlex(bytes, fileName);
    return Promise.resolve({
      format: IBKR_FLEX_FORMAT,
      formatName: 'Interactive Brokers Flex statement',
      warnings: file.warnings.map((w) => (w.count > 1 ? `${w.message} (${w.count} times)` : w.message)),
      statements: file.statements.map((s) => ({
        accountId: s.accountId,
        currency: s.base?.currency ?? null,
        currencyRule: s.base?.rule ?? null,
        from: s.from,
        to: s.to,
        events: s.events,
        opening: null,
        floating: 0,
        stated: {
          balance: s.balance?.amount ?? null,
          equity: s.nav.at(-1)?.total ?? null,
          asOf: s.positions.at(-1)?.reportDate ?? s.nav.at(-1)?.day ?? s.to,
        },
        positions: s.positionsListed ? s.positions : null,
        nav: s.nav,
        cash: s.cash,
        missingRates: s.missingRates,
      })),
    });
  },
};

/** The readers, in the order they are asked: the first that recognises a file reads it. */
export const READERS: readonly StatementReader[] = [ibkrFlexReader, metaTraderReader];

/** Reads a statement file of any known format. */
export async function readStatementFile(bytes: Uint8Array, fileName?: string): Promise<StatementFile> {
  const reader = READERS.find((r) => r.recognises(bytes));
  if (!reader) throw new NotAStatementError(UNKNOWN, fileName);
  return reader.read(bytes, fileName);
}
