import { randomInt } from 'node:crypto';
import { architectureRoutes, QA_TEST_COMPONENT_ID } from '../../../../common/api/architecture.js';
import { AUTH_MESSAGES, authRoutes } from '../../../../common/api/auth.js';
import { commentRoutes } from '../../../../common/api/comments.js';
import { ERROR_CODES } from '../../../../common/api/error-codes.js';
import { commentSchema } from '../../../../common/contract/comments.js';
import { messageResponseSchema } from '../../../../common/contract/common.js';
import { currentUserSchema } from '../../../../common/contract/user.js';
import { COMMENT_MAX_LENGTH } from '../../../../common/limits.js';
import { splitFullName } from '../../../../common/names.js';
import { hashToken } from '../../auth/secrets.js';
import { insertPinResetRequest } from '../../members/repo.js';
import { ensure, expectError, expectStatus, parseBody, skip, type Cookies, type QaCheck, type QaContext, type QaSuite } from '../context.js';
import {
  commentExists,
  countCommentsOf,
  countCommentsWithContent,
  countPendingPinResets,
  deletePinResetsOf,
  findMemberFlags,
  insertRawVote,
  setSessionLastSeen,
  votesOn,
} from '../repo.js';
import { commentPath, deleteComment, postComment, postCommentRaw, QA_WITH_VOTES_PATH, vote, votePath, voteRaw, withComment } from './comments.js';

const PERFORMANCE_CALLS = 20;
const PERFORMANCE_P95_MS = 100;
const PARALLEL_VOTES = 50;
const PARALLEL_POSTS = 10;
const PARALLEL_DELETES = 10;

function sessionTokenOf(cookies: Cookies): string {
  const entry = Object.entries(cookies).find(([name]) => name.endsWith('biggy_session'));
  if (entry === undefined || entry[1] === '') throw new Error('the sign-in set no session cookie');
  return entry[1];
}

const userWith = (context: QaContext, session: Cookies | null) => context.call('GET', authRoutes.user.path, { session });

const onQaComponent = (context: QaContext) => ({ memberId: context.member.id, componentId: QA_TEST_COMPONENT_ID });

async function votesCount(context: QaContext, commentId: number): Promise<number> {
  return (await votesOn(context.db, commentId)).length;
}

/** The QA component has no comment of the QA member left: a refused post wrote nothing. */
async function expectNoQaComments(context: QaContext, what: string): Promise<void> {
  const left = await countCommentsOf(context.db, context.member.id, QA_TEST_COMPONENT_ID);
  ensure(left === 0, `${what}: ${left} comment(s) were stored`);
}

function forgotPin(context: QaContext, memberName: string) {
  return context.call('POST', authRoutes.forgotPin.path, { session: null, body: { memberName } });
}

export const sessions: QaSuite = {
  name: 'Sessions',
  checks: [
    {
      name: 'Logout ends the session',
      async run(context) {
        const session = await context.newSession();
        expectStatus(await userWith(context, session), 200, 'GET /api/user before logout');
        expectStatus(await context.call('POST', authRoutes.logout.path, { session }), 200, 'POST /api/logout');
        expectError(await userWith(context, session), 401, ERROR_CODES.unauthenticated, 'GET /api/user after logout');
      },
    },
    {
      name: 'A new sign-in gives a new session cookie',
      async run(context) {
        const first = sessionTokenOf(await context.newSession());
        const second = await context.newSession();
        ensure(sessionTokenOf(second) !== first, 'two sign-ins got the same session token');
        expectStatus(await userWith(context, second), 200, 'GET /api/user with the new session');
      },
    },
    {
      name: 'A session past its idle limit is refused (401)',
      async run(context) {
        const session = await context.newSession();
        // Past the idle limit with room for the once-a-minute last-seen resolution (auth/sessions.ts).
        const lastSeenAt = Date.now() - context.settings.sessionIdleMs - 2 * 60_000;
        const updated = await setSessionLastSeen(context.db, hashToken(sessionTokenOf(session)), context.member.id, lastSeenAt);
        ensure(updated, 'the new session is not in the database');
        expectError(await userWith(context, session), 401, ERROR_CODES.unauthenticated, 'GET /api/user with an idle session');
      },
    },
  ],
};

