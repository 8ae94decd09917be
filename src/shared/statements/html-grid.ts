import { CellCounter, LIMITS, READ_BUDGET, ReadBudgetError } from './budget.ts';
import type { Grid, GridRow } from './cells.ts';
import { readMarkup } from './markup.ts';

/**
 * The rows of a report's HTML tables. A new <td> or <tr> closes the one before it, as old MetaTrader 4
 * markup leaves them open. A cell spanning n columns is its text then n − 1 empty cells, so rows line up
 * with their header. Cells MetaTrader hides (`class="hidden"`: the filler after a position's Type, the
 * Cost column of newer builds) are left out of both the header and the rows. Text outside any table
 * (MT4's broker name above the statement) becomes a one-cell row where it stands. `whole` says whether
 * the document's own end (`</html>`) was read: a file cut short has none.
 */
export function htmlGrid(html: string): Grid {
  const rows: GridRow[] = [];
  const counter = new CellCounter();
  let title = '';
  let row: GridRow | null = null;
  let cell: { text: string; span: number; hidden: boolean; title: string | undefined } | null = null;
  let loose = '';
  let skipDepth = 0;
  let inTitle = false;
  let whole = false;

  const flushCell = () => {
    if (!cell) return;
    const done = cell;
    cell = null;
    if (done.hidden) return;
    row ??= { cells: [] };
    if (row.cells.length + done.span > READ_BUDGET.rowCells) throw new ReadBudgetError(LIMITS.rowCells);
    counter.add(done.span);
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
    if (loose === '') return;
    const text = loose.replace(/\s+/g, ' ').trim();
    loose = '';
    if (text !== '') {
      counter.add();
      rows.push({ cells: [text] });
    }
  };

  readMarkup(html, false, {
    open(name, attributes) {
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
    text(text) {
      if (skipDepth > 0) return;
      if (inTitle) title += text;
      else if (cell) cell.text += text;
      else if (!row) loose += text;
    },
    close(name) {
      if (name === 'script' || name === 'style') skipDepth = Math.max(0, skipDepth - 1);
      else if (name === 'title') inTitle = false;
      else if (name === 'td' || name === 'th') flushCell();
      else if (name === 'tr' || name === 'table') flushRow();
      else if (name === 'html') whole = true;
      else if (BLOCKS.has(name) && !row) flushLoose();
    },
  });
  flushRow();
  flushLoose();

  for (const done of rows) {
    done.cells = done.cells.map((text) => (typeof text === 'string' ? text.replace(/[\s\u00a0]+/g, ' ').trim() : text));
  }
  return { rows, title: title.replace(/\s+/g, ' ').trim(), whole };
}

const BLOCKS = new Set(['div', 'p', 'center', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'body']);

function isHidden(attributes: Record<string, string>): boolean {
  if ((attributes.class ?? '').split(/\s+/).includes('hidden')) return true;
  return /display\s*:\s*none/i.test(attributes.style ?? '');
}
