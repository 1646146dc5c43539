import type { QaProgress, QaResults, QaRunSummary } from '../contract/qa.js';
import { defineRoute } from './route.js';

/** The self-test's suites in their three groups; each suite is one or more checks of the live system. */
export const QA_SUITE_GROUPS = [
  { title: 'Core Systems', suites: ['Database', 'Authentication', 'Comments', 'Voting', 'Proposals', 'AI Summaries'] },
  { title: 'Management & Analytics', suites: ['Analytics', 'Error Logging', 'Team Management', 'AI Prompts'] },
  {
    title: 'Advanced Testing',
    suites: ['Sessions', 'PIN Resets', 'Data Integrity', 'Performance', 'API Validation', 'User Stats', 'Input Validation', 'Concurrency'],
  },
] as const;
export type QaSuiteName = (typeof QA_SUITE_GROUPS)[number]['suites'][number];
export const QA_SUITES: readonly QaSuiteName[] = QA_SUITE_GROUPS.flatMap((group) => group.suites);

export const QA_STATUSES = ['passed', 'failed', 'skipped'] as const;

export const qaRoutes = {
  /** `latest=true`: the last finished run (the only history the panel shows). */
  testResults: defineRoute<{ query: { latest?: 'true' | 'false' }; response: QaResults }>()('GET', '/api/qa/test-results'),
  /** Runs every suite and answers when done; 409 while another run is in progress. */
  runTests: defineRoute<{ response: QaRunSummary }>()('POST', '/api/qa/run-tests'),
  /** Which suite is running now, for the progress line (also announced on the live stream). */
  progress: defineRoute<{ response: QaProgress }>()('GET', '/api/qa/progress'),
} as const;
