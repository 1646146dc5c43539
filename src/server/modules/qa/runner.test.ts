import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QA_TEST_COMPONENT_ID } from '../../../common/api/architecture.js';
import { nameKey } from '../../../common/names.js';
import type { MemberRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { App } from '../../http/types.js';
import { signInAs } from '../../test/sign-in.js';
import { createTestApp, testConfig, type TestApp } from '../../test/test-app.js';
import { findMemberByKey } from '../members/repo.js';
import { skip, type QaSuite } from './context.js';
import { claimRun } from './repo.js';
import { QA_REMOTE_ADDRESS, QA_RUN_STALE_MS } from './runner.js';
import { QaService } from './service.js';
import { postComment } from './suites/comments.js';

/** The runner with suites of its test's own: broken checks, a QA name that is taken, runs left by a dead instance. */

const TIMEOUT_MS = 300;

describe('the QA runner', () => {
  let testApp: TestApp;
  let app: App;
  let admin: MemberRow;

  const serviceWith = (overrides: { qaUserName?: string } = {}) =>
    new QaService({ app, config: { ...testConfig(testApp.database), ...overrides }, events: app.events }, { checkTimeoutMs: TIMEOUT_MS, stragglerGraceMs: 5_000, pauseBetweenChecksMs: 0 });

  /** What the QA member holds anywhere: every count must be 0 after a run. */
  const qaLeftovers = async () => {
    const { db } = app.database;
    const member = await findMemberByKey(db, nameKey('QA Test User'));
    if (member === undefined) return undefined;
    const count = async (table: 'comments' | 'comment_votes' | 'sessions' | 'device_tokens' | 'pin_reset_requests') =>
      (await db.selectFrom(table).select('member_id').where('member_id', '=', member.id).execute()).length;
    return {
      comments: await count('comments'),
      votes: await count('comment_votes'),
      sessions: await count('sessions'),
      devices: await count('device_tokens'),
      pinResets: await count('pin_reset_requests'),
      locks: (await db.selectFrom('login_locks').select('name_key').where('name_key', '=', member.name_key).execute()).length,
      buckets: (
        await db
          .selectFrom('rate_limit_buckets')
          .select('key')
          .where((eb) => eb.or([eb('key', 'like', `%:member:${member.id}`), eb('key', 'like', `%:${QA_REMOTE_ADDRESS}`)]))
          .execute()
      ).length,
      summaries: (await db.selectFrom('ai_outputs').select('id').where('scope', '=', QA_TEST_COMPONENT_ID).execute()).length,
    };
  };
  const nothingLeft = { comments: 0, votes: 0, sessions: 0, devices: 0, pinResets: 0, locks: 0, buckets: 0, summaries: 0 };

  beforeAll(async () => {
    testApp = await createTestApp();
    app = testApp.app;
    await signInAs(app, 'Avery Admin');
    const row = await findMemberByKey(app.database.db, nameKey('Avery Admin'));
    if (row === undefined) throw new Error('no admin');
    admin = row;
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('reports a check that throws or overruns as failed with its reason, and still cleans up', { timeout: 60_000 }, async () => {
    const stragglerWrote: number[] = [];
    const suites: QaSuite[] = [
      {
        name: 'Comments',
        checks: [
          {
            name: 'writes, then throws',
            // Its own, generous limit: it must fail for its error, never for a slow machine.
            timeoutMs: 20_000,
            async run(context) {
              await postComment(context, context.unique('left by a broken check'));
              await context.call('POST', `/api/comments/${(await postComment(context, context.unique('voted'))).id}/vote`, { body: { voteType: 'thumbs_up' } });
              await context.newSession();
              await context.call('POST', '/api/forgot-pin', { session: null, body: { memberName: context.settings.qaName } });
              throw new Error('deliberately broken');
            },
          },
          {
            name: 'overruns, then writes',
            async run(context) {
              await sleep(TIMEOUT_MS * 2);
              stragglerWrote.push((await postComment(context, context.unique('written after the time limit'))).id);
            },
          },
          { name: 'cannot run here', timeoutMs: 20_000, run: () => Promise.resolve(skip('not in this build')) },
          { name: 'passes', timeoutMs: 20_000, run: () => Promise.resolve() },
        ],
      },
    ];

    const summary = await serviceWith().run(admin, { ip: '127.0.0.1' }, suites);
    expect(summary).toMatchObject({ passed: 1, failed: 2, skipped: 1, totalTests: 4, message: '1/4 tests passed (1 skipped)' });

    const latest = await serviceWith().latestResults();
    expect(latest.run).toMatchObject({ id: summary.runId, passed: 1, failed: 2, skipped: 1, totalTests: 4, runBy: 'Avery Admin' });
    expect(latest.results.map(({ testSuite, testName, status, reason }) => ({ testSuite, testName, status, reason }))).toEqual([
      { testSuite: 'Comments', testName: 'writes, then throws', status: 'failed', reason: 'deliberately broken' },
      { testSuite: 'Comments', testName: 'overruns, then writes', status: 'failed', reason: `timed out after ${TIMEOUT_MS} ms` },
      { testSuite: 'Comments', testName: 'cannot run here', status: 'skipped', reason: 'not in this build' },
      { testSuite: 'Comments', testName: 'passes', status: 'passed', reason: null },
    ]);

    // The overrunning check's late comment was waited for, then removed with everything else.
    expect(stragglerWrote).toHaveLength(1);
    expect(await qaLeftovers()).toEqual(nothingLeft);
    expect(await serviceWith().progress()).toMatchObject({ running: false });
  });

  it('fails every check with the reason when the QA name belongs to a real member, and changes nothing of theirs', async () => {
    await signInAs(app, 'Rita Real');
    const before = await findMemberByKey(app.database.db, nameKey('Rita Real'));
    const suites: QaSuite[] = [{ name: 'Database', checks: [{ name: 'never reached', run: () => Promise.resolve() }] }];

    const summary = await serviceWith({ qaUserName: 'Rita Real' }).run(admin, { ip: '127.0.0.1' }, suites);
    expect(summary).toMatchObject({ passed: 0, failed: 1, skipped: 0 });
    const [result] = (await serviceWith().latestResults()).results;
    expect(result?.reason).toMatch(/could not sign in as the QA member: Rita Real is a team member, not the QA user/);
    expect(await findMemberByKey(app.database.db, nameKey('Rita Real'))).toEqual(before);
  });

  it('refuses a run while another instance runs one, and takes over from a run whose heartbeat stopped', async () => {
    const { db } = app.database;
    const suites: QaSuite[] = [{ name: 'Database', checks: [{ name: 'passes', run: () => Promise.resolve() }] }];
    const otherRun = await claimRun(db, { runBy: 'Another Instance', totalSuites: 18, now: Date.now(), staleBefore: 0 });
    expect(otherRun).toBeDefined();

    const refused = await serviceWith()
      .run(admin, { ip: '127.0.0.1' }, suites)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ statusCode: 409, code: 'QA_RUN_IN_PROGRESS' });
    expect(await serviceWith().progress()).toMatchObject({ running: true, runBy: 'Another Instance', completedSuites: 0, totalSuites: 18 });

    // That instance died: once its heartbeat is older than the limit, the run counts as abandoned.
    await db
      .updateTable('qa_runs')
      .set({ heartbeat_at: Date.now() - QA_RUN_STALE_MS - 1000 })
      .where('id', '=', otherRun ?? 0)
      .execute();
    expect(await serviceWith().progress()).toMatchObject({ running: false });
    const summary = await serviceWith().run(admin, { ip: '127.0.0.1' }, suites);
    expect(summary.passed).toBe(1);
    const abandoned = await db.selectFrom('qa_runs').select('status').where('id', '=', otherRun ?? 0).executeTakeFirst();
    expect(abandoned?.status).toBe('abandoned');
    // Only finished runs are results: the abandoned one never shows.
    expect((await serviceWith().latestResults()).run?.id).toBe(summary.runId);
  });
});
