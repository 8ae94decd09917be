// The project's own ESLint rule 'layers/no-cycle' (eslint.config.js): no module of src/ imports, through
// any chain of static imports, a module that imports it back. Type-only imports count too (two modules
// whose types need each other cannot be read, or moved, one without the other); a dynamic `import()`
// does not (it loads later, once both modules are there). Paths are resolved as Node resolves them
// here: relative paths, and the package.json `imports` aliases (#shared/*, #server/* …).
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The modules a module's source imports statically: its import and export declarations with a module path. */
function specifiers(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  return source.statements
    .filter((s) => (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier))
    .map((s) => s.moduleSpecifier.text);
}

function walk(dir, files) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, files);
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(full);
  }
  return files;
}

/** The module graph of src/ under `root`: each module's static imports, and its strongly connected components. */
class Graph {
  constructor(root) {
    this.root = root;
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    this.aliases = Object.entries(pkg.imports ?? {}).map(([from, to]) => [from.replace(/\*$/, ''), path.join(root, to.replace(/\*$/, ''))]);
    const src = path.join(root, 'src');
    this.edges = new Map();
    for (const file of walk(src, [])) {
      const targets = specifiers(file, fs.readFileSync(file, 'utf8'))
        .map((s) => this.resolve(file, s))
        .filter((t) => t !== undefined);
      this.edges.set(file, [...new Set(targets)]);
    }
    this.component = this.components();
  }

  /** The module a specifier names from `file`, or undefined for a package or a path outside src/. */
  resolve(file, specifier) {
    let base;
    if (specifier.startsWith('.')) base = path.resolve(path.dirname(file), specifier);
    else {
      const alias = this.aliases.find(([from]) => specifier.startsWith(from));
      if (!alias) return undefined;
      base = path.join(alias[1], specifier.slice(alias[0].length));
    }
    for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
      if (this.edges?.has(candidate) || (fs.existsSync(candidate) && fs.statSync(candidate).isFile())) return candidate;
    }
    return undefined;
  }

  /** Tarjan's strongly connected components: module → its component's id (only components of two or more modules). */
  components() {
    const index = new Map();
    const low = new Map();
    const onStack = new Set();
    const stack = [];
    const component = new Map();
    let next = 0;
    let id = 0;
    const visit = (v) => {
      index.set(v, next);
      low.set(v, next);
      next += 1;
      stack.push(v);
      onStack.add(v);
      for (const w of this.edges.get(v) ?? []) {
        if (!this.edges.has(w)) continue;
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v), low.get(w)));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
      }
      if (low.get(v) === index.get(v)) {
        const members = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          members.push(w);
        } while (w !== v);
        if (members.length > 1) {
          for (const m of members) component.set(m, id);
          id += 1;
        }
      }
    };
    for (const v of this.edges.keys()) if (!index.has(v)) visit(v);
    return component;
  }

  /** The shortest chain of imports from `from` back to `to` (both in one component). */
  chain(from, to) {
    const previous = new Map([[from, null]]);
    const queue = [from];
    while (queue.length) {
      const v = queue.shift();
      if (v === to) break;
      for (const w of this.edges.get(v) ?? []) {
        if (!previous.has(w) && this.component.get(w) === this.component.get(from)) {
          previous.set(w, v);
          queue.push(w);
        }
      }
    }
    const chain = [];
    for (let v = to; v !== null && v !== undefined; v = previous.get(v)) chain.unshift(v);
    return chain;
  }
}

const graphs = new Map();
function graphOf(root) {
  if (!graphs.has(root)) graphs.set(root, new Graph(root));
  return graphs.get(root);
}

const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'A module of src/ never imports, through any chain of static imports, a module that imports it back.' },
    schema: [],
    messages: { cycle: 'Import cycle: {{chain}}. Move what both need to a module below them (docs/architecture.md, "Layers").' },
  },
  create(context) {
    const root = context.cwd;
    const file = path.resolve(context.filename);
    if (!file.startsWith(path.join(root, 'src') + path.sep)) return {};
    const graph = graphOf(root);
    const check = (node) => {
      if (!node.source) return;
      const target = graph.resolve(file, node.source.value);
      if (target === undefined || graph.component.get(target) === undefined) return;
      if (graph.component.get(target) !== graph.component.get(file)) return;
      const chain = [file, ...graph.chain(target, file)].map((f) => path.relative(root, f));
      context.report({ node: node.source, messageId: 'cycle', data: { chain: chain.join(' → ') } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

export default { meta: { name: 'layers' }, rules: { 'no-cycle': noCycle } };
