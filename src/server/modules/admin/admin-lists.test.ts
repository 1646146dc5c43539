import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../../common/api/index.js';
import { buildPath } from '../../../common/api/route.js';
import { aiPromptSchema } from '../../../common/contract/ai.js';
import { errorLogEntrySchema } from '../../../common/contract/error-reports.js';
import type { App } from '../../http/types.js';
import { useAdminAndMember } from '../../test/admin-app.js';
import { expectApiError } from '../../test/api-errors.js';
import { baseUrlOf, closeOpenStreams, openStream } from '../../test/event-stream.js';
import { apiCall, signInAs, type SessionCookies } from '../../test/sign-in.js';
import { TEST_SECRETS } from '../../test/test-app.js';

/** The admin's error logs and prompt history, and the admin-only events that keep the panel live. */

const PASSWORD = TEST_SECRETS.adminPassword;
const REPORT = { source: 'frontend', errorType: 'javascript_error', severity: 'high', message: 'x is undefined' } as const;

afterEach(() => {
  closeOpenStreams();
});

describe('admin lists', () => {
  const fixture = useAdminAndMember({ listen: true });
  let app: App;
  let admin: SessionCookies;
  let member: SessionCookies;
  beforeAll(() => {
    ({ app, admin, member } = fixture);
  });

  const errors = async (route: typeof routes.errorReports.list | typeof routes.errorReports.unresolved) =>
    errorLogEntrySchema.array().parse((await apiCall(app, 'GET', route.path, admin)).json());

  describe('error logs', () => {
    it('lists reports grouped with their count, the reporter, and the message as sent', async () => {
      for (let i = 0; i < 3; i += 1) await apiCall(app, 'POST', routes.errorReports.create.path, member, REPORT);
      await apiCall(app, 'POST', routes.errorReports.create.path, undefined, { ...REPORT, message: '<img src=x onerror=alert(1)>', severity: 'critical' });
      const all = await errors(routes.errorReports.list);
      expect(all.find((entry) => entry.message === 'x is undefined')).toMatchObject({ occurrences: 3, memberName: 'Morgan Member', resolved: false, severity: 'high' });
      expect(all.find((entry) => entry.severity === 'critical')).toMatchObject({ message: '<img src=x onerror=alert(1)>', memberName: null });
      expect((await errors(routes.errorReports.unresolved)).length).toBe(2);
    });

    it('marks an entry resolved once, leaving it out of the unresolved list; unknown ids are 404; members are refused', async () => {
      const [first] = await errors(routes.errorReports.unresolved);
      if (first === undefined) throw new Error('nothing unresolved');
      const path = buildPath(routes.errorReports.resolve.path, { id: first.id });
      expectApiError(await apiCall(app, 'PATCH', path, member), 403, 'ADMIN_ONLY');
      const resolved = await apiCall(app, 'PATCH', path, admin);
      expect(resolved.statusCode, resolved.body).toBe(200);
      expect(errorLogEntrySchema.parse(resolved.json())).toMatchObject({ id: first.id, resolved: true, resolvedBy: 'Avery Admin' });
      expect((await errors(routes.errorReports.unresolved)).map((entry) => entry.id)).not.toContain(first.id);
      expect((await apiCall(app, 'PATCH', path, admin)).statusCode).toBe(200);
      expectApiError(await apiCall(app, 'PATCH', buildPath(routes.errorReports.resolve.path, { id: 999_999 }), admin), 404, 'ERROR_LOG_NOT_FOUND');
      expectApiError(await apiCall(app, 'PATCH', '/api/errors/abc/resolve', admin), 400, 'VALIDATION_FAILED');
    });
  });

  describe('prompt history', () => {
    const save = (prompt: string) =>
      apiCall(app, 'POST', routes.aiPrompts.create.path, admin, { name: 'narrative-summary', prompt, description: 'Version', adminPassword: PASSWORD, isActive: 1 });
    const prompts = async () => aiPromptSchema.array().parse((await apiCall(app, 'GET', routes.aiPrompts.list.path, admin)).json());

    it('refuses a prompt without the placeholder with a clear message', async () => {
      const refused = await save('Summarise the suggestions.');
      expectApiError(refused, 400, 'VALIDATION_FAILED');
      expect(refused.json<{ message: string }>().message).toContain('{suggestionsText}');
    });

    it('activates an older version again; exactly one prompt is active', async () => {
      const first = aiPromptSchema.parse((await save('First:\n{suggestionsText}')).json());
      await save('Second:\n{suggestionsText}');
      const activated = await apiCall(app, 'POST', buildPath(routes.aiPrompts.activate.path, { id: first.id }), admin, { adminPassword: PASSWORD });
      expect(activated.statusCode, activated.body).toBe(200);
      expect((await apiCall(app, 'GET', routes.aiPrompts.active.path, admin)).json()).toMatchObject({ id: first.id, isActive: true });
      expect((await prompts()).filter((prompt) => prompt.isActive).map((prompt) => prompt.id)).toEqual([first.id]);
      expectApiError(await apiCall(app, 'POST', buildPath(routes.aiPrompts.activate.path, { id: 999_999 }), admin, { adminPassword: PASSWORD }), 404, 'PROMPT_NOT_FOUND');
      expectApiError(await apiCall(app, 'POST', buildPath(routes.aiPrompts.activate.path, { id: first.id }), admin, { adminPassword: 'wrong' }), 403, 'INVALID_ADMIN_PASSWORD');
    });
  });

  describe('live events', () => {
    it('sends the admin events to admins only', async () => {
      const adminStream = await openStream(baseUrlOf(app), admin);
      const memberStream = await openStream(baseUrlOf(app), member);
      await apiCall(app, 'POST', routes.auth.forgotPin.path, undefined, { memberName: 'Morgan Member' });
      await apiCall(app, 'POST', routes.errorReports.create.path, member, { ...REPORT, message: 'live' });
      await adminStream.nextEvent((event) => event.type === 'pin-resets.changed');
      await adminStream.nextEvent((event) => event.type === 'error-logs.changed');
      // A marker every member receives: once it has arrived, anything sent before it has too.
      const marker = await apiCall(app, 'POST', routes.comments.create.path, admin, { componentId: 'event-management', content: 'Marker' });
      const markerId = marker.json<{ id: number }>().id;
      await memberStream.nextEvent((event) => event.type === 'comment.created' && event.commentId === markerId);
      expect(memberStream.events.map((received) => received.event.type)).toEqual(['comment.created']);
    });

    it('ends a deactivated member’s open stream at once', async () => {
      const leaving = await signInAs(app, 'Lou Leaving');
      const stream = await openStream(baseUrlOf(app), leaving);
      const members = (await apiCall(app, 'GET', routes.admin.members.path, admin)).json<{ id: number; name: string }[]>();
      const id = members.find((entry) => entry.name === 'Lou Leaving')?.id ?? 0;
      expect((await apiCall(app, 'POST', buildPath(routes.admin.setActive.path, { id }), admin, { adminPassword: PASSWORD, active: false })).statusCode).toBe(200);
      await stream.waitFor('the stream to end', () => stream.ended);
    });
  });
});
