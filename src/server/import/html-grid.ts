import { Parser } from 'htmlparser2';
import type { Grid, GridRow } from './cells.ts';

/**
 * The rows of a report's HTML tables, read with htmlparser2 (which closes the <td> and <tr> that old
 * MetaTrader 4 markup leaves open). A cell spanning n columns is its text then n − 1 empty cells, so rows
 * line up with their header. Cells MetaTrader hides (`class="hidden"`: the filler after a position's Type,
 * the Cost column of newer builds) are left out of both the header and the rows. Text outside any table
 * (MT4's broker name above the statement) becomes a one-cell row where it stands.
 */
export function htmlGrid(html: string): Grid {
  const rows: GridRow[] = [];
  let title = '';
  let row: GridRow | null = null;
  let cell: { text: string; span: number; hidden: boolean; title: string | undefined } | null = null;
  let loose = '';
  let skipDepth = 0;
  let inTitle = false;

  const flushCell = () => {
    if (!cell) return;
    const done = cell;
    cell = null;
    if (done.hidden) return;
    row ??= { cells: [] };
    if (done.title) (row.titles ??= [])[row.cells.length] = done.title;
    row.cells.push(done.text);
    for (let i = 1; i < done.span; i++) row.cells.push('');
  };
  const flushRow = () => {
    flushCell();
    if (row && row.cells.length > 0) rows.push(row);
    row = null;
  };
  const flushLoose = () => {
    const text = loose.replace(/\s+/g, ' ').trim();
    loose = '';
    if (text !== '') rows.push({ cells: [text] });
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'script' || name === 'style') skipDepth++;
        else if (name === 'title') inTitle = true;
        else if (name === 'tr') {
          flushLoose();
          flushRow();
          row = { cells: [] };
        } else if (name === 'td' || name === 'th') {
          flushLoose();
          flushCell();
          const span = Number.parseInt(attributes.colspan ?? '1', 10);
          cell = {
            text: '',
            span: Number.isFinite(span) ? Math.min(Math.max(span, 1), 64) : 1,
            hidden: isHidden(attributes),
            title: attributes.title?.trim() || undefined,
          };
        } else if (name === 'table') {
          flushLoose();
          flushRow();
        } else if (name === 'br') {
          if (cell) cell.text += ' ';
          else loose += ' ';
        }
      },
      ontext(text) {
        if (skipDepth > 0) return;
        if (inTitle) title += text;
        else if (cell) cell.text += text;
        else if (!row) loose += text;
      },
      onclosetag(name) {
        if (name === 'script' || name === 'style') skipDepth = Math.max(0, skipDepth - 1);
        else if (name === 'title') inTitle = false;
        else if (name === 'td' || name === 'th') flushCell();
        else if (name === 'tr' || name === 'table') flushRow();
        else if (BLOCKS.has(name) && !row) flushLoose();
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  flushRow();
  flushLoose();

  for (const done of rows) {
    done.cells = done.cells.map((text) => (typeof text === 'string' ? text.replace(/[\s\u00a0]+/g, ' ').trim() : text));
  }
  return { rows, title: title.replace(/\s+/g, ' ').trim() };
}

const BLOCKS = new Set(['div', 'p', 'center', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'body']);

function isHidden(attributes: Record<string, string>): boolean {
  if ((attributes.class ?? '').split(/\s+/).includes('hidden')) return true;
  return /display\s*:\s*none/i.test(attributes.style ?? '');
}
