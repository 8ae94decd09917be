import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The documentation a newcomer reads: every link resolves to a file of the repository (and a heading
// of it, when the link names one), and nothing in the code or the docs sends them to a document that
// is not in the repository.

const ROOT = path.resolve(import.meta.dirname, '../..');

function filesUnder(dir: string, keep: (file: string) => boolean): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(p, keep));
    else if (keep(p)) out.push(p);
  }
  return out;
}

const markdown = [path.join(ROOT, 'README.md'), ...filesUnder(path.join(ROOT, 'docs'), (f) => f.endsWith('.md'))];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, (c) => (c === '_' ? '_' : ''))
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const base = anchorOf(heading[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

function linksOf(file: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  let fenced = false;
  fs.readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (text.startsWith('```')) fenced = !fenced;
      if (fenced) return;
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) links.push({ target: m[1]!, line: i + 1 });
    });
  return links;
}

/** The comments of a source file: its // lines and /* blocks *\/, with the line each starts on. */
function commentsOf(file: string): { text: string; line: number }[] {
  const source = fs.readFileSync(file, 'utf8');
  const out: { text: string; line: number }[] = [];
  // Strings are blanked first so that '//' in a URL or a regular expression is not a comment.
  const blanked = source.replace(/(['"`])(?:\\.|(?!\1)[^\\\n])*\1/g, (s) => s.replace(/[^\n]/g, ' '));
  for (const m of blanked.matchAll(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g)) {
    out.push({ text: source.slice(m.index, m.index + m[0].length), line: source.slice(0, m.index).split('\n').length });
  }
  return out;
}

/** Whether a document has a place of that name: a heading, or a term in bold, that holds it (any case). */
function namesPlace(doc: string, name: string): boolean {
  const flat = name.replace(/\s+/g, ' ').toLowerCase();
  const holds = (text: string) => text.replace(/\s+/g, ' ').toLowerCase().includes(flat);
  return doc.split('\n').some((l) => /^#{1,6}\s/.test(l) && holds(l)) || [...doc.matchAll(/\*\*([^*]+)\*\*/g)].some((m) => holds(m[1]!));
}

/** Every file name of the repository (outside node_modules, dist and .git), by base name. */
function repositoryNames(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (['node_modules', 'dist', '.git', 'test-results', 'playwright-report'].includes(entry.name)) continue;
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else names.add(entry.name);
    }
  };
  walk(ROOT);
  return names;
}

describe('the documentation', () => {
  it('has a README short enough to read first, and every page it links exists', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThan(150);
    for (const page of ['docs/architecture.md', 'docs/operations.md', 'docs/ingest-api.md', 'docs/benchmarks.md', 'docs/decisions/README.md']) {
      expect(readme.includes(`](${page})`), `README links ${page}`).toBe(true);
    }
  });

  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const file of markdown) {
      for (const { target, line } of linksOf(file)) {
        if (/^(https?:|mailto:)/.test(target)) continue;
        const [target_path = '', anchor] = target.split('#');
        const resolved = target_path === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(target_path));
        const where = `${path.relative(ROOT, file)}:${line} → ${target}`;
        if (!resolved.startsWith(ROOT) || !fs.existsSync(resolved)) broken.push(`${where} (no such file)`);
        else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(`${where} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('never sends a reader of the code or the docs to a document outside the repository', () => {
    const sources = [
      ...filesUnder(path.join(ROOT, 'src'), (f) => /\.(ts|tsx|css|html)$/.test(f)),
      ...filesUnder(path.join(ROOT, 'tests'), (f) => /\.(ts|tsx)$/.test(f) && !f.endsWith('docs-links.test.ts')),
      ...filesUnder(path.join(ROOT, 'scripts'), (f) => /\.(mjs|ts)$/.test(f)),
      ...markdown,
    ];
    const citing = sources.filter((f) => /\b(SPEC|DOMAIN|DESIGN|STYLE)\.md\b|SPEC §/.test(fs.readFileSync(f, 'utf8')));
    expect(citing.map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  it('has code comments that cite only files and headings that exist', () => {
    const sources = [
      ...filesUnder(path.join(ROOT, 'src'), (f) => /\.(ts|tsx|css)$/.test(f)),
      ...filesUnder(path.join(ROOT, 'tests'), (f) => /\.(ts|tsx)$/.test(f)),
      ...filesUnder(path.join(ROOT, 'scripts'), (f) => /\.(mjs|ts)$/.test(f)),
    ];
    const names = repositoryNames();
    const broken: string[] = [];
    for (const file of sources) {
      for (const { text: raw, line } of commentsOf(file)) {
        // One line of prose, whatever the comment's markers and line breaks.
        const text = raw.replace(/^\s*(\/\/|\/?\*+\/?)/gm, ' ').replace(/\s+/g, ' ');
        const where = `${path.relative(ROOT, file)}:${line}`;
        // A path from the repository's root, with a heading as #anchor or as ', "Heading"'.
        for (const m of text.matchAll(/\b((?:docs|src|tests|scripts|ea|deploy|public)\/[\w./-]*[\w-]\.(?:md|tsx|ts|mjs|css|json|mq5|mqh|html|cfg))(?![\w])(?:#([\w-]+)|,? "([^"]+)")?/g)) {
          const [, cited = '', anchor, quoted] = m;
          const resolved = path.join(ROOT, cited);
          if (!fs.existsSync(resolved)) broken.push(`${where} → ${cited} (no such file)`);
          else if (anchor && cited.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(`${where} → ${cited}#${anchor} (no such heading)`);
          else if (quoted && cited.endsWith('.md') && !namesPlace(fs.readFileSync(resolved, 'utf8'), quoted)) {
            broken.push(`${where} → ${cited}, "${quoted}" (no such heading)`);
          }
        }
        // A file named alone (such as main.ts): one of the repository's.
        for (const m of text.matchAll(/(?<![\w./-])([\w-]+(?:\.[\w-]+)*\.(?:ts|tsx|md))\b/g)) {
          if (!names.has(m[1]!)) broken.push(`${where} → ${m[1]} (no file of that name)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
