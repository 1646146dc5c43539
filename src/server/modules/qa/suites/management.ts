import { randomInt } from 'node:crypto';
import { ACTIVITY_LIMITS, activityRoutes, analyticsRoutes } from '../../../../common/api/activity.js';
import { adminRoutes } from '../../../../common/api/admin.js';
import { NARRATIVE_PROMPT_NAME } from '../../../../common/api/ai-prompts.js';
import { aiPromptRoutes } from '../../../../common/api/ai-prompts.js';
import { QA_TEST_COMPONENT_ID } from '../../../../common/api/architecture.js';
import { authRoutes } from '../../../../common/api/auth.js';
import { commentRoutes } from '../../../../common/api/comments.js';
import { ERROR_CODES } from '../../../../common/api/error-codes.js';
import { errorReportRoutes } from '../../../../common/api/error-reports.js';
import { buildPath } from '../../../../common/api/route.js';
import { activeSessionEntrySchema, analyticsUserSchema, coverageMatrixSchema } from '../../../../common/contract/activity.js';
import { teamMemberNamesSchema } from '../../../../common/contract/auth.js';
import { commentCountsSchema } from '../../../../common/contract/comments.js';
import { errorReportAcceptedSchema } from '../../../../common/contract/error-reports.js';
import { ERROR_REPORT_LIMITS } from '../../../../common/limits.js';
import { nameKey } from '../../../../common/names.js';
import { findMemberByKey } from '../../members/repo.js';
import { ensure, expectError, expectStatus, isRouteMissing, parseBody, skip, type HttpMethod, type QaContext, type QaSuite } from '../context.js';
import { countActivityOf, countErrorLogs, countErrorLogsWithMessage, promptWithTextExists } from '../repo.js';
import { withComment } from './comments.js';

/**
 * A route of the admin's contract, called as the QA member: it must answer 403. A build that does
 * not serve it yet answers the unmatched-route 404, and the check is skipped saying so.
 */
async function expectAdminOnly(context: QaContext, method: HttpMethod, path: string, body?: unknown): Promise<void> {
  const response = await context.call(method, path, body === undefined ? {} : { body });
  if (isRouteMissing(response)) skip(`${method} ${path} is not served by this build`);
  expectError(response, 403, ERROR_CODES.adminOnly, `${method} ${path} as the QA member`);
}

/** A GET as the QA member that must answer 200. */
async function okCall(context: QaContext, path: string) {
  const response = await context.call('GET', path);
  expectStatus(response, 200, `GET ${path}`);
  return response;
}

/** A valid full name no member has: letters only, as names allow. */
function probeName(): string {
  const letters = Array.from({ length: 10 }, () => String.fromCharCode(97 + randomInt(26))).join('');
  return `Qa Probe ${letters.charAt(0).toUpperCase()}${letters.slice(1)}`;
}

