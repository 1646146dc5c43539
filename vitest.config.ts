import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'server',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file starts a real server and a Chromium; two cores fit one file at a time.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'client',
          include: ['src/client/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['src/client/test/setup.ts'],
          // Typing with user-event is CPU-bound: on a busy two-core machine a form test can pass 5 s.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
