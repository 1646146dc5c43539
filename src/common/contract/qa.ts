import { z } from 'zod';
import { QA_STATUSES, QA_SUITES, qaRoutes } from '../api/qa.js';

export const qaStatusSchema = z.enum(QA_STATUSES);
export type QaStatus = z.infer<typeof qaStatusSchema>;

/** One check of one suite in a run. `duration` is in milliseconds; `reason` says why it failed or was skipped. */
export const qaTestResultSchema = z.object({
  id: z.number().int().positive(),
  testName: z.string(),
  testSuite: z.string(),
  status: qaStatusSchema,
  duration: z.number().int().nonnegative(),
  runBy: z.string(),
  reason: z.string().nullable(),
});
export type QaTestResult = z.infer<typeof qaTestResultSchema>;

export const qaRunSchema = z.object({
  id: z.number().int().positive(),
  runBy: z.string(),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  totalTests: z.number().int().nonnegative(),
});
export type QaRun = z.infer<typeof qaRunSchema>;

/** The latest finished run and its checks; `run` is null before the first run. */
export const qaResultsSchema = z.object({ run: qaRunSchema.nullable(), results: z.array(qaTestResultSchema) });
export type QaResults = z.infer<typeof qaResultsSchema>;

export const qaRunSummarySchema = z.object({
  runId: z.number().int().positive(),
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  totalTests: z.number().int().nonnegative(),
  message: z.string(),
});
export type QaRunSummary = z.infer<typeof qaRunSummarySchema>;

export const qaProgressSchema = z.object({
  running: z.boolean(),
  runBy: z.string().nullable(),
  /** The suite being checked now, and how many suites are done out of all of them. */
  suite: z.enum(QA_SUITES as [string, ...string[]]).nullable(),
  completedSuites: z.number().int().nonnegative(),
  totalSuites: z.number().int().positive(),
});
export type QaProgress = z.infer<typeof qaProgressSchema>;

export const qaTestResultsQuerySchema = z.strictObject({ latest: z.enum(['true', 'false']).optional() });

export const qaContract = {
  testResults: { ...qaRoutes.testResults, querystring: qaTestResultsQuerySchema, response: { 200: qaResultsSchema } },
  runTests: { ...qaRoutes.runTests, response: { 200: qaRunSummarySchema } },
  progress: { ...qaRoutes.progress, response: { 200: qaProgressSchema } },
} as const;
