const NOT_A_STATEMENT = 'This file is not a MetaTrader 4 or 5 trade history report.';

/**
 * The file is refused: not a statement this importer reads, or one it cannot import as it is (cut short,
 * contradicting itself). `message` is fit to show the person who uploaded it.
 */
export class NotAStatementError extends Error {
  override readonly name = 'NotAStatementError';
  constructor(
    message: string = NOT_A_STATEMENT,
    readonly fileName?: string,
  ) {
    super(message);
  }
}
