import { QA_SUITES, type QaSuiteName } from '../../../common/api/qa.js';
import { ERROR_CODES } from '../../../common/api/error-codes.js';
import type { QaProgress, QaResults, QaRunSummary } from '../../../common/contract/qa.js';
import type { MemberRow } from '../../db/schema.js';
import { conflict } from '../../errors.js';
import { audit } from '../auth/audit.js';
import { findQaMember, qaMemberDeactivated } from '../members/service.js';
import type { QaSuite } from './context.js';
import { claimRun, findLatestFinishedRun, findRunningRun, listResults, type QaRunRow } from './repo.js';
import { QA_RUN_STALE_MS, QaRunner, type QaRunnerDeps, type QaRunnerOptions } from './runner.js';
import { QA_SUITE_CHECKS } from './suites/index.js';

const iso = (ms: number) => new Date(ms).toISOString();

function isSuiteName(name: string | null): name is QaSuiteName {
  return name !== null && (QA_SUITES as readonly string[]).includes(name);
}

function presentRun(row: QaRunRow) {
  return {
    id: row.id,
    runBy: row.run_by,
    startedAt: iso(row.started_at),
    finishedAt: row.finished_at === null ? null : iso(row.finished_at),
    passed: row.passed,
    failed: row.failed,
    skipped: row.skipped,
    totalTests: row.passed + row.failed + row.skipped,
  };
}

/** The admin's self-test: one run at a time across instances, its progress and its results, from the database. */
export class QaService {
  private readonly runner: QaRunner;

  constructor(
    private readonly deps: QaRunnerDeps,
    options: QaRunnerOptions = {},
  ) {
    this.runner = new QaRunner(deps, options);
  }

  /** Runs the suites (every suite of the self-test unless told) and answers the tally; 409 while another run is going. */
  async run(admin: MemberRow, context: { ip: string }, suites: readonly QaSuite[] = QA_SUITE_CHECKS): Promise<QaRunSummary> {
    const { db } = this.deps.app.database;
    // Said up front, before a run is recorded: the run would only fail every check for it.
    const qaMember = await findQaMember(db, this.deps.config.qaUserName);
    if (qaMember !== undefined && qaMember.active !== 1) throw qaMemberDeactivated(qaMember.full_name);
    const now = Date.now();
    const runId = await claimRun(db, { runBy: admin.full_name, totalSuites: suites.length, now, staleBefore: now - QA_RUN_STALE_MS });
    if (runId === undefined) throw conflict('A QA test run is already in progress; wait for it to finish', ERROR_CODES.qaRunInProgress);
    const { passed, failed, skipped } = await this.runner.run(runId, admin.full_name, suites);
    const totalTests = passed + failed + skipped;
    const message = `${passed}/${totalTests} tests passed${skipped > 0 ? ` (${skipped} skipped)` : ''}`;
    await audit(db, { event: 'admin-action', outcome: failed === 0 ? 'success' : 'failure', actorName: admin.full_name, ip: context.ip, detail: `QA self-test run ${runId}: ${message}` });
    return { runId, passed, failed, skipped, totalTests, message };
  }

  async progress(): Promise<QaProgress> {
    const run = await findRunningRun(this.deps.app.database.db, Date.now() - QA_RUN_STALE_MS);
    if (run === undefined) return { running: false, runBy: null, suite: null, completedSuites: 0, totalSuites: QA_SUITES.length };
    return {
      running: true,
      runBy: run.run_by,
      suite: isSuiteName(run.current_suite) ? run.current_suite : null,
      completedSuites: run.completed_suites,
      totalSuites: Math.max(1, run.total_suites),
    };
  }

  /** The last finished run with its checks in order; `{ run: null, results: [] }` before the first. */
  async latestResults(): Promise<QaResults> {
    const { db } = this.deps.app.database;
    const run = await findLatestFinishedRun(db);
    if (run === undefined) return { run: null, results: [] };
    const rows = await listResults(db, run.id);
    return {
      run: presentRun(run),
      results: rows.map((row) => ({
        id: row.id,
        testName: row.test_name,
        testSuite: row.test_suite,
        status: row.status,
        duration: row.duration_ms,
        runBy: row.run_by,
        reason: row.reason,
      })),
    };
  }
}
