import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commentCountsSchema, commentSchema } from '../../../common/contract/comments.js';
import { apiErrorSchema } from '../../../common/contract/common.js';
import { decisionSchema, type Decision } from '../../../common/contract/decisions.js';
import { DECISION_RATIONALE_MAX_LENGTH } from '../../../common/limits.js';
import type { App } from '../../http/types.js';
import { createTestApp, TEST_SECRETS, type TestApp } from '../../test/test-app.js';
import { apiCall, signInAs, type SessionCookies } from '../../test/sign-in.js';

/** Decisions on components: who records them, what they rest on, how a new one supersedes the last. */

const COMPONENT = 'recovery-verification';
const OTHER = 'blast-radius-analysis';
const PASSWORD = TEST_SECRETS.adminPassword;

describe('decisions on a component', () => {
  let testApp: TestApp;
  let app: App;
  let member: SessionCookies;
  let admin: SessionCookies;

  beforeAll(async () => {
    testApp = await createTestApp();
    app = testApp.app;
    member = await signInAs(app, 'Noor Haddad');
    admin = await signInAs(app, 'Avery Admin');
  });
  afterAll(async () => {
    await testApp.close();
  });

  const comment = async (componentId: string, content: string) =>
    commentSchema.parse((await apiCall(app, 'POST', '/api/comments', member, { componentId, content })).json());
  const record = (cookies: SessionCookies, componentId: string, body: Record<string, unknown>) =>
    apiCall(app, 'POST', `/api/decisions/${componentId}`, cookies, { adminPassword: PASSWORD, ...body });
  const history = async (componentId: string): Promise<Decision[]> => {
    const response = await apiCall(app, 'GET', `/api/decisions/${componentId}`, member);
    expect(response.statusCode, response.body).toBe(200);
    return z.array(decisionSchema).parse(response.json());
  };
  const countOf = async (componentId: string) => commentCountsSchema.parse((await apiCall(app, 'GET', '/api/comments/counts', member)).json()).components[componentId];
  const message = (response: { json: () => unknown }) => apiErrorSchema.parse(response.json()).message;

  it('records a decision with its rationale and basis; a new one supersedes it and both stay readable', async () => {
    const first = await comment(COMPONENT, 'Verify recovery against the SLO, not only the alert clearing');
    const second = await comment(COMPONENT, 'And wait one full evaluation window before closing');
    expect(await history(COMPONENT)).toEqual([]);
    expect((await countOf(COMPONENT))?.decision).toBeNull();

    const accepted = await record(admin, COMPONENT, { outcome: 'accepted_with_changes', rationale: '  Accepted once the SLO check is in.  ', commentIds: [first.id, second.id, first.id] });
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(decisionSchema.parse(accepted.json())).toMatchObject({
      componentId: COMPONENT,
      outcome: 'accepted_with_changes',
      rationale: 'Accepted once the SLO check is in.',
      commentIds: [first.id, second.id],
      suggestionIds: [],
      decidedBy: 'Avery Admin',
    });
    expect((await countOf(COMPONENT))?.decision).toBe('accepted_with_changes');

    const rework = await record(admin, COMPONENT, { outcome: 'needs_rework', rationale: 'The SLO source is not decided yet.' });
    expect(rework.statusCode, rework.body).toBe(201);
    const decisions = await history(COMPONENT);
    expect(decisions.map((decision) => decision.outcome)).toEqual(['needs_rework', 'accepted_with_changes']);
    expect((await countOf(COMPONENT))?.decision).toBe('needs_rework');
  });

  it('lists a decided component without comments in the counts', async () => {
    const response = await record(admin, 'operational-history', { outcome: 'deferred', rationale: 'Waiting for the data retention review.' });
    expect(response.statusCode, response.body).toBe(201);
    expect(await countOf('operational-history')).toEqual({ open: 0, resolved: 0, decision: 'deferred' });
  });

  it('is refused to a member, and to an admin with a wrong password; nothing is written', async () => {
    const before = await history(OTHER);
    const byMember = await record(member, OTHER, { outcome: 'accepted', rationale: 'Looks fine to me' });
    expect(byMember.statusCode).toBe(403);
    const wrong = await record(admin, OTHER, { outcome: 'accepted', rationale: 'Fine', adminPassword: 'not-the-password' });
    expect(wrong.statusCode).toBe(403);
    expect(await history(OTHER)).toEqual(before);
  });

  it('answers bad input with a 4xx naming what is wrong, and writes nothing', async () => {
    const elsewhere = await comment(OTHER, 'A comment on another component');
    const cases: Array<[string, Record<string, unknown>, number, RegExp]> = [
      [OTHER, { outcome: 'accepted', rationale: '   ' }, 400, /needs a rationale/],
      [OTHER, { outcome: 'accepted' }, 400, /rationale/],
      [OTHER, { outcome: 'approved', rationale: 'ok' }, 400, /outcome must be one of accepted, accepted_with_changes, needs_rework, deferred/],
      [OTHER, { outcome: 'accepted', rationale: 'x'.repeat(DECISION_RATIONALE_MAX_LENGTH + 1) }, 400, /cannot be longer than 2000/],
      [OTHER, { outcome: 'accepted', rationale: 'ok', commentIds: 'all' }, 400, /commentIds|list of ids/],
      [OTHER, { outcome: 'accepted', rationale: 'ok', decidedBy: 'Someone' }, 400, /decidedBy|Unrecognized/i],
      [COMPONENT, { outcome: 'accepted', rationale: 'ok', commentIds: [elsewhere.id] }, 400, new RegExp(`Not comments on this component: ${elsewhere.id}`)],
      [COMPONENT, { outcome: 'accepted', rationale: 'ok', suggestionIds: [424_242] }, 400, /Not suggestions about this component: 424242/],
      ['no-such-component', { outcome: 'accepted', rationale: 'ok' }, 404, /Unknown component/],
    ];
    const before = await history(COMPONENT);
    for (const [componentId, body, status, expected] of cases) {
      const response = await record(admin, componentId, body);
      expect(response.statusCode, `${JSON.stringify(body)}: ${response.body}`).toBe(status);
      expect(message(response)).toMatch(expected);
    }
    expect(await history(COMPONENT)).toEqual(before);
    expect(await history(OTHER)).toEqual([]);
  });

  it('writes each decision to the audit trail', async () => {
    await record(admin, OTHER, { outcome: 'accepted', rationale: 'Blast radius is bounded by the topology service.' });
    const row = await app.database.db.selectFrom('audit_log').select(['event', 'actor_name', 'detail']).where('detail', '=', `decided ${OTHER}: Accepted as is`).executeTakeFirst();
    expect(row).toEqual({ event: 'admin-action', actor_name: 'Avery Admin', detail: `decided ${OTHER}: Accepted as is` });
  });
});
