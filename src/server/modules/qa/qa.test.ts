import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QA_SUITES, qaRoutes } from '../../../common/api/qa.js';
import { qaProgressSchema, qaResultsSchema, qaRunSummarySchema, type QaResults, type QaRunSummary } from '../../../common/contract/qa.js';
import { buildApp } from '../../app.js';
import type { App } from '../../http/types.js';
import { expectApiError } from '../../test/api-errors.js';
import { apiCall, signInAs, type SessionCookies } from '../../test/sign-in.js';
import { createTestApp, testConfig, type TestApp } from '../../test/test-app.js';
import { missedTimeOnly } from '../../test/qa-results.js';

/** The self-test's three calls through HTTP: who may call them, one run at a time, and what a full run reports. */

const ADMIN = 'Avery Admin';

describe('the QA self-test', () => {
  let testApp: TestApp;
  let app: App;
  let admin: SessionCookies;
  let member: SessionCookies;

  beforeAll(async () => {
    testApp = await createTestApp();
    app = testApp.app;
    admin = await signInAs(app, ADMIN);
    member = await signInAs(app, 'Morgan Member');
  });
  afterAll(async () => {
    await testApp.close();
  });

  const results = async (): Promise<QaResults> => {
    const response = await apiCall(app, 'GET', `${qaRoutes.testResults.path}?latest=true`, admin);
    expect(response.statusCode, response.body).toBe(200);
    return qaResultsSchema.parse(response.json());
  };
  const runTests = async (): Promise<QaRunSummary> => {
    const response = await apiCall(app, 'POST', qaRoutes.runTests.path, admin);
    expect(response.statusCode, response.body).toBe(200);
    return qaRunSummarySchema.parse(response.json());
  };
  /**
   * Every check passed, or was skipped with its reason; the failures listed when not. A Performance
   * check that only missed its time is not a failure of behaviour: the timing targets are the
   * benchmark's, and a test run shares two cores with other test files.
   */
  const expectAllPassed = (latest: QaResults) => {
    const failures = latest.results.filter((result) => result.status === 'failed' && !missedTimeOnly(result)).map((result) => `${result.testSuite} / ${result.testName}: ${result.reason ?? ''}`);
    expect(failures).toEqual([]);
    for (const skipped of latest.results.filter((result) => result.status === 'skipped')) expect(skipped.reason, skipped.testName).toMatch(/\S/);
  };

  it('answers 401 signed out and 403 to a member on all three calls', async () => {
    const calls = [
      ['GET', qaRoutes.testResults.path],
      ['POST', qaRoutes.runTests.path],
      ['GET', qaRoutes.progress.path],
    ] as const;
    for (const [method, path] of calls) {
      expectApiError(await apiCall(app, method, path, undefined), 401, 'UNAUTHENTICATED');
      expectApiError(await apiCall(app, method, path, member), 403, 'ADMIN_ONLY');
    }
    // The member's refused POST started nothing.
    expect(await results()).toEqual({ run: null, results: [] });
  });

  it('answers no run and no results before the first run, and an idle progress', async () => {
    expect(await results()).toEqual({ run: null, results: [] });
    const progress = await apiCall(app, 'GET', qaRoutes.progress.path, admin);
    expect(progress.statusCode).toBe(200);
    expect(qaProgressSchema.parse(progress.json())).toEqual({ running: false, runBy: null, suite: null, completedSuites: 0, totalSuites: QA_SUITES.length });
  });

  it('runs every suite as the admin, passes, and stores one result per check in order', { timeout: 120_000 }, async () => {
    const progressEvents: string[] = [];
    const stopListening = app.events.onChange((event) => {
      if (event.type === 'qa.progress') progressEvents.push(event.type);
    });
    const summary = await runTests();
    stopListening();
    // One at every suite's start and one at the end, for the admins' open panels.
    expect(progressEvents.length).toBeGreaterThanOrEqual(QA_SUITES.length + 1);
    const latest = await results();
    expectAllPassed(latest);
    expect(summary.failed).toBe(latest.results.filter((result) => result.status === 'failed').length);
    expect(summary.totalTests).toBe(summary.passed + summary.failed + summary.skipped);
    expect(summary.totalTests).toBeGreaterThanOrEqual(40);
    expect(summary.message).toMatch(new RegExp(`^${summary.passed}/${summary.totalTests} tests passed`));

    expect(latest.run).toMatchObject({ id: summary.runId, runBy: ADMIN, passed: summary.passed, failed: 0, skipped: summary.skipped, totalTests: summary.totalTests });
    expect(latest.run?.finishedAt).not.toBeNull();
    expect(latest.results).toHaveLength(summary.totalTests);
    // Suites in the contract's order, each with at least two checks, every result by the admin.
    const suitesInOrder = latest.results.map((result) => result.testSuite).filter((suite, index, all) => all.indexOf(suite) === index);
    expect(suitesInOrder).toEqual([...QA_SUITES]);
    for (const suite of QA_SUITES) expect(latest.results.filter((result) => result.testSuite === suite).length, suite).toBeGreaterThanOrEqual(2);
    expect(new Set(latest.results.map((result) => result.runBy))).toEqual(new Set([ADMIN]));
    for (const result of latest.results) expect(result.reason === null, result.testName).toBe(result.status === 'passed');

    const progress = qaProgressSchema.parse((await apiCall(app, 'GET', qaRoutes.progress.path, admin)).json());
    expect(progress.running).toBe(false);
  });

  it('passes again when run right after, and the results show the newer run', { timeout: 120_000 }, async () => {
    const first = await runTests();
    const second = await runTests();
    expect(second.runId).toBeGreaterThan(first.runId);
    expect([first.failed, second.failed]).toEqual([0, 0]);
    const latest = await results();
    expect(latest.run?.id).toBe(second.runId);
    expectAllPassed(latest);
  });

  it('answers 409 to a run started while one is in progress, on this instance and on another', { timeout: 120_000 }, async () => {
    // A second instance on the same database, as behind a load balancer.
    const other = await buildApp(testConfig(testApp.database), { collectProcessMetrics: false });
    try {
      const running = apiCall(app, 'POST', qaRoutes.runTests.path, admin);
      let progress = qaProgressSchema.parse((await apiCall(app, 'GET', qaRoutes.progress.path, admin)).json());
      const deadline = Date.now() + 10_000;
      while (!progress.running && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        progress = qaProgressSchema.parse((await apiCall(app, 'GET', qaRoutes.progress.path, admin)).json());
      }
      expect(progress).toMatchObject({ running: true, runBy: ADMIN, totalSuites: QA_SUITES.length });

      expectApiError(await apiCall(app, 'POST', qaRoutes.runTests.path, admin), 409, 'QA_RUN_IN_PROGRESS');
      expectApiError(await apiCall(other, 'POST', qaRoutes.runTests.path, admin), 409, 'QA_RUN_IN_PROGRESS');
      // The other instance reads the progress from the database too.
      const seenThere = qaProgressSchema.parse((await apiCall(other, 'GET', qaRoutes.progress.path, admin)).json());
      expect(seenThere.running).toBe(true);

      const finished = await running;
      expect(finished.statusCode, finished.body).toBe(200);
      qaRunSummarySchema.parse(finished.json());
      expectAllPassed(await results());
    } finally {
      await other.close();
    }
  });
});
