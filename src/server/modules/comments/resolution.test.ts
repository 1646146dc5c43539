import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commentCountsSchema, commentSchema, type Comment } from '../../../common/contract/comments.js';
import { apiErrorSchema } from '../../../common/contract/common.js';
import { RESOLUTION_NOTE_MAX_LENGTH } from '../../../common/limits.js';
import type { App } from '../../http/types.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { apiCall, signInAs, type SessionCookies } from '../../test/sign-in.js';

/** Resolving and reopening a comment: who may, what it keeps, what it counts, what the trail says. */

const COMPONENT = 'remediation-plan';

describe('resolving a comment', () => {
  let testApp: TestApp;
  let app: App;
  let author: SessionCookies;
  let teammate: SessionCookies;
  let admin: SessionCookies;

  beforeAll(async () => {
    testApp = await createTestApp();
    app = testApp.app;
    author = await signInAs(app, 'Rosa Lindqvist');
    teammate = await signInAs(app, 'Tomas Berger');
    admin = await signInAs(app, 'Avery Admin');
  });
  afterAll(async () => {
    await testApp.close();
  });

  const post = async (cookies: SessionCookies, content: string): Promise<Comment> => {
    const response = await apiCall(app, 'POST', '/api/comments', cookies, { componentId: COMPONENT, content });
    expect(response.statusCode, response.body).toBe(201);
    return commentSchema.parse(response.json());
  };
  const resolve = (cookies: SessionCookies, id: number | string, body: unknown = {}) => apiCall(app, 'POST', `/api/comments/${id}/resolve`, cookies, body);
  const reopen = (cookies: SessionCookies, id: number | string) => apiCall(app, 'POST', `/api/comments/${id}/reopen`, cookies, {});
  const listed = async (id: number) => {
    const response = await apiCall(app, 'GET', `/api/comments/${COMPONENT}/with-votes`, teammate);
    return z.array(commentSchema).parse(response.json()).find((comment) => comment.id === id);
  };
  const counts = async () => commentCountsSchema.parse((await apiCall(app, 'GET', '/api/comments/counts', teammate)).json()).components[COMPONENT] ?? { open: 0, resolved: 0, decision: null };
  const error = (response: { json: () => unknown }) => apiErrorSchema.parse(response.json());

  it('lets the author resolve with a note; it keeps its votes, counts apart, and anyone reopens it', async () => {
    const comment = await post(author, 'Give every remediation step a rollback');
    expect((await apiCall(app, 'POST', `/api/comments/${comment.id}/vote`, teammate, { voteType: 'thumbs_up' })).statusCode).toBe(200);
    const before = await counts();

    const resolved = await resolve(author, comment.id, { note: '  Covered by the rollback column  ' });
    expect(resolved.statusCode, resolved.body).toBe(200);
    const answer = commentSchema.parse(resolved.json());
    expect(answer.resolution).toMatchObject({ by: 'Rosa Lindqvist', note: 'Covered by the rollback column' });
    expect(answer.votes).toEqual([{ memberName: 'Tomas Berger', voteType: 'thumbs_up' }]);
    // The next read of another member shows it, from the kept answers too.
    expect((await listed(comment.id))?.resolution?.note).toBe('Covered by the rollback column');
    expect(await counts()).toEqual({ open: before.open - 1, resolved: before.resolved + 1, decision: null });

    const reopened = await reopen(teammate, comment.id);
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(commentSchema.parse(reopened.json()).resolution).toBeNull();
    expect((await listed(comment.id))?.votes).toHaveLength(1);
    expect(await counts()).toEqual(before);
  });

  it('tells each member what they may do with a comment: the author and an admin resolve, the author alone deletes', async () => {
    const comment = await post(author, 'Keep the remediation dry run for a week');
    const seenBy = async (cookies: SessionCookies) => {
      const response = await apiCall(app, 'GET', `/api/comments/${COMPONENT}/with-votes`, cookies);
      const found = z.array(commentSchema).parse(response.json()).find((listedComment) => listedComment.id === comment.id);
      return found === undefined ? undefined : { mine: found.mine, ...found.permissions };
    };
    expect(await seenBy(author)).toEqual({ mine: true, canResolve: true, canReopen: true, canDelete: true });
    expect(await seenBy(teammate)).toEqual({ mine: false, canResolve: false, canReopen: true, canDelete: false });
    expect(await seenBy(admin)).toEqual({ mine: false, canResolve: true, canReopen: true, canDelete: false });
    // Read again from the kept answer, each still gets their own.
    expect(await seenBy(teammate)).toEqual({ mine: false, canResolve: false, canReopen: true, canDelete: false });
    // The resolve and reopen answers are the caller's too.
    const resolved = commentSchema.parse((await resolve(admin, comment.id)).json());
    expect([resolved.mine, resolved.permissions.canDelete]).toEqual([false, false]);
    const reopened = commentSchema.parse((await reopen(author, comment.id)).json());
    expect([reopened.mine, reopened.permissions.canDelete]).toEqual([true, true]);
  });

  it('records a blank note as none', async () => {
    const comment = await post(author, 'Name an owner for the runbook catalogue');
    const response = await resolve(author, comment.id, { note: ' \n ' });
    expect(commentSchema.parse(response.json()).resolution?.note).toBeNull();
    const bare = await post(author, 'And a review date');
    expect(commentSchema.parse((await resolve(author, bare.id)).json()).resolution?.note).toBeNull();
  });

  it("refuses a teammate resolving someone else's comment, and lets an admin", async () => {
    const comment = await post(author, 'Dry-run every automated step first');
    const refused = await resolve(teammate, comment.id, { note: 'I think this is done' });
    expect(refused.statusCode).toBe(403);
    expect(error(refused)).toMatchObject({ code: 'NOT_AUTHOR', message: 'Only the author or an admin can resolve this comment' });
    expect((await listed(comment.id))?.resolution).toBeNull();

    const byAdmin = await resolve(admin, comment.id);
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(commentSchema.parse(byAdmin.json()).resolution?.by).toBe('Avery Admin');
  });

  it('answers 409 when it is already in the state asked for, and changes nothing', async () => {
    const comment = await post(author, 'Keep approvals for production changes');
    expect((await reopen(author, comment.id)).statusCode).toBe(409);
    expect((await resolve(author, comment.id, { note: 'first' })).statusCode).toBe(200);
    const again = await resolve(admin, comment.id, { note: 'second' });
    expect(again.statusCode).toBe(409);
    expect(error(again)).toMatchObject({ code: 'COMMENT_RESOLVED', message: 'This comment is already resolved' });
    expect((await listed(comment.id))?.resolution).toMatchObject({ by: 'Rosa Lindqvist', note: 'first' });
  });

  it('answers bad input with a 4xx and a message, never half-writing', async () => {
    const comment = await post(author, 'Limit concurrent remediations per service');
    const cases: Array<[number | string, unknown, number, RegExp]> = [
      [comment.id, { note: 'x'.repeat(RESOLUTION_NOTE_MAX_LENGTH + 1) }, 400, /Note cannot be longer than 500 characters/],
      [comment.id, { note: 'bell\u0007' }, 400, /Note/],
      [comment.id, { note: 42 }, 400, /note/],
      [comment.id, { note: 'ok', resolvedBy: 'Someone Else' }, 400, /resolvedBy|Unrecognized/i],
      ['1e3', {}, 400, /positive whole number/],
      [999_999, {}, 404, /Comment not found/],
    ];
    for (const [id, body, status, message] of cases) {
      const response = await resolve(author, id, body);
      expect(response.statusCode, `${String(id)} ${JSON.stringify(body)}: ${response.body}`).toBe(status);
      expect(error(response).message).toMatch(message);
    }
    expect((await listed(comment.id))?.resolution).toBeNull();

    // A deleted comment is gone for both calls.
    expect((await apiCall(app, 'DELETE', `/api/comments/${comment.id}`, author)).statusCode).toBe(204);
    expect((await resolve(author, comment.id)).statusCode).toBe(404);
    expect((await reopen(author, comment.id)).statusCode).toBe(404);
  });

  it('writes every resolve and reopen to the audit trail, with who and which comment', async () => {
    const comment = await post(author, 'Publish the remediation audit log');
    await resolve(author, comment.id, { note: 'done' });
    await reopen(teammate, comment.id);
    const rows = await app.database.db
      .selectFrom('audit_log')
      .select(['event', 'outcome', 'actor_name', 'detail'])
      .where('detail', '=', `comment ${comment.id} on ${COMPONENT}`)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { event: 'comment-resolved', outcome: 'success', actor_name: 'Rosa Lindqvist', detail: `comment ${comment.id} on ${COMPONENT}` },
      { event: 'comment-reopened', outcome: 'success', actor_name: 'Tomas Berger', detail: `comment ${comment.id} on ${COMPONENT}` },
    ]);
  });
});
