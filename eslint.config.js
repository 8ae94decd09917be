import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
  {
    // Imports flow toward src/shared: client and server never import each other.
    // (A leading '#' would make a pattern a gitignore comment: the '#' aliases are matched by regex.)
    files: ['src/client/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/server/**'] }, { regex: '^#server/' }] }] },
  },
  {
    files: ['src/server/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/client/**'] }, { regex: '^#client/' }] }] },
  },
  {
    // The ledger keeps the rules; its storage is behind its port (src/server/ledger/port.ts).
    files: ['src/server/ledger/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/client/**', '**/db/**'], message: 'The ledger reaches storage through its port only.' },
            { regex: '^#(client|server/db)/', message: 'The ledger reaches storage through its port only.' },
          ],
        },
      ],
    },
  },
  {
    // The reference agent speaks the ingest contract: it imports src/shared only (scripts/agent.ts hands it the simulation).
    files: ['src/agent/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/client/**', '**/server/**'], message: 'The reference agent imports the ingest contract and src/shared only.' },
            { regex: '^#(client|server)/', message: 'The reference agent imports the ingest contract and src/shared only.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['node:*', 'react', 'pg'] }, { regex: '^#(client|server)/' }] }] },
  },
);