export const pinResets: QaSuite = {
  name: 'PIN Resets',
  checks: [
    {
      // Its PIN is the configured QA PIN: a request an admin resolved would clear it and stop the self-test.
      name: "Forgot PIN answers the QA member's name as an unknown one, and files no request",
      async run(context) {
        await deletePinResetsOf(context.db, context.member.id);
        const unknown = `Qa Nobody ${Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(26))).join('')}`;
        const qa = await forgotPin(context, context.settings.qaName);
        const stranger = await forgotPin(context, unknown);
        expectStatus(qa, 200, "POST /api/forgot-pin for the QA member's name");
        expectStatus(stranger, 200, 'POST /api/forgot-pin for an unknown name');
        const message = parseBody(stranger, messageResponseSchema, 'POST /api/forgot-pin').message;
        ensure(message === AUTH_MESSAGES.forgotPinAccepted, `the unknown name got "${message}"`);
        ensure(message === parseBody(qa, messageResponseSchema, 'POST /api/forgot-pin').message, 'the QA member and an unknown name get different answers');
        const pending = await countPendingPinResets(context.db, context.member.id);
        ensure(pending === 0, `${pending} pending request(s) of the QA member`);
      },
    },
    {
      // The route files none for the QA member, so the store is checked directly (and the request removed).
      name: 'A member has at most one pending PIN reset request',
      async run(context) {
        await deletePinResetsOf(context.db, context.member.id);
        try {
          for (const attempt of ['first', 'second']) {
            await insertPinResetRequest(context.db, context.member);
            const pending = await countPendingPinResets(context.db, context.member.id);
            ensure(pending === 1, `${pending} pending request(s) after the ${attempt} one`);
          }
        } finally {
          await deletePinResetsOf(context.db, context.member.id);
        }
      },
    },
  ],
};

const problemsOf = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([what, count]) => `${count} ${what}`);

export const dataIntegrity: QaSuite = {
  name: 'Data Integrity',
  checks: [
    {
      name: 'No orphan rows, and only values the app writes',
      async run(context) {
        const report = await context.integrity();
        const orphans = problemsOf({ ...report.orphans });
        ensure(orphans.length === 0, `orphans: ${orphans.join(', ')}`);
        const unknown = problemsOf(report.unknownValues);
        ensure(unknown.length === 0, `rows with unknown values: ${unknown.join(', ')}`);
      },
    },
    {
      name: 'The database refuses a duplicate vote row',
      async run(context) {
        await withComment(context, 'duplicate vote', async (comment) => {
          await vote(context, comment.id, 'thumbs_up');
          let refused = false;
          try {
            await insertRawVote(context.db, { commentId: comment.id, memberId: context.member.id, memberName: context.member.full_name });
          } catch {
            refused = true;
          }
          ensure(refused, 'a second vote row of one member on one comment was accepted');
          const rows = await votesCount(context, comment.id);
          ensure(rows === 1, `${rows} vote rows`);
        });
      },
    },
    {
      name: 'The engine finds the database sound',
      async run(context) {
        const { structural } = await context.integrity();
        ensure(structural.length === 0, structural.slice(0, 5).join('; '));
      },
    },
    {
      name: 'Every foreign key holds',
      async run(context) {
        const { foreignKeys } = await context.integrity();
        ensure(foreignKeys.length === 0, foreignKeys.slice(0, 5).join('; '));
      },
    },
  ],
};

/** p95 of sequential in-process calls: what the route itself costs, with no network in between. */
function timedRead(name: string, path: string): QaCheck {
  return {
    name: `${name}: p95 of ${PERFORMANCE_CALLS} calls under ${PERFORMANCE_P95_MS} ms`,
    async run(context) {
      const times: number[] = [];
      for (let call = 0; call < PERFORMANCE_CALLS; call += 1) {
        const started = performance.now();
        const { statusCode } = await context.read(path);
        times.push(performance.now() - started);
        ensure(statusCode === 200, `GET ${path} answered ${statusCode}`);
      }
      times.sort((a, b) => a - b);
      const p95 = times[Math.ceil(PERFORMANCE_CALLS * 0.95) - 1] ?? Number.POSITIVE_INFINITY;
      ensure(p95 < PERFORMANCE_P95_MS, `p95 is ${p95.toFixed(1)} ms`);
    },
  };
}

