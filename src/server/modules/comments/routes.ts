import { aiContract } from '../../../common/contract/ai.js';
import { commentsContract, type CommentCounts } from '../../../common/contract/comments.js';
import type { DecisionOutcome } from '../../../common/api/decisions.js';
import { MEMBER_LIMITS } from '../../../common/limits.js';
import { isCommentEvent } from '../../../common/api/live-events.js';
import { QA_TEST_COMPONENT_ID } from '../../../common/api/architecture.js';
import type { EventBus } from '../../event-bus/event-bus.js';
import { cachedJson } from '../../http/cached-json.js';
import { aiCallRule, type RateLimiter } from '../../http/rate-limit.js';
import { joinWriteOf } from '../../http/joined-work.js';
import type { App } from '../../http/types.js';
import { requireMember, viewerKey } from '../auth/guards.js';
import { commentFor, type CommentService } from './service.js';
import type { CommentSummaryService } from './summary-service.js';

const COUNTS_KEY = 'counts';

/** The comment counts with each component's current decision (a decided component without comments is listed too), and the actions. */
function progressOf(
  counts: Record<string, { open: number; resolved: number }>,
  decided: ReadonlyMap<string, DecisionOutcome>,
  actions: { total: number; done: number },
): CommentCounts {
  const components: CommentCounts['components'] = {};
  for (const [componentId, count] of Object.entries(counts)) components[componentId] = { ...count, decision: decided.get(componentId) ?? null };
  for (const [componentId, outcome] of decided) components[componentId] ??= { open: 0, resolved: 0, decision: outcome };
  return { components, actions };
}

/** Comment calls; every one is for signed-in members (the default access level). */
export function registerCommentRoutes(
  app: App,
  deps: {
    comments: CommentService;
    summaries: CommentSummaryService;
    events: EventBus;
    limiter: RateLimiter;
    /** Each component's current decision, which the counts carry: one request for the first screen. */
    decisions: () => Promise<ReadonlyMap<string, DecisionOutcome>>;
    /** How many actions (accepted suggestions) there are, and how many are done. */
    actions: () => Promise<{ total: number; done: number }>;
  },
) {
  const { comments, summaries, events, limiter, decisions, actions } = deps;

  cachedJson(app, events, {
    url: commentsContract.counts.path,
    key: () => COUNTS_KEY,
    load: async () => {
      const [counts, decided, actionCounts] = await Promise.all([comments.counts(), decisions(), actions()]);
      return progressOf(counts, decided, actionCounts);
    },
    // The counts leave the self-test's scratch component out: its comments change none of them.
    invalidatedBy: (event) =>
      ((event.type === 'comment.created' || event.type === 'comment.deleted' || event.type === 'comment.resolution.changed' || event.type === 'decision.recorded') &&
        event.componentId !== QA_TEST_COMPONENT_ID) ||
      event.type === 'suggestion.outcome.changed' ||
      event.type === 'suggestions.generated'
        ? [COUNTS_KEY]
        : 'none',
  });

  cachedJson(app, events, {
    url: commentsContract.withVotes.path,
    schema: { params: commentsContract.withVotes.params },
    check: (request) => {
      comments.assertComponent(request.params.componentId);
    },
    key: (request) => request.params.componentId,
    load: (request) => comments.listWithVotes(request.params.componentId),
    // Loaded once for everyone; each member is told what they may do with each comment.
    perViewer: { viewer: viewerKey, present: (list, request) => list.map((comment) => commentFor(requireMember(request), comment)) },
    invalidatedBy: (event) => (isCommentEvent(event) ? [event.componentId] : 'none'),
  });

  const summaryRule = aiCallRule('ai-summary', MEMBER_LIMITS.summariesPerMinute);
  cachedJson(app, events, {
    url: aiContract.commentSummary.path,
    schema: { params: aiContract.commentSummary.params, querystring: aiContract.commentSummary.querystring },
    check: (request) => {
      summaries.titleOrThrow(request.params.componentId);
    },
    key: (request) => request.params.componentId,
    load: (request) => summaries.summary(request.params.componentId),
    // A cached or stored answer is no AI call: only a request that has one made counts toward the limit.
    beforeLoad: async (request) => {
      if (!(await summaries.isStored(request.params.componentId))) await limiter.enforce(summaryRule, request);
    },
    // A decision changes what the summary cites and reads as settled.
    invalidatedBy: (event) => (isCommentEvent(event) || event.type === 'decision.recorded' ? [event.componentId] : 'none'),
  });

  app.post(
    commentsContract.create.path,
    { schema: { body: commentsContract.create.body, response: commentsContract.create.response }, config: { joinsWrite: true } },
    async (request, reply) => {
      const created = await comments.create(requireMember(request), request.body, joinWriteOf(request));
      return reply.status(201).send(created);
    },
  );

  app.delete(commentsContract.remove.path, { schema: { params: commentsContract.remove.params } }, async (request, reply) => {
    await comments.remove(requireMember(request), request.params.id);
    return reply.status(204).send();
  });

  app.post(
    commentsContract.vote.path,
    { schema: { params: commentsContract.vote.params, body: commentsContract.vote.body, response: commentsContract.vote.response }, config: { joinsWrite: true } },
    async (request) => comments.vote(requireMember(request), request.params.id, request.body.voteType, joinWriteOf(request)),
  );

  app.post(
    commentsContract.resolve.path,
    { schema: { params: commentsContract.resolve.params, body: commentsContract.resolve.body, response: commentsContract.resolve.response } },
    async (request) => comments.setResolved(requireMember(request), request.params.id, { resolved: true, note: request.body.note }, request.ip),
  );

  app.post(
    commentsContract.reopen.path,
    { schema: { params: commentsContract.reopen.params, response: commentsContract.reopen.response } },
    async (request) => comments.setResolved(requireMember(request), request.params.id, { resolved: false }, request.ip),
  );
}
