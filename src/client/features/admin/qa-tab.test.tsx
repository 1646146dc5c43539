import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, test } from 'vitest';
import { routes } from '../../../common/api';
import { ERROR_CODES } from '../../../common/api/error-codes';
import type { QaProgress, QaResults, QaRun, QaRunSummary } from '../../../common/contract/qa';
import { deferred, mockFetch, type Answer, type FetchMock } from '../../test/mock-fetch';
import { expectToast, renderWithApp, type Rendered } from '../../test/render';
import AdminPage from './admin-page';
import { ADMIN, openAdminAt, preloadAdminTabs } from './test-fixtures';

beforeAll(preloadAdminTabs, 60_000);

const IDLE: QaProgress = { running: false, runBy: null, suite: null, completedSuites: 0, totalSuites: 18 };
const NO_RESULTS: QaResults = { run: null, results: [] };

const LATEST_RUN: QaRun = { id: 4, runBy: 'Avery Admin', startedAt: '2026-01-05T10:00:00.000Z', finishedAt: '2026-01-05T10:00:20.000Z', passed: 2, failed: 1, skipped: 1, totalTests: 4 };
const LATEST: QaResults = {
  run: LATEST_RUN,
  results: [
    { id: 1, testName: 'Database answers', testSuite: 'Database', status: 'passed', duration: 12, runBy: 'Avery Admin', reason: null },
    { id: 2, testName: 'Sign-in works', testSuite: 'Authentication', status: 'passed', duration: 85, runBy: 'Avery Admin', reason: null },
    { id: 3, testName: 'Votes toggle', testSuite: 'Voting', status: 'failed', duration: 40, runBy: 'Avery Admin', reason: 'Expected 1 vote, found 2' },
    { id: 4, testName: 'Model answers', testSuite: 'AI Summaries', status: 'skipped', duration: 0, runBy: 'Avery Admin', reason: 'No AI provider configured' },
  ],
};

function mockQaApi(results: QaResults = NO_RESULTS): FetchMock {
  return mockFetch().on(routes.auth.user, { body: ADMIN }).on(routes.qa.progress, { body: IDLE }).on(routes.qa.testResults, { body: results });
}

async function renderQa(): Promise<Rendered> {
  openAdminAt('qa-testing');
  const rendered = renderWithApp(<AdminPage />);
  await screen.findByRole('heading', { name: 'Latest Test Results' });
  return rendered;
}

const runButton = () => screen.getByRole('button', { name: /Run Full QA Test Suite|Running Tests\.\.\./ });

