import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateSuggestionsResponseSchema, suggestionSchema, type Suggestion } from '../../../common/contract/ai.js';
import { apiErrorSchema } from '../../../common/contract/common.js';
import { commentCountsSchema } from '../../../common/contract/comments.js';
import type { App } from '../../http/types.js';
import { apiCall, signInAs, type SessionCookies } from '../../test/sign-in.js';
import { createTestApp, TEST_SECRETS, type TestApp } from '../../test/test-app.js';

/** What becomes of a suggestion: statuses, a declined one's reason, an action's owner and due day, done. */

const PASSWORD = TEST_SECRETS.adminPassword;

describe('suggestion outcomes', () => {
  let testApp: TestApp;
  let app: App;
  let owner: SessionCookies;
  let other: SessionCookies;
  let admin: SessionCookies;
  let suggestions: Suggestion[];

  const list = async (): Promise<Suggestion[]> => z.array(suggestionSchema).parse((await apiCall(app, 'GET', '/api/suggestions/with-votes', other)).json());
  const generate = async () => {
    // Generations within 10 s reuse the last one: age it.
    await app.database.db.updateTable('suggestion_generations').set((eb) => ({ finished_at: eb('finished_at', '-', 60_000), started_at: eb('started_at', '-', 60_000) })).execute();
    const response = await apiCall(app, 'POST', '/api/suggestions/generate', other);
    expect(response.statusCode, response.body).toBe(200);
    return generateSuggestionsResponseSchema.parse(response.json()).suggestions;
  };
  const setStatus = (cookies: SessionCookies, id: number, body: Record<string, unknown>) => apiCall(app, 'POST', `/api/suggestions/${id}/status`, cookies, { adminPassword: PASSWORD, ...body });
  const assign = (cookies: SessionCookies, id: number, body: Record<string, unknown>) => apiCall(app, 'POST', `/api/suggestions/${id}/owner`, cookies, { adminPassword: PASSWORD, ...body });
  const complete = (cookies: SessionCookies, id: number) => apiCall(app, 'POST', `/api/suggestions/${id}/done`, cookies, {});
  const message = (response: { json: () => unknown }) => apiErrorSchema.parse(response.json()).message;
  const idAt = (index: number) => suggestions[index]?.id ?? -1;

  beforeAll(async () => {
    testApp = await createTestApp();
    app = testApp.app;
    owner = await signInAs(app, 'Oskar Owner');
    other = await signInAs(app, 'Petra Other');
    admin = await signInAs(app, 'Avery Admin');
    for (const [componentId, content] of [
      ['agentic-triage', 'Add an approval gate before any automated severity change.'],
      ['recovery-verification', 'Verify recovery against the SLO before closing the incident.'],
      ['post-incident-review', 'Link every postmortem action to a ticket with an owner.'],
      ['event-correlation', 'Show why two alerts were grouped on the incident card.'],
      ['responder-engagement', 'Page the secondary on-call after ten minutes without an acknowledgement.'],
      ['change-events', 'Require a change record for every production deploy.'],
    ]) {
      expect((await apiCall(app, 'POST', '/api/comments', owner, { componentId, content })).statusCode).toBe(201);
    }
    suggestions = await generate();
    expect(suggestions.length).toBeGreaterThanOrEqual(4);
    expect(suggestions.every((suggestion) => suggestion.status === 'open' && suggestion.owner === null)).toBe(true);
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('moves a suggestion to accepted, gives the action an owner and a due day; the owner marks it done', async () => {
    const accepted = await setStatus(admin, idAt(0), { status: 'accepted' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(suggestionSchema.parse(accepted.json())).toMatchObject({ status: 'accepted', statusBy: 'Avery Admin', statusReason: null });

    const assigned = await assign(admin, idAt(0), { ownerName: '  oskar OWNER ', dueDate: '2026-12-31' });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(suggestionSchema.parse(assigned.json())).toMatchObject({ owner: 'Oskar Owner', dueDate: '2026-12-31' });

    // Each member is told what they may do with it: the owner completes, an admin does everything.
    const seenBy = async (cookies: SessionCookies) => {
      const listed = z.array(suggestionSchema).parse((await apiCall(app, 'GET', '/api/suggestions/with-votes', cookies)).json());
      const found = listed.find((suggestion) => suggestion.id === idAt(0));
      return found === undefined ? undefined : { mine: found.mine, ...found.permissions };
    };
    expect(await seenBy(owner)).toEqual({ mine: true, canSetStatus: false, canAssign: false, canComplete: true });
    expect(await seenBy(other)).toEqual({ mine: false, canSetStatus: false, canAssign: false, canComplete: false });
    expect(await seenBy(admin)).toEqual({ mine: false, canSetStatus: true, canAssign: true, canComplete: true });
    expect(await seenBy(owner)).toEqual({ mine: true, canSetStatus: false, canAssign: false, canComplete: true });

    // Someone else may not complete it; its owner may.
    expect((await complete(other, idAt(0))).statusCode).toBe(403);
    const done = await complete(owner, idAt(0));
    expect(done.statusCode, done.body).toBe(200);
    expect(suggestionSchema.parse(done.json())).toMatchObject({ status: 'done', statusBy: 'Oskar Owner', owner: 'Oskar Owner' });
    expect((await list()).find((suggestion) => suggestion.id === idAt(0))?.status).toBe('done');
    expect((await complete(owner, idAt(0))).statusCode).toBe(409);
    // The counts every page reads say how many actions there are and how many are done.
    const counts = commentCountsSchema.parse((await apiCall(app, 'GET', '/api/comments/counts', other)).json());
    expect(counts.actions).toEqual({ total: 1, done: 1 });
  });

  it('declines with a reason, never without one', async () => {
    const refused = await setStatus(admin, idAt(1), { status: 'declined' });
    expect(refused.statusCode).toBe(400);
    expect(message(refused)).toMatch(/Declining a suggestion needs a reason/);
    const declined = await setStatus(admin, idAt(1), { status: 'declined', reason: '  Covered by the SLO work already planned.  ' });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(suggestionSchema.parse(declined.json())).toMatchObject({ status: 'declined', statusReason: 'Covered by the SLO work already planned.' });
  });

  it('keeps statuses, reasons, owners and votes through a regeneration, and keeps decided suggestions listed', async () => {
    expect((await apiCall(app, 'POST', `/api/suggestions/${idAt(2)}/vote`, other, { voteType: 'thumbs_up' })).statusCode).toBe(200);
    await setStatus(admin, idAt(2), { status: 'in_progress' });
    // A comment that changes what the analyzer proposes; the decided suggestions stay whatever it says.
    expect((await apiCall(app, 'POST', '/api/comments', other, { componentId: 'event-correlation', content: 'Add a topology view to the correlation card.' })).statusCode).toBe(201);
    const after = await generate();
    const byId = new Map(after.map((suggestion) => [suggestion.id, suggestion]));
    expect(byId.get(idAt(0))).toMatchObject({ status: 'done', owner: 'Oskar Owner', dueDate: '2026-12-31' });
    expect(byId.get(idAt(1))).toMatchObject({ status: 'declined', statusReason: 'Covered by the SLO work already planned.' });
    expect(byId.get(idAt(2))).toMatchObject({ status: 'in_progress', votes: [{ memberName: 'Petra Other', voteType: 'thumbs_up' }] });
  });

  it('refuses members, wrong input and owners of suggestions not accepted, with a message', async () => {
    expect((await setStatus(other, idAt(3), { status: 'accepted' })).statusCode).toBe(403);
    expect((await assign(other, idAt(3), { ownerName: 'Petra Other' })).statusCode).toBe(403);
    const cases: Array<[() => Promise<{ statusCode: number; json: () => unknown }>, number, RegExp]> = [
      [() => setStatus(admin, idAt(3), { status: 'finished' }), 400, /status must be one of open, accepted, in_progress, done, declined/],
      [() => setStatus(admin, idAt(3), { status: 'accepted', adminPassword: 'wrong' }), 403, /admin password/i],
      [() => setStatus(admin, 999_999, { status: 'accepted' }), 404, /Suggestion not found/],
      [() => assign(admin, idAt(3), { ownerName: 'Petra Other' }), 409, /Accept the suggestion before it gets an owner/],
      [() => assign(admin, idAt(2), { ownerName: 'Nobody Known' }), 400, /No active member is named "Nobody Known"/],
      [() => assign(admin, idAt(2), { ownerName: 'Petra Other', dueDate: '31/12/2026' }), 400, /dueDate must be a day written YYYY-MM-DD/],
      [() => assign(admin, idAt(2), { ownerName: 'Petra Other', dueDate: '2026-02-30' }), 400, /dueDate is not a day of the calendar/],
      [() => complete(owner, idAt(3)), 403, /Only the owner or an admin/],
    ];
    for (const [call, status, expected] of cases) {
      const response = await call();
      expect(response.statusCode).toBe(status);
      expect(message(response)).toMatch(expected);
    }
    expect((await list()).find((suggestion) => suggestion.id === idAt(3))).toMatchObject({ status: 'open', owner: null });
  });

  it('lets an admin complete an action, and records completions in the audit trail', async () => {
    await setStatus(admin, idAt(3), { status: 'accepted' });
    await assign(admin, idAt(3), { ownerName: 'Petra Other', dueDate: null });
    const done = await complete(admin, idAt(3));
    expect(done.statusCode, done.body).toBe(200);
    const rows = await app.database.db.selectFrom('audit_log').select(['event', 'actor_name']).where('event', '=', 'action-completed').orderBy('id').execute();
    expect(rows).toEqual([
      { event: 'action-completed', actor_name: 'Oskar Owner' },
      { event: 'action-completed', actor_name: 'Avery Admin' },
    ]);
  });
});