export const analytics: QaSuite = {
  name: 'Analytics',
  checks: [
    {
      name: 'Comment counts answer, and never list the QA component',
      async run(context) {
        // Asked while a QA comment exists: the scratch component must stay out of the review's counts.
        await withComment(context, 'counted', async () => {
          const response = await context.call('GET', commentRoutes.counts.path);
          expectStatus(response, 200, 'GET /api/comments/counts');
          const counts = parseBody(response, commentCountsSchema, 'GET /api/comments/counts');
          ensure(!(QA_TEST_COMPONENT_ID in counts.components), `the counts list ${QA_TEST_COMPONENT_ID} with ${JSON.stringify(counts.components[QA_TEST_COMPONENT_ID])}`);
        });
      },
    },
    {
      name: 'Team member names leave out the QA member',
      async run(context) {
        const response = await context.call('GET', authRoutes.teamMemberNames.path);
        expectStatus(response, 200, 'GET /api/team-members/names');
        const names = parseBody(response, teamMemberNamesSchema, 'GET /api/team-members/names');
        ensure(!names.includes(context.settings.qaName), `the names list the QA member "${context.settings.qaName}"`);
      },
    },
    {
      name: 'Team analytics, active sessions and coverage leave out the QA member',
      async run(context) {
        const users = parseBody(await okCall(context, analyticsRoutes.users.path), analyticsUserSchema.array(), 'GET /api/analytics/users');
        ensure(!users.some((user) => user.memberName === context.settings.qaName), 'the analytics users list the QA member');
        // The QA member is signed in right now: the list of active sessions must still not show it.
        const sessions = parseBody(await okCall(context, analyticsRoutes.activeSessions.path), activeSessionEntrySchema.array(), 'GET /api/analytics/sessions/active');
        ensure(!sessions.some((session) => session.memberName === context.settings.qaName), 'the active sessions list the QA member');
        const coverage = parseBody(await okCall(context, analyticsRoutes.coverage.path), coverageMatrixSchema, 'GET /api/analytics/coverage');
        ensure(!coverage.members.includes(context.settings.qaName), 'the coverage matrix lists the QA member');
        ensure(!coverage.components.some((component) => component.id === QA_TEST_COMPONENT_ID), `the coverage matrix lists ${QA_TEST_COMPONENT_ID}`);
        const detail = await context.call('GET', buildPath(analyticsRoutes.user.path, { memberName: context.settings.qaName }));
        expectError(detail, 404, ERROR_CODES.memberNotFound, 'the QA member\'s own analytics');
      },
    },
    {
      name: 'Activity calls refuse bad input and store nothing for it',
      async run(context) {
        // A sync of nothing is valid and writes nothing; the bad ones are refused before anything is written.
        expectStatus(await context.call('POST', activityRoutes.sync.path, { body: { activeTime: 0 } }), 200, 'a sync of 0 seconds');
        for (const [what, body] of [
          ['more than two minutes', { activeTime: ACTIVITY_LIMITS.maxSyncSeconds + 1 }],
          ['a fraction of a second', { activeTime: 1.5 }],
          ['an unknown field', { activeTime: 1, memberName: context.settings.qaName }],
        ] as const) {
          expectError(await context.call('POST', activityRoutes.sync.path, { body }), 400, ERROR_CODES.validationFailed, `a sync of ${what}`);
        }
        for (const [what, body] of [
          ['an unknown type', { activityType: 'qa_probe' }],
          ['details that are not JSON', { activityType: 'page_view', details: 'not json' }],
          ['details over 2 KB', { activityType: 'page_view', details: JSON.stringify({ text: 'x'.repeat(ACTIVITY_LIMITS.detailsBytes) }) }],
        ] as const) {
          expectError(await context.call('POST', activityRoutes.log.path, { body }), 400, ERROR_CODES.validationFailed, `a log entry with ${what}`);
        }
        ensure((await countActivityOf(context.db, context.member.id)) === 0, 'the refused calls stored activity for the QA member');
      },
    },
  ],
};

