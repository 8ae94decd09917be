import { ReadBudgetError } from '../budget.ts';
import { NotAStatementError } from '../errors.ts';
import { readMarkup } from '../markup.ts';
import { SlashEvidence, type SlashOrder } from './dates.ts';
import { IGNORED_SECTIONS, KNOWN_ATTRIBUTES, READ_SECTIONS, SINGLE_ELEMENTS } from './vocabulary.ts';
import { counted, type Warnings } from './warnings.ts';

/*
 * The XML walk: FlexQueryResponse › FlexStatements › FlexStatement › section › row, each row an element
 * whose data are its attributes. Rows of the sections the reader uses are kept as they are (strings);
 * everything else is only counted against the budget. Nothing here knows what a row means.
 */

/** One row of a section (or a single element such as AccountInformation), in file order. */
export interface FlexRow {
  tag: string;
  section: string;
  attrs: Record<string, string>;
  /** Its place in the file: ties in time keep the file's order. */
  index: number;
}

/** One FlexStatement: its own attributes (accountId, fromDate, toDate …) and the rows kept. */
export interface RawStatement {
  attrs: Record<string, string>;
  rows: FlexRow[];
  /** The sections the statement holds, empty ones included (an empty OpenPositions says nothing is open). */
  sections: Set<string>;
}

export interface RawFlex {
  /** FlexQueryResponse@type: 'AF' for an Activity Flex Query. */
  type: string | null;
  statements: RawStatement[];
  /** The order of the file's slash dates, null when it writes none. */
  slashOrder: SlashOrder | null;
}

/**
 * What one Flex file may cost to read: READ_BUDGET (budget.ts) counts table cells, which a Flex file has
 * none of, so its elements and attributes are capped here. A year of an active account is some ten
 * thousand rows of about ninety attributes.
 */
export const FLEX_BUDGET = { elements: 1_000_000, attributes: 4_000_000 } as const;
export type FlexBudget = { readonly elements: number; readonly attributes: number };

export const NOT_FLEX = 'This file is not an Interactive Brokers Flex statement (an Activity Flex Query saved as XML).';

const ROOTS = new Set(['FlexQueryResponse', 'FlexStatements']);

/** Reads the file's text into its statements' rows; refuses what is no Flex statement, stops past the budget. */
export function walkFlex(text: string, warnings: Warnings, fileName?: string, budget: FlexBudget = FLEX_BUDGET): RawFlex {
  const refuse = (message: string) => new NotAStatementError(message, fileName);
  const slashes = new SlashEvidence();
  const stack: string[] = [];
  const statements: RawStatement[] = [];
  // Set inside the tokenizer's callbacks: an object, so that the checks after it see what they set.
  const root: { type: string | null } = { type: null };
  let statement: RawStatement | null = null;
  let section: string | null = null;
  let elements = 0;
  let attributes = 0;
  let index = 0;

  const count = (attrs: Record<string, string>) => {
    elements++;
    let n = 0;
    for (const name in attrs) {
      n++;
      slashes.look(attrs[name] ?? '');
    }
    attributes += n;
    if (elements > budget.elements) throw new ReadBudgetError(`${budget.elements.toLocaleString('en-US')} XML elements in a Flex statement`);
    if (attributes > budget.attributes) throw new ReadBudgetError(`${budget.attributes.toLocaleString('en-US')} XML attributes in a Flex statement`);
  };

  const keep = (tag: string, where: string, attrs: Record<string, string>) => {
    checkAttributes(tag, attrs, warnings);
    statement?.rows.push({ tag, section: where, attrs, index: index++ });
  };

  /** A child of a FlexStatement: a section of rows, a single element, or something the reader leaves aside. */
  const enterSection = (name: string, attrs: Record<string, string>) => {
    section = null;
    statement?.sections.add(name);
    if (READ_SECTIONS.has(name)) section = name;
    else if (SINGLE_ELEMENTS.has(name)) keep(name, name, attrs);
    else if (!IGNORED_SECTIONS.has(name)) {
      warnings.add(`section:${name}`, (n) => `${counted(n, 'section')} '${name}' unknown to this reader left aside`);
    }
  };

  const enterRow = (name: string, attrs: Record<string, string>) => {
    if (section === null) return;
    if (READ_SECTIONS.get(section)?.has(name)) keep(name, section, attrs);
    else {
      const where = section;
      warnings.add(`element:${where}:${name}`, (n) => `${counted(n, `'${name}' row`)} in ${where}, unknown to this reader, left aside`);
    }
  };

  readMarkup(text, true, {
    open(name, attrs) {
      count(attrs);
      const depth = stack.length;
      const parent = stack[depth - 1];
      stack.push(name);
      if (depth === 0) {
        if (!ROOTS.has(name)) throw refuse(NOT_FLEX);
        if (name === 'FlexQueryResponse') root.type = attrs.type ?? null;
        return;
      }
      if (name === 'FlexStatement' && (parent === 'FlexStatements' || (parent === 'FlexQueryResponse' && depth === 1))) {
        statement = { attrs, rows: [], sections: new Set() };
        statements.push(statement);
        return;
      }
      if (statement === null) return;
      if (parent === 'FlexStatement') enterSection(name, attrs);
      else if (stack[depth - 2] === 'FlexStatement') enterRow(name, attrs);
    },
    close(name) {
      const top = stack.pop();
      if (top !== name) throw refuse(`${NOT_FLEX.slice(0, -1)}: its XML is damaged (<${top ?? ''}> is closed by </${name}>).`);
      if (name === 'FlexStatement') statement = null;
      else if (stack[stack.length - 1] === 'FlexStatement') section = null;
    },
    text() {},
  });

  if (stack.length > 0 || (elements === 0 && text.trim() !== '')) {
    throw refuse(
      'This Interactive Brokers Flex statement is incomplete: the file ends before the statement does (it may have been cut ' +
        'off while downloading). Run the Flex Query again and upload the whole file.',
    );
  }
  if (elements === 0) throw refuse(NOT_FLEX);
  const { type } = root;
  if (type !== null && type !== 'AF') {
    throw refuse(
      `This Interactive Brokers Flex file is not an Activity statement (its type is '${type}'; a Trade Confirmation Flex Query ` +
        'is TCF). Run an Activity Flex Query and upload its XML.',
    );
  }
  if (statements.length === 0) throw refuse('This Interactive Brokers Flex file holds no statement (no <FlexStatement> in it).');
  return { type, statements, slashOrder: slashes.order(fileName) };
}

/** Attributes IB does not write on this element (vocabulary.ts): counted per element and name, and left aside. */
function checkAttributes(tag: string, attrs: Record<string, string>, warnings: Warnings): void {
  const known = KNOWN_ATTRIBUTES.get(tag);
  if (!known) return;
  for (const name in attrs) {
    if (known.has(name)) continue;
    warnings.add(`attribute:${tag}:${name}`, (n) => `${counted(n, `${tag} row`)} with an unknown attribute '${name}' (left aside)`);
  }
}