export const performanceSuite: QaSuite = {
  name: 'Performance',
  checks: [
    timedRead('GET /api/user', authRoutes.user.path),
    timedRead('GET /api/architecture', architectureRoutes.get.path),
    timedRead('GET /api/comments/counts', commentRoutes.counts.path),
    timedRead('GET the QA component with votes', QA_WITH_VOTES_PATH),
  ],
};

export const apiValidation: QaSuite = {
  name: 'API Validation',
  checks: [
    {
      name: 'An unknown API route answers 404 JSON with a code',
      async run(context) {
        const response = await context.call('GET', '/api/qa-self-test/no-such-route');
        expectError(response, 404, ERROR_CODES.notFound, 'GET an unknown route');
        ensure(String(response.headers['content-type']).startsWith('application/json'), `answered ${String(response.headers['content-type'])}`);
      },
    },
    {
      name: 'A wrong method answers 404 or 405',
      async run(context) {
        expectError(await context.call('DELETE', architectureRoutes.get.path), [404, 405], undefined, 'DELETE /api/architecture');
      },
    },
    {
      name: 'Malformed JSON is refused with 400',
      async run(context) {
        const response = await context.call('POST', commentRoutes.create.path, { rawBody: `{"componentId": "${QA_TEST_COMPONENT_ID}", "content": ` });
        expectError(response, 400, undefined, 'POST /api/comments with malformed JSON');
        await expectNoQaComments(context, 'malformed JSON');
      },
    },
    {
      name: 'A POST that is not declared JSON is refused',
      async run(context) {
        const content = context.unique('not JSON');
        const rawBody = JSON.stringify({ componentId: QA_TEST_COMPONENT_ID, content });
        for (const contentType of ['text/plain', null]) {
          const response = await context.call('POST', commentRoutes.create.path, { rawBody, contentType });
          expectError(response, 403, ERROR_CODES.csrfRejected, `POST /api/comments with ${contentType ?? 'no'} content type`);
        }
        ensure((await countCommentsWithContent(context.db, onQaComponent(context), [content])).get(content) === undefined, 'the comment was stored');
      },
    },
  ],
};

export const userStats: QaSuite = {
  name: 'User Stats',
  checks: [
    {
      name: "GET /api/user carries the QA member's name, first and last name",
      async run(context) {
        const user = parseBody(await context.call('GET', authRoutes.user.path), currentUserSchema, 'GET /api/user');
        const { firstName, lastName } = splitFullName(context.settings.qaName);
        ensure(user.name === context.settings.qaName, `name is ${user.name}`);
        ensure(user.firstName === firstName && user.lastName === lastName, `first and last name are "${user.firstName}" "${user.lastName}"`);
      },
    },
    {
      name: 'The QA member is flagged as QA, active and not an admin',
      async run(context) {
        const flags = await findMemberFlags(context.db, context.member.id);
        ensure(flags !== undefined, 'the QA member is not in the database');
        ensure(flags.is_qa === 1, 'the QA member is not flagged as QA');
        ensure(flags.active === 1, 'the QA member is not active');
        ensure(flags.role === 'member', `the QA member has the ${flags.role} role`);
      },
    },
  ],
};