export const errorLogging: QaSuite = {
  name: 'Error Logging',
  checks: [
    {
      name: 'A report from the QA member is stored (201)',
      async run(context) {
        // A new report group can make the log trim its oldest rows (error-reports/service.ts): near
        // the cap, that would push out a real report, so the check stands aside.
        const trimEvery = Math.max(1, Math.min(100, Math.floor(context.settings.errorLogMaxRows / 10)));
        const rows = await countErrorLogs(context.db);
        if (rows + 1 >= context.settings.errorLogMaxRows - trimEvery) {
          skip(`the error log holds ${rows} of at most ${context.settings.errorLogMaxRows} rows; a new report could push a real one out`);
        }
        const message = context.unique('error report');
        context.postedErrorMessages.push(message);
        const response = await context.call('POST', errorReportRoutes.create.path, {
          body: { source: 'frontend', errorType: 'javascript_error', message, severity: 'low', url: '/qa-self-test' },
        });
        expectStatus(response, 201, 'POST /api/errors/log');
        parseBody(response, errorReportAcceptedSchema, 'POST /api/errors/log');
        const stored = await countErrorLogsWithMessage(context.db, message);
        ensure(stored === 1, `${stored} rows hold the report`);
      },
    },
    {
      name: 'An invalid report is refused with 400 and not stored',
      async run(context) {
        const valid = { source: 'frontend', errorType: 'javascript_error', severity: 'low' };
        const tooLong = `${context.unique('too long')} ${'x'.repeat(ERROR_REPORT_LIMITS.message)}`;
        const invalid: [string, Record<string, unknown>][] = [
          ['an unknown error type', { ...valid, errorType: 'not_an_error_type', message: context.unique('bad type') }],
          ['a message over the limit', { ...valid, message: tooLong }],
          ['an unknown field', { ...valid, message: context.unique('extra field'), extra: true }],
          ['an empty message', { ...valid, message: '   ' }],
        ];
        for (const [what, body] of invalid) {
          const response = await context.call('POST', errorReportRoutes.create.path, { body });
          expectError(response, 400, ERROR_CODES.validationFailed, `a report with ${what}`);
          const message = typeof body.message === 'string' ? body.message : '';
          ensure((await countErrorLogsWithMessage(context.db, message)) === 0, `a report with ${what} was stored`);
        }
      },
    },
    {
      name: 'A report over the size limit is refused (413)',
      async run(context) {
        const message = `${context.unique('oversized')} ${'x'.repeat(ERROR_REPORT_LIMITS.bodyBytes)}`;
        const response = await context.call('POST', errorReportRoutes.create.path, { body: { source: 'frontend', errorType: 'javascript_error', message, severity: 'low' } });
        expectError(response, 413, ERROR_CODES.payloadTooLarge, 'a report over 8 KiB');
      },
    },
    {
      name: "The admin's error list is refused to the QA member (403)",
      async run(context) {
        await expectAdminOnly(context, 'GET', errorReportRoutes.list.path);
      },
    },
  ],
};

export const teamManagement: QaSuite = {
  name: 'Team Management',
  checks: [
    {
      name: 'The member list is admin-only (403)',
      async run(context) {
        await expectAdminOnly(context, 'GET', adminRoutes.members.path);
      },
    },
    {
      name: 'The PIN reset requests are admin-only (403)',
      async run(context) {
        await expectAdminOnly(context, 'GET', adminRoutes.pinResetRequests.path);
      },
    },
    {
      name: 'Adding a member as the QA member is refused and adds no one',
      async run(context) {
        const name = probeName();
        // A wrong admin password as well: even a broken role check could not add anyone.
        await expectAdminOnly(context, 'POST', adminRoutes.addMember.path, { adminPassword: 'not-the-admin-password', memberName: name });
        ensure((await findMemberByKey(context.db, nameKey(name))) === undefined, `a member "${name}" was added`);
      },
    },
  ],
};

export const aiPrompts: QaSuite = {
  name: 'AI Prompts',
  checks: [
    {
      name: 'The prompt list is admin-only (403)',
      async run(context) {
        await expectAdminOnly(context, 'GET', aiPromptRoutes.list.path);
      },
    },
    {
      name: 'A prompt without {suggestionsText} is refused and not saved',
      async run(context) {
        const prompt = `${context.unique('prompt')}: summarise the team's suggestions.`;
        const response = await context.call('POST', aiPromptRoutes.create.path, {
          body: { name: NARRATIVE_PROMPT_NAME, prompt, adminPassword: 'not-the-admin-password' },
        });
        // The QA member is refused at the role (403); an admin would be at the placeholder (400).
        expectError(response, [400, 403], undefined, 'POST /api/ai-prompts without the placeholder');
        ensure(!(await promptWithTextExists(context.db, prompt)), 'the prompt was saved');
      },
    },
  ],
};
