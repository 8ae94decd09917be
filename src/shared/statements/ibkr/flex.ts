import { decodeText } from '../decode.ts';
import { NotAStatementError } from '../errors.ts';
import { readStatement, type FlexStatementRead } from './statement.ts';
import { NOT_FLEX, walkFlex } from './walk.ts';
import { Warnings, type FlexWarning } from './warnings.ts';

/**
 * Interactive Brokers' Flex Query statement (Activity, XML), read into the books' broker-neutral events
 * (src/shared/domain/broker-events.ts), one statement per account, with the figures IB states beside
 * them (cash per currency and in base, net asset value, open positions, conversion rates). Pure: the
 * caller hands it the file's bytes, in a worker or not.
 */

export const IBKR_FLEX_FORMAT = 'ibkr-flex' as const;

export type { BaseRule } from './rates.ts';
export type { CurrencyCash } from './cash.ts';
export type { FlexWarning } from './warnings.ts';
export type { FlexStatementRead, StatementPosition } from './statement.ts';

export interface FlexFile {
  statements: FlexStatementRead[];
  warnings: FlexWarning[];
}

const SNIFF_BYTES = 4096;
/** A Flex file's start: an optional XML declaration and comments, then its root element. */
const FLEX_START = /^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*<(?:FlexQueryResponse|FlexStatements)[\s>/]/;

/** Recognises a Flex XML statement from its first bytes (a <FlexQueryResponse or <FlexStatements root, after an optional BOM/XML declaration/whitespace). */
export function isFlexStatement(bytes: Uint8Array): boolean {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const head = new TextDecoder('utf-8').decode(bytes.subarray(bom ? 3 : 0, SNIFF_BYTES));
  return FLEX_START.test(head);
}

/** Reads the whole file. Throws NotAStatementError (with a clear message) or ReadBudgetError. */
export function parseFlex(bytes: Uint8Array, fileName?: string): FlexFile {
  const text = decodeText(bytes);
  if (text === null || !FLEX_START.test(text.replace(/^\uFEFF/, '').slice(0, SNIFF_BYTES))) {
    throw new NotAStatementError(NOT_FLEX, fileName);
  }
  const warnings = new Warnings();
  const raw = walkFlex(text, warnings, fileName);
  const statements = raw.statements.map((statement) => readStatement(statement, raw.slashOrder, warnings));
  return { statements, warnings: warnings.list() };
}