export const inputValidation: QaSuite = {
  name: 'Input Validation',
  checks: [
    {
      name: 'An empty or over-long comment is refused (400)',
      async run(context) {
        for (const [what, content] of [
          ['an empty comment', ''],
          ['a blank comment', '   '],
          ['a comment of zero-width characters', '\u200B\u200B'],
          ['a comment over the length limit', 'x'.repeat(COMMENT_MAX_LENGTH + 1)],
        ] as const) {
          expectError(await postCommentRaw(context, { componentId: QA_TEST_COMPONENT_ID, content }), 400, ERROR_CODES.validationFailed, what);
        }
        await expectNoQaComments(context, 'refused comments');
      },
    },
    {
      name: 'A comment on an unknown component is refused',
      async run(context) {
        const content = context.unique('unknown component');
        expectError(await postCommentRaw(context, { componentId: 'qa-no-such-component', content }), 404, ERROR_CODES.unknownComponent, 'an unknown component');
        expectError(await postCommentRaw(context, { componentId: 'Not_A_Component', content }), 400, ERROR_CODES.validationFailed, 'a malformed component id');
        const stored = await countCommentsWithContent(context.db, { memberId: context.member.id, componentId: 'qa-no-such-component' }, [content]);
        ensure(stored.get(content) === undefined, 'the comment was stored');
      },
    },
    {
      name: 'A vote type other than thumbs up or down is refused (400)',
      async run(context) {
        await withComment(context, 'bad vote', async (comment) => {
          for (const voteType of ['thumbs_sideways', 1, null]) {
            expectError(await voteRaw(context, comment.id, voteType), 400, ERROR_CODES.validationFailed, `voteType ${JSON.stringify(voteType)}`);
          }
          ensure((await votesCount(context, comment.id)) === 0, 'a vote was stored');
        });
      },
    },
    {
      name: 'Control characters are refused (400)',
      async run(context) {
        for (const content of ['Bell \u0007 in a comment', 'NUL \u0000 in a comment', 'Escape \u001b[31m red']) {
          expectError(await postCommentRaw(context, { componentId: QA_TEST_COMPONENT_ID, content }), 400, ERROR_CODES.validationFailed, JSON.stringify(content));
        }
        await expectNoQaComments(context, 'comments with control characters');
      },
    },
  ],
};

export const concurrency: QaSuite = {
  name: 'Concurrency',
  checks: [
    {
      name: `${PARALLEL_VOTES} parallel identical votes leave at most one vote row`,
      async run(context) {
        await withComment(context, 'parallel votes', async (comment) => {
          const answers = await context.callTogether(Array.from({ length: PARALLEL_VOTES }, () => ({ method: 'POST' as const, url: votePath(comment.id), options: { body: { voteType: 'thumbs_up' } } })));
          const failed = answers.filter((answer) => answer.statusCode !== 200);
          ensure(failed.length === 0, `${failed.length} vote(s) answered ${failed[0]?.statusCode ?? ''}`);
          const rows = await votesCount(context, comment.id);
          ensure(rows <= 1, `${rows} vote rows of one member on one comment`);
          // Toggles of one comment run one after another, so an even number of them ends with no vote.
          ensure(rows === PARALLEL_VOTES % 2, `${rows} vote row(s) after ${PARALLEL_VOTES} toggles: some ran on a stale view`);
        });
      },
    },
    {
      name: 'Parallel comment posts each land exactly once',
      async run(context) {
        const count = Math.min(PARALLEL_POSTS, context.settings.commentLimitPerMinute);
        if (count < 2) skip(`COMMENT_LIMIT_PER_MINUTE is ${context.settings.commentLimitPerMinute}: no two posts can run in parallel`);
        const contents = Array.from({ length: count }, () => context.unique('parallel post'));
        const answers = await context.callTogether(
          contents.map((content) => ({ method: 'POST' as const, url: commentRoutes.create.path, options: { body: { componentId: QA_TEST_COMPONENT_ID, content } } })),
        );
        const created = answers.filter((answer) => answer.statusCode === 201);
        ensure(created.length === count, `${created.length} of ${count} posts answered 201`);
        const stored = await countCommentsWithContent(context.db, onQaComponent(context), contents);
        for (const content of contents) ensure(stored.get(content) === 1, `a post is stored ${stored.get(content) ?? 0} times`);
        for (const answer of created) await deleteComment(context, parseBody(answer, commentSchema, 'POST /api/comments').id);
      },
    },
    {
      name: 'Parallel deletes of one comment: one succeeds, the rest answer 404',
      async run(context) {
        const comment = await postComment(context, context.unique('parallel deletes'));
        const answers = await context.callTogether(Array.from({ length: PARALLEL_DELETES }, () => ({ method: 'DELETE' as const, url: commentPath(comment.id) })));
        const statuses = answers.map((answer) => answer.statusCode);
        ensure(statuses.filter((status) => status === 204).length === 1, `statuses ${statuses.join(',')}`);
        ensure(statuses.filter((status) => status === 404).length === PARALLEL_DELETES - 1, `statuses ${statuses.join(',')}`);
        ensure(!(await commentExists(context.db, comment.id)), 'the comment is still there');
      },
    },
  ],
};
