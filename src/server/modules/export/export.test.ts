import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentSchema } from '../../../common/contract/comments.js';
import { apiErrorSchema } from '../../../common/contract/common.js';
import { QA_TEST_COMPONENT_ID } from '../../../common/api/architecture.js';
import type { App } from '../../http/types.js';
import { apiCall, signInAs, type SessionCookies } from '../../test/sign-in.js';
import { createTestApp, TEST_SECRETS, type TestApp } from '../../test/test-app.js';
import { csvCell } from './export.js';

/** The review exported as Markdown and CSV: what it holds, what it never holds, and how it is served. */

describe('exporting the review', () => {
  let testApp: TestApp;
  let app: App;
  let member: SessionCookies;
  let admin: SessionCookies;
  let qa: SessionCookies;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    testApp = await createTestApp();
    app = testApp.app;
    member = await signInAs(app, 'Mira Export');
    admin = await signInAs(app, 'Avery Admin');
    qa = await signInAs(app, 'Quinn Selftest');
    await app.database.db.updateTable('members').set({ is_qa: 1 }).where('full_name', '=', 'Quinn Selftest').execute();
    const post = async (cookies: SessionCookies, componentId: string, content: string) => {
      const response = await apiCall(app, 'POST', '/api/comments', cookies, { componentId, content });
      expect(response.statusCode, response.body).toBe(201);
      return commentSchema.parse(response.json()).id;
    };
    ids.open = await post(member, 'recovery-verification', 'Verify recovery against the SLO, "not" only the alert, clearing');
    ids.resolved = await post(member, 'recovery-verification', '=HYPERLINK("http://x") and <b>bold</b>\nsecond line');
    ids.qa = await post(qa, 'recovery-verification', 'A self-test comment nobody may export');
    ids.scratch = await post(qa, QA_TEST_COMPONENT_ID, 'Scratch component comment');
    expect((await apiCall(app, 'POST', `/api/comments/${ids.open}/vote`, admin, { voteType: 'thumbs_up' })).statusCode).toBe(200);
    expect((await apiCall(app, 'POST', `/api/comments/${ids.open}/vote`, qa, { voteType: 'thumbs_down' })).statusCode).toBe(200);
    expect((await apiCall(app, 'POST', `/api/comments/${ids.resolved}/resolve`, member, { note: 'Covered by the SLO check' })).statusCode).toBe(200);
    const decided = await apiCall(app, 'POST', '/api/decisions/recovery-verification', admin, {
      outcome: 'accepted_with_changes',
      rationale: 'Accepted once the SLO check is in.',
      adminPassword: TEST_SECRETS.adminPassword,
    });
    expect(decided.statusCode, decided.body).toBe(201);
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('writes Markdown per component: description, decision, open and resolved comments with authors and votes', async () => {
    const response = await apiCall(app, 'GET', '/api/export/review.md', member);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="architecture-review-\d{4}-\d{2}-\d{2}\.md"$/);
    expect(response.headers['cache-control']).toBe('no-store');
    const text = response.body;
    expect(text).toMatch(/^# Architecture review\n/);
    expect(text).toContain('## Recovery Verification');
    expect(text).toContain('**Decision:** Accepted with changes, by Avery Admin on');
    expect(text).toContain('Accepted once the SLO check is in.');
    expect(text).toContain('### Open comments\n\n- **Mira Export** (comment, ');
    // The QA member's vote is not counted, nor their comments written.
    expect(text).toContain('+1 / −0): Verify recovery against the SLO, "not" only the alert, clearing');
    expect(text).toContain('### Resolved comments');
    expect(text).toContain('=HYPERLINK("http://x") and &lt;b>bold&lt;/b>\n  second line\n  _Resolved by Mira Export on');
    expect(text).toContain(': Covered by the SLO check_');
    expect(text).not.toContain('self-test');
    expect(text).not.toContain('Scratch component');
    expect(text).toContain('**Decision:** none yet.');
    expect(text).toContain('## Suggestions by status');
    expect(text).toContain('## Actions');
    expect(text).toContain('## Open conflicts');
    // Nothing of a secret or a session.
    for (const secret of Object.values(TEST_SECRETS)) expect(text).not.toContain(secret);
    for (const cookie of Object.values(member)) expect(text).not.toContain(cookie);
  });

  it('writes CSV: one row per comment, cells quoted and never a formula, without the QA member', async () => {
    const response = await apiCall(app, 'GET', '/api/export/review.csv?kind=comments', member);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/filename="architecture-review-comments-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = response.body.split('\r\n');
    expect(lines[0]).toBe('id,component_id,component,kind,author,created_at,status,resolved_by,resolution_note,up_votes,down_votes,text');
    const exported = await app.database.db.selectFrom('comments').select('id').where('member_id', 'in', (eb) => eb.selectFrom('members').select('id').where('is_qa', '=', 0)).execute();
    // One row per comment (a comment with a line break spans two lines inside its quotes).
    expect(response.body.match(/\r\n\d+,/g)?.length).toBe(exported.length);
    expect(response.body).toContain(`${ids.open},recovery-verification,Recovery Verification,comment,Mira Export,`);
    expect(response.body).toContain(',open,,,1,0,"Verify recovery against the SLO, ""not"" only the alert, clearing"');
    expect(response.body).toContain(`,resolved,Mira Export,Covered by the SLO check,0,0,"'=HYPERLINK(""http://x"") and <b>bold</b>\nsecond line"`);
    expect(response.body).not.toContain('self-test');
  });

  it('writes the suggestions and the actions as CSV too, each with its header', async () => {
    for (const [kind, header] of [
      ['suggestions', 'id,suggestion,components,status,status_reason,up_votes,down_votes,owner,due_date'],
      ['actions', 'id,action,components,owner,due_date,status'],
    ] as const) {
      const response = await apiCall(app, 'GET', `/api/export/review.csv?kind=${kind}`, member);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.body.split('\r\n')[0]).toBe(header);
    }
  });

  it('answers a wrong kind with a 400 naming the choices, and a stranger with a 401', async () => {
    const wrong = await apiCall(app, 'GET', '/api/export/review.csv?kind=votes', member);
    expect(wrong.statusCode).toBe(400);
    expect(apiErrorSchema.parse(wrong.json()).message).toMatch(/kind must be one of comments, suggestions, actions/);
    expect((await apiCall(app, 'GET', '/api/export/review.csv', member)).statusCode).toBe(400);
    expect((await apiCall(app, 'GET', '/api/export/review.md', undefined)).statusCode).toBe(401);
  });

  it('quotes CSV cells as RFC 4180 asks and defuses formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    for (const formula of ['=1+1', '+1', '-1', '@SUM(A1)']) expect(csvCell(formula).startsWith("'")).toBe(true);
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(null)).toBe('');
  });
});
