import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const LONG = ['tests/integration/fuzz.test.ts', 'tests/integration/ingest-fuzz.test.ts', 'tests/integration/faults.test.ts'];

export default defineConfig({
  plugins: [react()],
  test: {
    env: { TZ: 'UTC' },
    // Two files at a time even on two cores (Vitest's default would be one): the integration suites
    // spend much of their time waiting on PostgreSQL, child processes and sockets.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['src/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: { name: 'component', include: ['src/**/*.test.tsx'], environment: 'happy-dom' },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          exclude: LONG,
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // ea/CopyMonitor.mq5 built with g++ against tests/ea/mql5.h and run against the server: `npm run test:ea`.
        extends: true,
        test: {
          name: 'ea',
          include: ['tests/ea/**/*.test.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 180_000,
        },
      },
      {
        // The long runs: generated attacks on every route and batch, and processes killed and cut
        // off from their database. `npm run test:long`; CI runs them after `npm test`.
        extends: true,
        test: {
          name: 'long',
          include: LONG,
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
