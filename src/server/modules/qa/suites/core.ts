import { QA_TEST_COMPONENT_ID } from '../../../../common/api/architecture.js';
import { authRoutes } from '../../../../common/api/auth.js';
import { commentRoutes } from '../../../../common/api/comments.js';
import { ERROR_CODES } from '../../../../common/api/error-codes.js';
import { healthRoutes } from '../../../../common/api/health.js';
import { buildPath } from '../../../../common/api/route.js';
import { commentSummarySchema } from '../../../../common/contract/ai.js';
import { healthResponseSchema } from '../../../../common/contract/health.js';
import { currentUserSchema } from '../../../../common/contract/user.js';
import { ensure, expectError, expectStatus, parseBody, type QaContext, type QaSuite } from '../context.js';
import { commentExists, commentIdsOn, countCommentsWithContent, deleteLoginLockOf, findCommentKind, scratchRoundTrip, unusedCommentId, votesOn } from '../repo.js';
import { deleteComment, findListed, postComment, vote, withComment } from './comments.js';

/** The analyzer's first call in a process loads its language model: more than the default limit. */
const ANALYZER_TIMEOUT_MS = 30_000;

const SUMMARY_PATH = buildPath(commentRoutes.summary.path, { componentId: QA_TEST_COMPONENT_ID });

/** A 4-digit PIN that is not the QA member's. */
function wrongPin(pin: string): string {
  const last = Number(pin.slice(-1));
  return `${pin.slice(0, -1)}${Number.isNaN(last) ? 0 : (last + 1) % 10}`;
}

async function currentUser(context: QaContext) {
  const response = await context.call('GET', authRoutes.user.path);
  expectStatus(response, 200, 'GET /api/user');
  return parseBody(response, currentUserSchema, 'GET /api/user');
}

export const database: QaSuite = {
  name: 'Database',
  checks: [
    {
      name: 'Health check answers 200 after a database round trip',
      async run(context) {
        const response = await context.call('GET', healthRoutes.get.path, { session: null });
        expectStatus(response, 200, 'GET /api/health');
        const health = parseBody(response, healthResponseSchema, 'GET /api/health');
        ensure(health.database.dialect === context.dialect, `the health check names ${health.database.dialect}, the app runs on ${context.dialect}`);
      },
    },
    {
      name: 'A row written in a transaction reads back in it',
      async run(context) {
        const content = context.unique('database round trip');
        const readBack = await scratchRoundTrip(context.db, { componentId: QA_TEST_COMPONENT_ID, memberId: context.member.id, memberName: context.member.full_name, content });
        ensure(readBack === content, `read back ${JSON.stringify(readBack)} instead of what was written`);
      },
    },
    {
      name: 'A rolled-back write leaves no row',
      async run(context) {
        const content = context.unique('rolled back');
        await scratchRoundTrip(context.db, { componentId: QA_TEST_COMPONENT_ID, memberId: context.member.id, memberName: context.member.full_name, content });
        const left = (await countCommentsWithContent(context.db, { memberId: context.member.id, componentId: QA_TEST_COMPONENT_ID }, [content])).get(content) ?? 0;
        ensure(left === 0, `${left} row(s) outlived the rollback`);
      },
    },
  ],
};

export const authentication: QaSuite = {
  name: 'Authentication',
  checks: [
    {
      name: 'The QA member cannot sign in through POST /api/login, even with its PIN',
      async run(context) {
        try {
          const response = await context.login();
          expectError(response, 401, ERROR_CODES.invalidCredentials, 'POST /api/login as the QA member');
          ensure(!response.cookies.some((cookie) => cookie.name.endsWith('biggy_session') && cookie.value !== ''), 'a refused sign-in set a session cookie');
        } finally {
          // The refusal counted toward the QA name's lock: lifted, so the count never builds up.
          await deleteLoginLockOf(context.db, context.member.name_key);
        }
      },
    },
    {
      name: 'A wrong PIN is refused with 401',
      async run(context) {
        try {
          const response = await context.login(wrongPin(context.settings.qaPin));
          expectError(response, 401, ERROR_CODES.invalidCredentials, 'POST /api/login with a wrong PIN');
          ensure(!response.cookies.some((cookie) => cookie.name.endsWith('biggy_session') && cookie.value !== ''), 'a refused sign-in set a session cookie');
        } finally {
          await deleteLoginLockOf(context.db, context.member.name_key);
        }
      },
    },
    {
      name: 'GET /api/user answers the QA member with the member role',
      async run(context) {
        const user = await currentUser(context);
        ensure(user.name === context.settings.qaName, `answered ${user.name}`);
        ensure(user.role === 'member', `answered the role ${user.role}`);
      },
    },
    {
      name: 'GET /api/user without a session is refused with 401',
      async run(context) {
        expectError(await context.call('GET', authRoutes.user.path, { session: null }), 401, ERROR_CODES.unauthenticated, 'GET /api/user signed out');
      },
    },
  ],
};

