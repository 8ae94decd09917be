import type { ImportStatementResponse, StatementBooked } from '#shared/contract/import.ts';
import { money } from '#shared/statements/stated.ts';
import type { AccountStatement, StatementFile } from '#shared/statements/readers.ts';
import { accountBroker, findAccountRef, type AccountRef } from '#server/db/accounts-repo.ts';
import type { Database } from '#server/db/database.ts';
import type { ScopeFilter } from '#server/db/scope-filter.ts';
import { touchStatement } from '#server/db/statement-repo.ts';
import { queryableOf } from '#server/db/write-context.ts';
import { InvalidRequest } from '#server/errors.ts';
import type { Ledger } from '#server/ledger/ledger.ts';
import { bookAccountStatement, type StatementBookedSummary } from './statement-import.ts';

/**
 * Booking a statement file that was read (src/shared/statements/readers.ts), whoever brought it: an
 * upload (src/server/services/import-service.ts) or a broker's web service fetched on schedule (an
 * Interactive Brokers Flex query). One transaction for the whole file.
 */

/** How an account's source takes statements, from the broker registry's declarations. */
export interface SourceTerms {
  importsStatements: boolean;
  /** 'statement': its statements are its only feed (the last one booked is its last contact). */
  feed: string;
}

export interface ImportContext {
  db: Database;
  ledger: Ledger;
  /** What each source's adapter declares (src/server/broker/factory.ts). */
  sources: (source: string) => SourceTerms | undefined;
  /** Tells the adapters feeding these accounts that their books changed. */
  booksChanged: (accountIds: readonly number[]) => Promise<void>;
  now: () => number;
}

const FEEDS: Record<string, string> = {
  simulated: 'the simulated market',
  terminal: 'a terminal',
  statement: "its broker's statements",
};

/** One statement of the file, matched to the account it is booked into (or why it is not). */
type Match = { statement: AccountStatement; target: AccountRef } | { statement: AccountStatement; skipped: string };

/** Refuses an account whose adapter takes no statements, saying what feeds it. */
export async function requireImports(ctx: ImportContext, account: AccountRef): Promise<void> {
  const broker = await accountBroker(ctx.db, account.id);
  const terms = broker ? ctx.sources(broker.source) : undefined;
  if (terms?.importsStatements) return;
  const feed = terms ? (FEEDS[terms.feed] ?? terms.feed) : 'an adapter that takes no statements';
  throw new InvalidRequest(`The account ${account.account} is fed by ${feed}: statements import into real accounts only.`);
}

/**
 * Which account each statement of the file goes into: a file of one statement into `account`
 * (refused if it names another account or another currency); a file of several, each into the
 * account registered under its id (within `scope` where given), and `account` must be one of them.
 * One not registered is reported, never guessed.
 */
async function match(ctx: ImportContext, account: AccountRef, file: StatementFile, scope: ScopeFilter | undefined): Promise<Match[]> {
  const refuseCurrency = (s: AccountStatement, a: AccountRef) => `This report is in ${s.currency}, but the account ${a.account} is in ${a.currency}.`;
  if (file.statements.length === 1) {
    const statement = file.statements[0]!;
    if (statement.accountId !== null && statement.accountId !== account.account) {
      throw new InvalidRequest(`This report is for account ${statement.accountId}, not ${account.account}.`);
    }
    if (statement.currency !== null && statement.currency !== account.currency) throw new InvalidRequest(refuseCurrency(statement, account));
    return [{ statement, target: account }];
  }
  if (!file.statements.some((s) => s.accountId === account.account)) {
    const ids = file.statements.map((s) => s.accountId ?? '(no id)').join(', ');
    throw new InvalidRequest(`This ${file.formatName} holds the accounts ${ids}, not ${account.account}.`);
  }
  const matches: Match[] = [];
  for (const statement of file.statements) {
    if (statement.accountId === account.account) {
      if (statement.currency !== null && statement.currency !== account.currency) throw new InvalidRequest(refuseCurrency(statement, account));
      matches.push({ statement, target: account });
      continue;
    }
    const found = statement.accountId === null ? undefined : await findAccountRef(ctx.db, statement.accountId, scope);
    const target = found && 'found' in found ? found.found : undefined;
    if (!target) {
      const where = scope ? 'in your portfolios' : '';
      matches.push({ statement, skipped: `No account ${statement.accountId ?? '(no id)'} is registered${where ? ` ${where}` : ''}: its statement is not booked.` });
    } else if (statement.currency !== null && statement.currency !== target.currency) {
      matches.push({ statement, skipped: refuseCurrency(statement, target) });
    } else {
      try {
        await requireImports(ctx, target);
        matches.push({ statement, target });
      } catch (err) {
        matches.push({ statement, skipped: err instanceof Error ? err.message : String(err) });
      }
    }
  }
  return matches;
}

