import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentSummarySchema, generateSuggestionsResponseSchema, narrativeSummarySchema, type CommentSummary } from '../../../common/contract/ai.js';
import { commentSchema } from '../../../common/contract/comments.js';
import { decisionSchema } from '../../../common/contract/decisions.js';
import type { App } from '../../http/types.js';
import { createTestApp, TEST_SECRETS, type TestApp } from '../../test/test-app.js';
import { apiCall, signInAs, type SessionCookies } from '../../test/sign-in.js';

/**
 * The AI reads what the team settled: a resolved comment, or one a decision rests on, is no open
 * point of a component's summary; a decided suggestion is no live theme, action or conflict of the
 * narrative; both answers carry the decisions they cite, and change when a decision or a
 * resolution does.
 */

const COMPONENT = 'approved-automation';
const PASSWORD = TEST_SECRETS.adminPassword;

describe('the AI reading outcomes', () => {
  let testApp: TestApp;
  let app: App;
  let rosa: SessionCookies;
  let tomas: SessionCookies;
  let admin: SessionCookies;

  beforeAll(async () => {
    testApp = await createTestApp();
    app = testApp.app;
    rosa = await signInAs(app, 'Rosa Lindqvist');
    tomas = await signInAs(app, 'Tomas Berger');
    admin = await signInAs(app, 'Avery Admin');
  });
  afterAll(async () => {
    await testApp.close();
  });

  const post = async (cookies: SessionCookies, componentId: string, content: string) => {
    const response = await apiCall(app, 'POST', '/api/comments', cookies, { componentId, content });
    expect(response.statusCode, response.body).toBe(201);
    return commentSchema.parse(response.json()).id;
  };
  const summary = async (): Promise<CommentSummary> => {
    const response = await apiCall(app, 'GET', `/api/comments/${COMPONENT}/summary`, tomas);
    expect(response.statusCode, response.body).toBe(200);
    return commentSummarySchema.parse(response.json());
  };
  const decide = async (componentId: string, body: Record<string, unknown>) => {
    const response = await apiCall(app, 'POST', `/api/decisions/${componentId}`, admin, { adminPassword: PASSWORD, ...body });
    expect(response.statusCode, response.body).toBe(201);
    return decisionSchema.parse(response.json());
  };
  const cited = (read: CommentSummary) => [...read.sources.keyThemes.flat(), ...read.sources.contentChanges, ...read.sources.structuralChanges];

  it('reads only open comments in a summary, carries the decision, and follows a reopen', async () => {
    const gate = await post(rosa, COMPONENT, 'Every automated runbook step needs a dry run mode before it touches production.');
    const rollback = await post(tomas, COMPONENT, 'Each runbook should ship with a tested rollback, owned by the service team.');
    const audit = await post(rosa, COMPONENT, 'Log every runbook execution with who approved it, for the audit trail.');

    const before = await summary();
    expect(before.outcome).toEqual({ decision: null, settledIds: [], resolvedCount: 0 });
    // Before anything is settled, it reads (and cites) more than the one comment that stays open.
    expect(cited(before).some((id) => id !== audit)).toBe(true);

    expect((await apiCall(app, 'POST', `/api/comments/${rollback}/resolve`, tomas, { note: 'Rollbacks are in the template now' })).statusCode).toBe(200);
    const decision = await decide(COMPONENT, { outcome: 'accepted_with_changes', rationale: 'Dry runs first, as the team asked', commentIds: [gate] });

    const after = await summary();
    expect(after.outcome.decision).toEqual(decision);
    expect([...after.outcome.settledIds].sort()).toEqual([gate, rollback].sort());
    expect(after.outcome.resolvedCount).toBe(1);
    // Every comment is still listed (the panel compares them); only the open one is read.
    expect([...after.commentIds].sort()).toEqual([gate, rollback, audit].sort());
    expect(cited(after)).toContain(audit);
    expect(cited(after).every((id) => id === audit)).toBe(true);
    expect(after.generatedBy.inputHash).not.toBe(before.generatedBy.inputHash);

    // Reopened, it is an open point again, at once (the kept answer was dropped by the change).
    expect((await apiCall(app, 'POST', `/api/comments/${rollback}/reopen`, rosa, {})).statusCode).toBe(200);
    const reopened = await summary();
    expect(reopened.outcome.settledIds).toEqual([gate]);
    expect(cited(reopened)).toContain(rollback);
  });

  it('says nothing remains open when every comment is settled, not that there are none', async () => {
    const componentId = 'operational-history';
    const only = await post(rosa, componentId, 'Runbooks and known errors belong in one searchable place.');
    await decide(componentId, { outcome: 'accepted', rationale: 'Kept as designed', commentIds: [only] });
    const response = await apiCall(app, 'GET', `/api/comments/${componentId}/summary`, tomas);
    const read = commentSummarySchema.parse(response.json());
    expect(read.understanding).toMatch(/is settled \(resolved, or a basis of the decision\), so no open point remains/);
    expect(read.outcome.decision?.outcome).toBe('accepted');
  });

  it('leaves decided suggestions out of the narrative and cites the decisions', async () => {
    for (const [componentId, content] of [
      ['agentic-triage', 'Add an approval gate before any automated severity change.'],
      ['recovery-verification', 'Verify recovery against the SLO before closing the incident.'],
      ['post-incident-review', 'Link every postmortem action to a ticket with an owner.'],
      ['event-correlation', 'Show why two alerts were grouped on the incident card.'],
    ] as const) {
      await post(rosa, componentId, content);
    }
    const generated = await apiCall(app, 'POST', '/api/suggestions/generate', tomas);
    expect(generated.statusCode, generated.body).toBe(200);
    const suggestions = generateSuggestionsResponseSchema.parse(generated.json()).suggestions;
    const [declined, accepted] = suggestions;
    if (declined === undefined || accepted === undefined) throw new Error('expected two suggestions at least');

    const narrative = async () => narrativeSummarySchema.parse((await apiCall(app, 'GET', '/api/suggestions/narrative-summary', tomas)).json());
    const first = await narrative();
    expect(first.suggestionCount).toBe(suggestions.length);
    expect(first.outcome.settledSuggestionCount).toBe(0);

    const setStatus = (id: number, body: Record<string, unknown>) => apiCall(app, 'POST', `/api/suggestions/${id}/status`, admin, { adminPassword: PASSWORD, ...body });
    expect((await setStatus(declined.id, { status: 'declined', reason: 'Out of scope for this round' })).statusCode).toBe(200);
    expect((await setStatus(accepted.id, { status: 'accepted' })).statusCode).toBe(200);

    const after = await narrative();
    expect(after.suggestionCount).toBe(suggestions.length - 2);
    expect(after.outcome.settledSuggestionCount).toBe(2);
    const citedSuggestions = [...after.keyThemes, ...after.actionItems, ...after.conflicts].flatMap((item) => item.sources);
    expect(citedSuggestions).not.toContain(declined.id);
    expect(citedSuggestions).not.toContain(accepted.id);
    // The decisions recorded so far are carried, newest last, each citable by its id.
    expect(after.outcome.decisions.map((decision) => decision.componentId)).toEqual([COMPONENT, 'operational-history']);
  });
});