export const comments: QaSuite = {
  name: 'Comments',
  checks: [
    {
      name: 'A comment on the QA component is created (201) and reads back',
      async run(context) {
        await withComment(context, 'comment', async (comment) => {
          ensure(comment.componentId === QA_TEST_COMPONENT_ID, `created on ${comment.componentId}`);
          ensure(comment.memberName === context.settings.qaName, `created as ${comment.memberName}`);
          ensure(comment.kind === 'comment' && comment.votes.length === 0, 'a new comment is a plain comment without votes');
          const listed = await findListed(context, comment.id);
          ensure(listed !== undefined, `comment ${comment.id} is missing from GET with-votes`);
          ensure(listed.content === comment.content, 'the listed content differs from what was posted');
        });
      },
    },
    {
      name: 'Its author deletes it (204) and it is gone',
      async run(context) {
        const comment = await postComment(context, context.unique('deleted'));
        expectStatus(await deleteComment(context, comment.id), 204, `DELETE /api/comments/${comment.id}`);
        ensure(!(await commentExists(context.db, comment.id)), 'the row is still in the database');
        // A second delete finds nothing: the answer comes from the database, not from a stale copy.
        expectError(await deleteComment(context, comment.id), 404, ERROR_CODES.commentNotFound, 'a second DELETE');
      },
    },
    {
      name: 'A delete without a session is refused (401) and the comment stays',
      async run(context) {
        await withComment(context, 'kept', async (comment) => {
          expectError(await deleteComment(context, comment.id, null), 401, ERROR_CODES.unauthenticated, 'DELETE signed out');
          ensure(await commentExists(context.db, comment.id), 'the comment was deleted');
        });
      },
    },
    {
      name: 'A delete of a comment that does not exist answers 404',
      async run(context) {
        const id = await unusedCommentId(context.db);
        expectError(await deleteComment(context, id), 404, ERROR_CODES.commentNotFound, `DELETE /api/comments/${id}`);
      },
    },
  ],
};

export const voting: QaSuite = {
  name: 'Voting',
  checks: [
    {
      name: 'A thumbs-up is recorded',
      async run(context) {
        await withComment(context, 'vote up', async (comment) => {
          const result = await vote(context, comment.id, 'thumbs_up');
          ensure(result.myVote === 'thumbs_up' && result.commentId === comment.id, `answered ${JSON.stringify(result)}`);
          const rows = await votesOn(context.db, comment.id);
          ensure(rows.length === 1 && rows[0]?.member_id === context.member.id && rows[0].vote_type === 'thumbs_up', `the vote rows are ${JSON.stringify(rows)}`);
        });
      },
    },
    {
      name: 'The same vote again removes it',
      async run(context) {
        await withComment(context, 'vote twice', async (comment) => {
          await vote(context, comment.id, 'thumbs_up');
          const again = await vote(context, comment.id, 'thumbs_up');
          ensure(again.myVote === null, `myVote is ${String(again.myVote)} after the second thumbs-up`);
          const rows = await votesOn(context.db, comment.id);
          ensure(rows.length === 0, `${rows.length} vote row(s) remain`);
        });
      },
    },
    {
      name: 'A thumbs-down replaces a thumbs-up',
      async run(context) {
        await withComment(context, 'vote switch', async (comment) => {
          await vote(context, comment.id, 'thumbs_up');
          const switched = await vote(context, comment.id, 'thumbs_down');
          ensure(switched.myVote === 'thumbs_down', `myVote is ${String(switched.myVote)}`);
          const rows = await votesOn(context.db, comment.id);
          ensure(rows.length === 1 && rows[0]?.vote_type === 'thumbs_down', `the vote rows are ${JSON.stringify(rows)}`);
        });
      },
    },
  ],
};

