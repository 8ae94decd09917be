import type { FastifyBaseLogger } from 'fastify';
import type { ImportStatementResponse } from '#shared/contract/import.ts';
import { NotAStatementError, ReadBudgetError } from '#shared/statements/report.ts';
import type { StatementFile } from '#shared/statements/readers.ts';
import type { SessionUser } from '#server/auth/auth-store.ts';
import { callerScope } from '#server/auth/scope.ts';
import { audit } from '#server/db/audit-repo.ts';
import { badRequest, HttpError } from '#server/http/errors.ts';
import { importFile, requireImports, type ImportContext } from '#server/import/import-file.ts';
import { ReaderBusyError, readStatement } from '#server/import/read-in-worker.ts';
import { findAccount } from './account-lookup.ts';

const EMPTY = 'The file is empty. Choose a statement file: a MetaTrader report or an Interactive Brokers Flex statement.';
const UNREADABLE = 'This file could not be read as a statement.';

/**
 * Statement import (docs/statements.md): a statement file of any format the readers know
 * (src/shared/statements/readers.ts), uploaded by a write user into an account of their portfolios
 * whose adapter takes statements, and the file's other accounts there (src/server/import/import-file.ts).
 * Events are stored by ref, as a terminal's are, so importing an overlapping file again changes nothing.
 */
export class ImportService {
  constructor(private readonly ctx: ImportContext) {}

  async importStatement(
    user: SessionUser,
    query: { account: string; utc_offset_minutes: number },
    bytes: unknown,
    log: FastifyBaseLogger,
  ): Promise<ImportStatementResponse> {
    const account = await findAccount(this.ctx.db, user, query.account);
    await requireImports(this.ctx, account);
    if (!(bytes instanceof Uint8Array) || bytes.length === 0) throw badRequest(EMPTY);
    const file = await readFile(bytes, (err) => log.warn({ err }, 'statement import: the reader failed'));
    const { answer, accounts } = await importFile(this.ctx, account, file, query.utc_offset_minutes, callerScope(user));
    await audit(this.ctx.db, user.id, 'accounts.import-statement', {
      account: account.account_id,
      format: file.format,
      ...(file.statements.length > 1 ? { accounts } : {}),
      added: answer.added,
      updated: answer.updated,
      skipped: answer.skipped,
    });
    return answer;
  }
}

/**
 * The file in these bytes, read in a worker under the reading budget (src/shared/statements/budget.ts);
 * any file the readers cannot take is the uploader's 400, never a 500, and never a stalled server.
 */
export async function readFile(bytes: Uint8Array, onUnexpected: (err: unknown) => void): Promise<StatementFile> {
  try {
    return await readStatement(bytes);
  } catch (err) {
    if (err instanceof NotAStatementError || err instanceof ReadBudgetError) throw badRequest(err.message);
    if (err instanceof ReaderBusyError) throw new HttpError(429, err.message);
    onUnexpected(err);
    throw badRequest(UNREADABLE);
  }
}