/** What an import did, with the accounts whose books it changed. */
export interface FileImported {
  answer: ImportStatementResponse;
  /** The accounts booked (account_id). */
  accounts: string[];
}

/**
 * Books a statement file into `account` and the file's other accounts (see match), one transaction;
 * refusals are InvalidRequest with the uploader's message. The adapters feeding the accounts are told.
 */
export async function importFile(
  ctx: ImportContext,
  account: AccountRef,
  file: StatementFile,
  utcOffsetMinutes: number,
  scope: ScopeFilter | undefined,
): Promise<FileImported> {
  const { ledger } = ctx;
  const matches = await match(ctx, account, file, scope);
  const now = ctx.now();
  const booked = await ledger.write(async (wctx) => {
    const tx = queryableOf(wctx);
    const out: { match: Match; summary: StatementBookedSummary | null }[] = [];
    for (const m of matches) {
      if ('skipped' in m) {
        out.push({ match: m, summary: null });
        continue;
      }
      const broker = await accountBroker(tx, m.target.id);
      if (!broker) throw new InvalidRequest(`No account ${m.target.account}.`);
      const summary = await bookAccountStatement(tx, ledger, { ...m.target, broker_id: broker.broker_id }, m.statement, utcOffsetMinutes, now);
      if (ctx.sources(broker.source)?.feed === 'statement') await touchStatement(tx, m.target.id, new Date(now));
      out.push({ match: m, summary });
    }
    return out;
  });

  const mine = booked.find((b) => 'target' in b.match && b.match.target.id === account.id);
  const total = { added: 0, updated: 0, skipped: 0 };
  for (const b of booked) {
    if (!b.summary) continue;
    total.added += b.summary.added;
    total.updated += b.summary.updated;
    total.skipped += b.summary.unchanged;
  }
  const targets = booked.flatMap((b) => (b.summary && 'target' in b.match ? [b.match.target] : []));
  await ctx.booksChanged(targets.map((t) => t.id));
  const opening = mine?.summary?.opening;
  const others = booked.length > 1 ? ` ${targets.length} of the file's ${booked.length} statements booked.` : '';
  return {
    accounts: targets.map((t) => t.account_id),
    answer: {
      message:
        `Imported: ${total.added} added, ${total.updated} updated, ${total.skipped} skipped.` +
        (opening ? ` Opening balance ${money(opening, account.currency)} ${account.currency}: the balance before the report's first deal.` : '') +
        others,
      format: file.format,
      added: total.added,
      updated: total.updated,
      skipped: total.skipped,
      statements: booked.map(({ match: m, summary }) => statementAnswer(m, summary)),
      warnings: [
        ...file.warnings,
        ...booked.flatMap(({ match: m }) => m.statement.missingRates.map((c) => `No rate to ${m.statement.currency ?? 'the base currency'} for ${c}: its money is left out.`)),
      ],
    },
  };
}

function statementAnswer(m: Match, summary: StatementBookedSummary | null): StatementBooked {
  const s = m.statement;
  return {
    account: 'target' in m ? m.target.account_id : (s.accountId ?? ''),
    booked: summary !== null,
    reason: 'skipped' in m ? m.skipped : null,
    base_currency: s.currency,
    base_rule: s.currencyRule,
    trades: summary?.trades ?? 0,
    cash: (summary?.cash ?? []).map((c) => ({ ...c })),
  };
}
