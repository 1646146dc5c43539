import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QA_TEST_COMPONENT_ID } from '../../../common/api/architecture.js';
import { qaRoutes } from '../../../common/api/qa.js';
import { commentSchema } from '../../../common/contract/comments.js';
import { qaResultsSchema, qaRunSummarySchema } from '../../../common/contract/qa.js';
import type { App } from '../../http/types.js';
import { apiCall, signInAs, type SessionCookies } from '../../test/sign-in.js';
import { createTestApp, TEST_SECRETS, type TestApp } from '../../test/test-app.js';
import { missedTimeOnly } from '../../test/qa-results.js';

/**
 * The self-test changes no real data: a team's comments, votes, suggestions, error reports, PIN
 * requests, AI outputs, sessions and locks are byte for byte the same after a full run. Only the
 * tables that record the run itself (qa_runs, qa_results, the audit trail) and the rate-limit
 * counters may change, and the QA member's own row.
 */

const UNCHECKED_TABLES = new Set(['audit_log', 'qa_runs', 'qa_results', 'rate_limit_buckets']);

interface TableSnapshot {
  rows: number;
  sha256: string;
}

describe('the QA self-test leaves real data alone', () => {
  let testApp: TestApp;
  let app: App;

  beforeAll(async () => {
    testApp = await createTestApp();
    app = testApp.app;
  });
  afterAll(async () => {
    await testApp.close();
  });

  /** Every table's row count and a hash of its sorted rows; the QA member's own row left out. */
  const snapshot = async (): Promise<Record<string, TableSnapshot>> => {
    const { db } = app.database;
    const tables = (await db.introspection.getTables()).map((table) => table.name).filter((name) => !UNCHECKED_TABLES.has(name));
    expect(tables).toEqual(expect.arrayContaining(['comments', 'comment_votes', 'members', 'sessions', 'suggestions', 'suggestion_votes', 'error_logs', 'pin_reset_requests', 'ai_outputs']));
    const result: Record<string, TableSnapshot> = {};
    for (const table of tables.sort()) {
      const rows = await db.selectFrom(table as 'comments').selectAll().execute();
      const real = table === 'members' ? rows.filter((row) => (row as unknown as { is_qa: number }).is_qa !== 1) : rows;
      const lines = real.map((row) => JSON.stringify(Object.entries(row).sort(([a], [b]) => a.localeCompare(b)))).sort();
      result[table] = { rows: lines.length, sha256: createHash('sha256').update(lines.join('\n')).digest('hex') };
    }
    return result;
  };

  const post = async (cookies: SessionCookies, componentId: string, content: string, kind: 'comment' | 'proposal' = 'comment') => {
    const response = await apiCall(app, 'POST', '/api/comments', cookies, { componentId, content, kind });
    expect(response.statusCode, response.body).toBe(201);
    return commentSchema.parse(response.json()).id;
  };
  const vote = async (cookies: SessionCookies, url: string, voteType: string) => {
    const response = await apiCall(app, 'POST', url, cookies, { voteType });
    expect(response.statusCode, response.body).toBe(200);
  };

  it('a full run changes no table but its own', { timeout: 120_000 }, async () => {
    const admin = await signInAs(app, 'Avery Admin');
    const alice = await signInAs(app, 'Alice Martin');
    const bob = await signInAs(app, 'Bob Okafor');
    const carol = await signInAs(app, 'Carol Nguyen');

    // Comments and proposals on real components, and one real comment on the hidden QA component:
    // members can no longer post there, but a database from before that rule may hold one.
    const triage = await post(alice, 'agentic-triage', 'Triage agents should attach the alert timeline to every ticket.');
    const proposal = await post(bob, 'root-cause-analysis', 'Keep the hypotheses the agent rejected, with the query behind each.', 'proposal');
    await post(alice, 'root-cause-analysis', 'Who owns evidence retention?');
    const { db } = app.database;
    const carolId = (await db.selectFrom('members').select('id').where('full_name', '=', 'Carol Nguyen').executeTakeFirstOrThrow()).id;
    const onQa = (
      await db
        .insertInto('comments')
        .values({ component_id: QA_TEST_COMPONENT_ID, content: 'A real member wrote on the hidden component.', member_id: carolId, member_name: 'Carol Nguyen', created_at: Date.now() })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await vote(bob, `/api/comments/${triage}/vote`, 'thumbs_up');
    await vote(carol, `/api/comments/${triage}/vote`, 'thumbs_down');
    await vote(alice, `/api/comments/${proposal}/vote`, 'thumbs_up');
    // Members cannot vote there any more either; such a database may hold a vote from before.
    const aliceId = (await db.selectFrom('members').select('id').where('full_name', '=', 'Alice Martin').executeTakeFirstOrThrow()).id;
    await db.insertInto('comment_votes').values({ comment_id: onQa, member_id: aliceId, member_name: 'Alice Martin', vote_type: 'thumbs_up', created_at: Date.now() }).execute();

    // A stored AI summary of a real component.
    const summary = await apiCall(app, 'GET', '/api/comments/agentic-triage/summary', alice);
    expect(summary.statusCode, summary.body).toBe(200);

    // Suggestions of a finished generation, with votes.
    const now = Date.now();
    const generation = await db
      .insertInto('suggestion_generations')
      .values({ status: 'done', started_at: now, finished_at: now, requested_by: 'Alice Martin', comment_count: 3, created: 2 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const suggestions = await db
      .insertInto('suggestions')
      .values(
        ['Attach the alert timeline to tickets', 'Keep rejected hypotheses'].map((text, rank) => ({
          suggestion: text,
          recommendation_type: 'content' as const,
          components: JSON.stringify(['agentic-triage']),
          member_initials: JSON.stringify(['AM']),
          sources: JSON.stringify([triage]),
          rank,
          generation_id: generation.id,
          created_at: now,
          updated_at: now,
        })),
      )
      .returning('id')
      .execute();
    for (const [index, suggestion] of suggestions.entries()) await vote(index === 0 ? bob : carol, `/api/suggestions/${suggestion.id}/vote`, 'thumbs_up');

    // Error reports (one repeated, so it has a count), a PIN request, a wrong PIN that counts toward a lock.
    const report = { source: 'frontend', errorType: 'javascript_error', message: 'TypeError: x is undefined', severity: 'high' };
    for (const cookies of [alice, bob]) expect((await apiCall(app, 'POST', '/api/errors/log', cookies, report)).statusCode).toBe(201);
    expect((await apiCall(app, 'POST', '/api/errors/log', undefined, { ...report, message: 'Chunk failed to load' })).statusCode).toBe(201);
    expect((await apiCall(app, 'POST', '/api/forgot-pin', undefined, { memberName: 'Bob Okafor' })).statusCode).toBe(200);
    const wrongPin = await apiCall(app, 'POST', '/api/login', undefined, { password: TEST_SECRETS.teamPassword, name: 'Carol Nguyen', pin: '9753' });
    expect(wrongPin.statusCode).toBe(401);

    const before = await snapshot();
    expect(before.comments?.rows).toBe(4);
    expect(before.comment_votes?.rows).toBe(4);
    expect(before.suggestion_votes?.rows).toBe(2);
    expect(before.error_logs?.rows).toBe(2);
    expect(before.pin_reset_requests?.rows).toBe(1);
    expect(before.login_locks?.rows).toBe(1);

    const response = await apiCall(app, 'POST', qaRoutes.runTests.path, admin);
    expect(response.statusCode, response.body).toBe(200);
    qaRunSummarySchema.parse(response.json());
    const results = qaResultsSchema.parse((await apiCall(app, 'GET', `${qaRoutes.testResults.path}?latest=true`, admin)).json()).results;
    expect(results.filter((result) => result.status === 'failed' && !missedTimeOnly(result)).map((result) => `${result.testName}: ${result.reason ?? ''}`)).toEqual([]);

    const after = await snapshot();
    expect(after).toEqual(before);
    // The run did run as a member of the team, and recorded itself.
    expect(await db.selectFrom('members').select('full_name').where('is_qa', '=', 1).execute()).toEqual([{ full_name: 'QA Test User' }]);
    expect((await db.selectFrom('qa_results').select('id').execute()).length).toBeGreaterThan(40);
  });
});
