import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { databaseTestFiles } from './scripts/database-tests.js';

// Server and shared tests that reach a database run in `server`, once per engine in CI; the rest
// give the same result on any engine and run in `unit`, once. Found by what each file imports.
const databaseTests = databaseTestFiles(import.meta.dirname);

export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
    // Vitest's default (one worker fewer than the cores) leaves a two-core machine one file at a
    // time, though most files spend their time waiting on a database, a child process or a timer:
    // two files at a time there. The browser tests have their own number, below.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...databaseTests],
          environment: 'node',
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server',
          include: databaseTests,
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
          // Each file starts a real server and a Chromium, then mostly waits on them: on two cores,
          // two files at a time took 0.6 to 0.75 of the time one at a time did. After the other
          // projects (a later group), never beside them.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
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
