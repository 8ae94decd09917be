import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
  {
    // Routes validate, call a service (src/server/services) and answer: no repository, and no other
    // feature's routes.
    files: ['src/server/routes/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT, DB, ROUTES] }] },
  },
  {
    files: ['src/server/ops/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT, DB] }] },
  },
  {
    // The pure core: rules over values, no storage.
    files: ['src/server/broker/port.ts', 'src/server/ledger/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT, DB] }] },
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