describe('QA testing', () => {
  test('describes the 18 suites in their three groups', async () => {
    mockQaApi();
    await renderQa();
    expect(screen.getByText(/18 suites check the live system/)).toBeTruthy();
    const suite = screen.getByRole('region', { name: 'QA Test Suite' });
    const groups = within(suite).getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(groups).toEqual(['Core Systems (6)', 'Management & Analytics (4)', 'Advanced Testing (8)']);
  });

  test('says the run creates the QA test user itself, and where to bring back a deactivated one', async () => {
    mockQaApi();
    await renderQa();
    const suite = screen.getByRole('region', { name: 'QA Test Suite' });
    expect(suite.textContent).toMatch(/creates it first if it does not exist, with the name and PIN configured on the server, so there is\s+nothing to set up/);
    expect(suite.textContent).toMatch(/reactivate it in Team Management/);
  });

  test('without a run yet it says how to get results', async () => {
    mockQaApi();
    await renderQa();
    expect(await screen.findByText('No test results available. Run the QA test suite to see results.')).toBeTruthy();
  });

  test('shows the latest run: who ran it and when, the counts, and its checks grouped by suite', async () => {
    const api = mockQaApi(LATEST);
    await renderQa();
    const results = screen.getByRole('region', { name: 'Latest Test Results' });
    await within(results).findByRole('list', { name: 'Database checks' });
    expect(results.textContent).toMatch(/Run by Avery Admin on Jan 5, 2026, \d{1,2}:\d{2}\s?[AP]M, took 20 s/);
    expect(within(results).getByText(/^Jan 5, 2026/).tagName).toBe('TIME');
    expect(screen.getByText('Passed', { selector: 'dt' }).nextElementSibling?.textContent).toBe('2');
    expect(screen.getByText('Failed', { selector: 'dt' }).nextElementSibling?.textContent).toBe('1');
    expect(screen.getByText('Skipped', { selector: 'dt' }).nextElementSibling?.textContent).toBe('1');

    // One heading per suite, in the order they ran, each with how many of its checks passed.
    expect(within(results).getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual([
      'Database1 of 1 passed',
      'Authentication1 of 1 passed',
      'Voting0 of 1 passed',
      'AI Summaries0 of 1 passed',
    ]);
    const database = within(results).getByRole('list', { name: 'Database checks' });
    expect(within(database).getAllByRole('listitem').map((row) => row.textContent)).toEqual(['Database answers12 msPassed']);
    const voting = within(results).getByRole('list', { name: 'Voting checks' });
    const failed = within(voting).getByRole('listitem');
    expect(failed.textContent).toMatch(/Votes toggle.*Expected 1 vote, found 2.*Failed/);
    expect(within(failed).getByText('Failed').className).toContain('red');
    const skipped = within(within(results).getByRole('list', { name: 'AI Summaries checks' })).getByRole('listitem');
    expect(skipped.textContent).toMatch(/Model answers.*No AI provider configured.*Skipped/);
    expect(within(skipped).getByText('Skipped').className).toContain('yellow');
    // The runner is said once for the run, not on every check.
    expect(results.textContent.match(/Avery Admin/g)).toHaveLength(1);
    expect(api.requests(routes.qa.testResults).map((request) => request.query.get('latest'))).toEqual(['true']);
  });

  test('a check outside the suites (the clean-up) gets a group of its own, last', async () => {
    const withCleanUp: QaResults = {
      run: { ...LATEST_RUN, failed: 2, totalTests: 5 },
      results: [...LATEST.results, { id: 5, testName: 'Remove the QA data', testSuite: 'Clean-up', status: 'failed', duration: 0, runBy: 'Avery Admin', reason: 'clean-up failed: locked' }],
    };
    mockQaApi(withCleanUp);
    await renderQa();
    const results = screen.getByRole('region', { name: 'Latest Test Results' });
    await within(results).findByRole('list', { name: 'Clean-up checks' });
    expect(within(results).getAllByRole('heading', { level: 3 }).at(-1)?.textContent).toBe('Clean-up0 of 1 passed');
  });

  test('a run shows which suite is running, then the toast and the new results', async () => {
    const answer = deferred<Answer<QaRunSummary>>();
    const api = mockQaApi().on(routes.qa.runTests, () => answer.promise);
    const { user } = await renderQa();
    await screen.findByText('No test results available. Run the QA test suite to see results.');

    api.on(routes.qa.progress, { body: { running: true, runBy: 'Avery Admin', suite: 'Voting', completedSuites: 3, totalSuites: 18 } });
    await user.click(runButton());
    expect(runButton().textContent).toBe('Running Tests...');
    expect(runButton()).toHaveProperty('disabled', true);
    expect(await screen.findByText('Running: Voting (4 of 18)', {}, { timeout: 3000 })).toBeTruthy();

    api.on(routes.qa.progress, { body: IDLE }).on(routes.qa.testResults, { body: LATEST });
    answer.resolve({ body: { runId: 4, passed: 17, failed: 1, skipped: 0, totalTests: 18, message: 'QA run finished' } });
    await expectToast('QA Tests Completed', '17/18 tests passed');
    expect(await screen.findByRole('list', { name: 'Database checks' })).toBeTruthy();
    await waitFor(() => {
      expect(runButton().textContent).toBe('Run Full QA Test Suite');
    });
    expect(runButton()).toHaveProperty('disabled', false);
  });

  test('a run already in progress elsewhere keeps the button disabled', async () => {
    mockQaApi().on(routes.qa.progress, { body: { running: true, runBy: 'Bea Admin', suite: 'Database', completedSuites: 0, totalSuites: 18 } });
    await renderQa();
    expect(await screen.findByText('Running: Database (1 of 18)')).toBeTruthy();
    expect(runButton()).toHaveProperty('disabled', true);
  });

  test('a refused run (409) shows the server message', async () => {
    mockQaApi().on(routes.qa.runTests, { status: 409, error: { code: ERROR_CODES.qaRunInProgress, message: 'A QA run is already in progress' } });
    const { user } = await renderQa();
    await user.click(runButton());
    await expectToast('Error', 'A QA run is already in progress');
  });
});
