import type { ImportStatementResponse } from '#shared/contract/import.ts';
import { StatementBookedSummary } from './statement-booked.tsx';
import './import-summary.css';

/** More warnings than this are folded away under their count. */
const OPEN_WARNINGS = 3;

/** The readers' formats (ImportStatementResponse.format) in words; another is shown as it is. */
const FORMAT_NAMES: Record<string, string> = {
  'mt5-html': 'MetaTrader 5 trade history report (HTML)',
  'mt5-xlsx': 'MetaTrader 5 trade history report (Excel)',
  'mt4-html': 'MetaTrader 4 statement',
  'ibkr-flex': 'Interactive Brokers Flex statement (XML)',
};

export const formatName = (format: string): string => FORMAT_NAMES[format] ?? format;

/** The account the import was asked for: its statement reads by name rather than by account_id. */
export interface ImportedInto {
  account_id: string;
  /** The login, as the file names it. */
  account: string;
  account_name: string;
}

/**
 * What a statement import did (an upload, or an Interactive Brokers Flex fetch): the deals added,
 * updated and skipped, each statement of the file (booked or why not, with its cash per currency),
 * and the readers' warnings, folded when there are many.
 */
export function ImportSummary({ result, account }: { result: ImportStatementResponse; account?: ImportedInto }) {
  const { added, updated, skipped, statements, warnings } = result;
  return (
    <div className="import-summary">
      <p className="import-summary-counts">{`Imported: ${added} added, ${updated} updated, ${skipped} skipped.`}</p>
      {result.format ? <p className="import-summary-format">Read as {formatName(result.format)}</p> : null}
      {statements.length === 0 ? null : (
        <ul className="import-statements" aria-label="Statements in the file">
          {statements.map((s, i) => (
            <StatementBookedSummary
              key={`${s.account}-${i}`}
              statement={s}
              name={account?.account_id === s.account ? `${account.account_name} · ${account.account}` : undefined}
            />
          ))}
        </ul>
      )}
      <ImportWarnings warnings={warnings} />
    </div>
  );
}

function ImportWarnings({ warnings }: { warnings: readonly string[] }) {
  if (warnings.length === 0) return null;
  const label = `${warnings.length} ${warnings.length === 1 ? 'warning' : 'warnings'}`;
  const list = (
    <ul className="import-warnings" aria-label="Warnings">
      {warnings.map((w, i) => (
        <li key={i}>{w}</li>
      ))}
    </ul>
  );
  return warnings.length <= OPEN_WARNINGS ? (
    <>
      <p className="import-warnings-title">{label}:</p>
      {list}
    </>
  ) : (
    <details className="import-details">
      <summary>{label}</summary>
      {list}
    </details>
  );
}
