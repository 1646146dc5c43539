import { QA_SUITES } from '../../../../common/api/qa.js';
import type { QaSuite } from '../context.js';
import { apiValidation, concurrency, dataIntegrity, inputValidation, performanceSuite, pinResets, sessions, userStats } from './advanced.js';
import { aiSummaries, authentication, comments, database, proposals, voting } from './core.js';
import { aiPrompts, analytics, errorLogging, teamManagement } from './management.js';

const ALL: readonly QaSuite[] = [
  database,
  authentication,
  comments,
  voting,
  proposals,
  aiSummaries,
  analytics,
  errorLogging,
  teamManagement,
  aiPrompts,
  sessions,
  pinResets,
  dataIntegrity,
  performanceSuite,
  apiValidation,
  userStats,
  inputValidation,
  concurrency,
];

/** The self-test: every suite of the contract's groups, in the order the panel lists them. */
export const QA_SUITE_CHECKS: readonly QaSuite[] = QA_SUITES.map((name) => {
  const suite = ALL.find((entry) => entry.name === name);
  if (suite === undefined) throw new Error(`the self-test has no checks for the suite "${name}"`);
  return suite;
});