export const proposals: QaSuite = {
  name: 'Proposals',
  checks: [
    {
      name: 'A proposal is created and stored as a proposal',
      async run(context) {
        await withComment(
          context,
          'proposal',
          async (proposal) => {
            ensure(proposal.kind === 'proposal', `created as ${proposal.kind}`);
            const stored = await findCommentKind(context.db, proposal.id);
            ensure(stored === 'proposal', `stored as ${String(stored)}`);
          },
          'proposal',
        );
      },
    },
    {
      name: 'A proposal takes votes and its author deletes it',
      async run(context) {
        const proposal = await postComment(context, context.unique('voted proposal'), 'proposal');
        const result = await vote(context, proposal.id, 'thumbs_up');
        ensure(result.myVote === 'thumbs_up', `myVote is ${String(result.myVote)}`);
        expectStatus(await deleteComment(context, proposal.id), 204, `DELETE /api/comments/${proposal.id}`);
        ensure((await votesOn(context.db, proposal.id)).length === 0, 'its votes outlived it');
      },
    },
  ],
};

export const aiSummaries: QaSuite = {
  name: 'AI Summaries',
  checks: [
    {
      name: 'The QA comments get a valid summary, citing only its input, stored for the next request',
      timeoutMs: ANALYZER_TIMEOUT_MS,
      async run(context) {
        const first = await postComment(context, `${context.unique('summary')}: the alert correlation window should be shorter for P1 incidents.`);
        const second = await postComment(context, `${context.unique('summary')}: escalation must page the on-call engineer within five minutes.`, 'proposal');
        try {
          const response = await context.call('GET', SUMMARY_PATH);
          expectStatus(response, 200, `GET ${SUMMARY_PATH}`);
          const summary = parseBody(response, commentSummarySchema, `GET ${SUMMARY_PATH}`);
          ensure(summary.componentId === QA_TEST_COMPONENT_ID, `the summary is of ${summary.componentId}`);
          // Made from exactly the comments the component has (normally the two QA comments alone).
          const byId = (a: number, b: number) => a - b;
          const made = [...summary.commentIds].sort(byId).join(',');
          const stored = await commentIdsOn(context.db, QA_TEST_COMPONENT_ID);
          ensure(made === [...stored].sort(byId).join(','), `made from comments ${made}, the component has ${stored.join(',')}`);
          ensure(summary.commentIds.includes(first.id) && summary.commentIds.includes(second.id), 'the summary leaves out a QA comment');
          const cited = [...summary.sources.keyThemes.flat(), ...summary.sources.contentChanges, ...summary.sources.structuralChanges];
          const unknown = cited.filter((id) => !summary.commentIds.includes(id));
          ensure(unknown.length === 0, `cites comments it was not made from: ${unknown.join(',')}`);

          // The same input again: the stored summary, not a second analysis.
          const again = parseBody(await context.call('GET', SUMMARY_PATH), commentSummarySchema, `GET ${SUMMARY_PATH} again`);
          ensure(
            again.generatedBy.inputHash === summary.generatedBy.inputHash && again.generatedBy.generatedAt === summary.generatedBy.generatedAt,
            'the same input was summarised twice',
          );
        } finally {
          await deleteComment(context, first.id);
          await deleteComment(context, second.id);
        }
      },
    },
    {
      name: 'A summary of an unknown component answers 404',
      async run(context) {
        const path = buildPath(commentRoutes.summary.path, { componentId: 'qa-no-such-component' });
        expectError(await context.call('GET', path), 404, ERROR_CODES.unknownComponent, `GET ${path}`);
      },
    },
  ],
};
