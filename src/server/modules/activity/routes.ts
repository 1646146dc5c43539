import { isSuggestionEvent, type LiveEvent } from '../../../common/api/live-events.js';
import { activityContract, analyticsContract } from '../../../common/contract/activity.js';
import { nameKey } from '../../../common/names.js';
import type { EventBus } from '../../event-bus/event-bus.js';
import { cachedJson } from '../../http/cached-json.js';
import { joinedWorkOf } from '../../http/joined-work.js';
import type { App } from '../../http/types.js';
import { requireMember } from '../auth/guards.js';
import { isCountedCommentEvent, serverActivityOf, type ActivityService, type AnalyticsService } from './service.js';

/** How stale the list of active sessions may be. */
export const ACTIVE_SESSIONS_MAX_AGE_MS = 1_000;

/**
 * What the team's recent activity and active sessions read: recorded activity and the members. A
 * comment or vote writes its log entry in its own transaction and announces no activity event of
 * its own: its event is the one.
 */
function changesActivity(event: LiveEvent): boolean {
  return event.type === 'activity.recorded' || event.type === 'members.changed' || isCountedCommentEvent(event) || event.type === 'suggestion.vote.changed';
}

/** Anything a figure of the analytics page counts: comments, votes, members, and recorded activity. */
function changesAnalytics(event: LiveEvent): boolean {
  return isCountedCommentEvent(event) || isSuggestionEvent(event) || changesActivity(event);
}

/**
 * The activity calls a member's page makes, and the analytics every member may read. The team-wide
 * answers are kept in memory until something they count changes (on any instance): a page of
 * analytics is a handful of grouped reads over the largest tables, not something to redo per request.
 */
export function registerActivityRoutes(app: App, deps: { activity: ActivityService; analytics: AnalyticsService; events: EventBus }) {
  const { activity, analytics, events } = deps;

  app.post(activityContract.sync.path, { schema: { body: activityContract.sync.body, response: activityContract.sync.response } }, async (request) => {
    return activity.sync(requireMember(request), request.body.activeTime);
  });

  app.post(activityContract.log.path, { schema: { body: activityContract.log.body, response: activityContract.log.response } }, async (request, reply) => {
    const id = await activity.logPageView(requireMember(request), request.body);
    return reply.status(id === null ? 200 : 201).send({ id });
  });

  // Sign-ins, comments, votes and generations are logged by the server as they are answered (a
  // client could otherwise write any of them, or none), from what the route answers. A comment or
  // vote writes its entry in its own transaction; the others in a hook over their answers, before
  // they are sent, so the entry is there when the member's next request arrives.
  app.addHook('preHandler', (request, _reply, done) => {
    const member = request.member;
    // The self-test's work as the QA member is left out of the log, as of every figure.
    if (request.routeOptions.config.joinsWrite === true && member !== null && member.is_qa === 0) {
      joinedWorkOf(request).add(async (trx, answer) => {
        const found = serverActivityOf(request.method, request.routeOptions.url, answer.statusCode, answer.value);
        if (found !== null && 'entry' in found) await activity.recordIn(trx, member.id, found.entry);
      });
    }
    done();
  });
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (request.joinedWork?.ran === true) return payload;
    const found = serverActivityOf(request.method, request.routeOptions.url, reply.statusCode, payload);
    if (found === null) return payload;
    try {
      if ('signIn' in found) await activity.recordSignIn(found.signIn.memberName, found.signIn.details);
      // The self-test's work as the QA member is left out of the log, as of every figure.
      else if (request.member !== null && request.member.is_qa === 0) await activity.record(request.member.id, found.entry);
    } catch (error) {
      // The member's action has succeeded; a lost log entry is not worth failing its answer.
      request.log.warn({ err: error }, 'activity entry not written');
    }
    return payload;
  });

  const invalidatedBy = (event: LiveEvent) => (changesAnalytics(event) ? 'all' : 'none');
  cachedJson(app, events, { url: analyticsContract.users.path, key: () => 'users', load: () => analytics.users(), invalidatedBy });
  cachedJson(app, events, { url: analyticsContract.daily.path, key: () => 'daily', load: () => analytics.daily(), invalidatedBy });
  cachedJson(app, events, {
    url: analyticsContract.activity.path,
    key: () => 'activity',
    load: () => analytics.activity(),
    invalidatedBy: (event) => (changesActivity(event) ? 'all' : 'none'),
  });
  cachedJson(app, events, {
    url: analyticsContract.coverage.path,
    key: () => 'coverage',
    load: () => analytics.coverage(),
    invalidatedBy: (event) => (isCountedCommentEvent(event) || event.type === 'members.changed' ? 'all' : 'none'),
  });
  cachedJson(app, events, {
    url: analyticsContract.user.path,
    schema: { params: analyticsContract.user.params },
    // Keys are members' name keys: an unknown name is a 404, never stored, so the cache holds at most one entry a member.
    key: (request) => nameKey(request.params.memberName),
    load: (request) => analytics.member(request.params.memberName),
    invalidatedBy,
  });

  // Who is active now: kept a second (a session's start or end is no change event), like the
  // session lookups themselves. The answer grows with the sessions (a thousand make 140 KB): read
  // and serialized once a second rather than for every request of every open analytics page.
  cachedJson(app, events, {
    url: analyticsContract.activeSessions.path,
    key: () => 'active-sessions',
    load: () => analytics.activeSessions(),
    invalidatedBy: (event) => (changesActivity(event) ? 'all' : 'none'),
    maxAgeMs: ACTIVE_SESSIONS_MAX_AGE_MS,
  });
}
