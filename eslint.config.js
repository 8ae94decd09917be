import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import fs from 'node:fs';
import globals from 'globals';
import layers from './scripts/eslint-import-cycles.mjs';

/** A no-restricted-imports pattern: an import by the alias `alias`, or by a relative path (from anywhere under src) through `dirs`. */
const imports = (alias, dirs, message) => ({ regex: `^(${alias}|(\\.{1,2}/)+(src/)?${dirs})`, message });
const CLIENT = imports('#client/', 'client/', 'The server, src/shared and the agent never import the client.');
const SERVER = imports('#server/', 'server/', 'The client and src/shared never import the server.');
const AGENT = imports('#agent/', 'agent/', 'Only the agent imports the agent.');
const DB = imports('#server/db/', '(server/)?db/', 'Routes and the pure core never import the repositories (src/server/db): routes call a service (src/server/services).');
const ROUTES = {
  regex: `^(#server/routes/|\\./|(\\.{1,2}/)+(src/)?(server/)?routes/|(\\.{1,2}/)+[^/]*-routes(\\.ts)?$)`,
  message: 'A feature does not import another\'s routes: share through a service (src/server/services).',
};

// The server's layers (docs/architecture.md, "Layers"), top to bottom; each imports only its own
// and those below it. `server(paths, message)` catches an import of a module under src/server/ whose
// path there matches `paths`, by its alias (#server/…) or by a relative path.
const server = (paths, message) => ({ regex: `^(#server/|(\\.{1,2}/)+(src/)?(server/)?)(${paths})`, message });
/** The adapters: one folder each under src/server/broker/. */
const ADAPTER_DIRS = fs.readdirSync(new URL('./src/server/broker/', import.meta.url), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
const COMPOSITION = server(
  '(app|main)\\.ts$|plugins/|admin/|broker/registry\\.ts$|broker/[^/]+/(index|admin-commands)\\.ts$',
  'Composition (app.ts, plugins/, the admin CLI, the broker registry, an adapter\'s factory) is the top layer: nothing below imports it.',
);
const EDGES = server(
  'routes/|ops/|broker/[^/]+/[^/]+-(routes|service)\\.ts$',
  'Routes and ops (and an adapter\'s own routes) are the edges: only the composition imports them.',
);
const SERVICES = server('services/', 'Services (src/server/services) are called by the edges; nothing below them imports them.');
const HTTP = server('http/', 'HTTP (src/server/http) is the edges\' and services\' vocabulary: the domain throws its own errors (src/server/errors.ts).');
const ADAPTERS = server(
  'broker/(?!(port|errors|listeners)\\.ts$)',
  'Below the adapters, and in services, a broker is reached through its port (src/server/broker/port.ts), never an adapter or the composite.',
);
const DOMAIN_DIRS = ['analytics', 'auth', 'books', 'copy', 'demo', 'fees', 'import', 'ingest', 'live', 'push', 'reports', 'scale', 'workers'];
const DOMAIN = server(`(${DOMAIN_DIRS.join('|')})/`, 'The domain (copy, live, scale, books, ingest, fees …) sits above the repositories and the core.');
const REPOSITORIES = server('db/', 'The repositories (src/server/db) sit above the core (the ledger, the broker port, config, errors).');
/** An adapter never imports another adapter's folder. */
const OTHER_ADAPTERS = (dir) => server(`broker/(?!${dir}/)[^/]+/`, 'An adapter never imports another adapter: share through the port or the layers below.');
const CLUSTER = server(
  'scale/cluster-(market|orders)\\.ts$',
  'Services and app.ts are typed on ports (SharedMarket in src/server/broker/port.ts, CopyOrders in src/server/copy/orders.ts), never on ClusterMarket or ClusterOrders.',
);
const ROUTES_DIR = server('routes/', 'A feature does not import another\'s routes: share through a service (src/server/services).');

export default tseslint.config(
  { ignores: ['dist/', 'dist-*/', 'node_modules/', 'test-results/', 'playwright-report/', 'data/', '.bench/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
      parserOptions: { projectService: { allowDefaultProject: ['scripts/*.mjs'] }, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/only-throw-error': 'off',
      // Fastify plugins and hooks are async by contract, with or without an await.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['scripts/*.mjs', 'eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  // Import zones (docs/architecture.md). Each pattern catches an import by its alias (#server/db/…)
  // and by a relative path (../db/…, ../../server/db/…). A file in several zones gets the last one's
  // patterns, so each zone repeats those of the zones it narrows.
  {
    // Imports flow toward src/shared: client and server never import each other.
    // (A leading '#' would make a pattern a gitignore comment: the '#' aliases are matched by regex.)
    files: ['src/client/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SERVER, AGENT] }] },
  },
  {
    files: ['src/server/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT] }] },
  },
  // The server's layers, from the top (docs/architecture.md, "Layers"). Composition (app.ts, main.ts,
  // plugins/, admin/, broker/registry.ts, each adapter's index.ts and admin-commands.ts) imports any.
  {
    // The edges: routes validate, call a service (src/server/services) and answer: no repository, and
    // no other feature's routes.
    files: ['src/server/routes/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT, COMPOSITION, DB, ROUTES] }] },
  },
  {
    files: ['src/server/ops/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT, COMPOSITION, DB] }] },
  },
  {
    // Services reach a broker through its port, never an adapter, and the copy engine through CopyOrders.
    files: ['src/server/services/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT, COMPOSITION, EDGES, ADAPTERS, CLUSTER] }] },
  },
  {
    files: ['src/server/app.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT, CLUSTER] }] },
  },
  {
    files: ['src/server/http/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT, COMPOSITION, EDGES, SERVICES] }] },
  },
  // Each adapter (a folder under src/server/broker/) and what the adapters share (composite.ts,
  // factory.ts): no service, no HTTP, no other adapter. Its factory (index.ts) builds it from its
  // folder and the layers below; its own routes (and their service) are edges, its CLI commands
  // (admin-commands.ts) composition.
  ...ADAPTER_DIRS.map((dir) => ({
    files: [`src/server/broker/${dir}/**`],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT, COMPOSITION, EDGES, SERVICES, HTTP, OTHER_ADAPTERS(dir)] }] },
  })),
  {
    files: ['src/server/broker/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT, COMPOSITION, EDGES, SERVICES, HTTP, OTHER_ADAPTERS('-')] }] },
  },
  {
    files: ['src/server/broker/registry.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT, server('(app|main)\\.ts$|plugins/|admin/', COMPOSITION.message)] }] },
  },
  ...ADAPTER_DIRS.map((dir) => ({
    files: [`src/server/broker/${dir}/index.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT, server('(app|main)\\.ts$|plugins/|admin/|broker/registry\\.ts$', COMPOSITION.message), ROUTES_DIR, SERVICES, HTTP, OTHER_ADAPTERS(dir)] }] },
  })),
  ...ADAPTER_DIRS.map((dir) => ({
    files: [`src/server/broker/${dir}/*-routes.ts`, `src/server/broker/${dir}/*-service.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT, COMPOSITION, ROUTES_DIR, OTHER_ADAPTERS(dir)] }] },
  })),
  ...ADAPTER_DIRS.map((dir) => ({
    files: [`src/server/broker/${dir}/admin-commands.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT, server('(app|main)\\.ts$|plugins/', COMPOSITION.message), EDGES, OTHER_ADAPTERS(dir)] }] },
  })),
  {
    // The domain: copy/, live/, scale/, books/, ingest/, import/, fees/, push/, auth/ … Rules and
    // their work over the repositories; refusals are domain errors (src/server/errors.ts), never HTTP.
    files: DOMAIN_DIRS.map((d) => `src/server/${d}/**`),
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT, COMPOSITION, EDGES, SERVICES, HTTP, ADAPTERS] }] },
  },
  {
    files: ['src/server/db/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT, COMPOSITION, EDGES, SERVICES, HTTP, ADAPTERS, DOMAIN] }] },
  },
  {
    // The core: the ledger's rules (pure) and port, the broker port, its errors and listeners, the
    // domain errors, the configuration. No storage.
    files: ['src/server/broker/port.ts', 'src/server/broker/errors.ts', 'src/server/broker/listeners.ts', 'src/server/ledger/**', 'src/server/config.ts', 'src/server/errors.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT, COMPOSITION, EDGES, SERVICES, HTTP, ADAPTERS, DOMAIN, REPOSITORIES] }] },
  },
  {
    // No module of src/ imports, through a chain of imports, a module that imports it back.
    files: ['src/**'],
    plugins: { layers },
    rules: { 'layers/no-cycle': 'error' },
  },
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [CLIENT, SERVER, AGENT, { group: ['node:*', 'react', 'pg'], message: 'src/shared runs in the browser and the server alike.' }] },
      ],
    },
  },
  {
    // The reference agent speaks the ingest API (src/shared/contract) and imports src/shared only;
    // scripts/agent.ts hands it the simulated market for `npm run agent -- simulate`.
    files: ['src/agent/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT, SERVER] }] },
  },
);
