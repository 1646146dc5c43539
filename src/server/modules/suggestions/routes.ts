import { z } from 'zod';
import { aiContract } from '../../../common/contract/ai.js';
import { isSuggestionEvent, type LiveEvent } from '../../../common/api/live-events.js';
import { MEMBER_LIMITS } from '../../../common/limits.js';
import type { EventBus } from '../../event-bus/event-bus.js';
import { cachedJson } from '../../http/cached-json.js';
import { aiCallRule, type RateLimiter } from '../../http/rate-limit.js';
import { joinWriteOf } from '../../http/joined-work.js';
import type { App } from '../../http/types.js';
import { requireAdmin, requireMember, viewerKey } from '../auth/guards.js';
import type { NarrativeService } from './narrative-service.js';
import { suggestionFor, type SuggestionService } from './service.js';

/** 'Empty body' in the API contract: nothing, or an empty JSON object. */
const emptyBody = z.strictObject({}).nullish();
const LIST_KEY = 'with-votes';
const NARRATIVE_KEY = 'narrative';

/** The narrative reads the suggestions, their votes, the votes on their source comments and the active prompt. */
function changesNarrative(event: LiveEvent): boolean {
  return (
    isSuggestionEvent(event) ||
    event.type === 'ai-prompt.changed' ||
    event.type === 'vote.changed' ||
    event.type === 'comment.deleted' ||
    event.type === 'comment.resolution.changed' ||
    event.type === 'decision.recorded'
  );
}

/** Suggestion calls; every one is for signed-in members (the default access level). */
export function registerSuggestionRoutes(
  app: App,
  deps: { suggestions: SuggestionService; narrative: NarrativeService; events: EventBus; limiter: RateLimiter },
) {
  const { suggestions, narrative, events, limiter } = deps;

  app.post(
    aiContract.generateSuggestions.path,
    {
      onRequest: limiter.hook(aiCallRule('ai-generate', MEMBER_LIMITS.generationsPerMinute)),
      schema: { body: emptyBody, response: aiContract.generateSuggestions.response },
    },
    async (request) => suggestions.generate(requireMember(request)),
  );

  cachedJson(app, events, {
    url: aiContract.suggestionsWithVotes.path,
    key: () => LIST_KEY,
    load: () => suggestions.list(),
    // Loaded once for everyone; each member is told what they may do with each suggestion.
    perViewer: { viewer: viewerKey, present: (list, request) => list.map((suggestion) => suggestionFor(requireMember(request), suggestion)) },
    invalidatedBy: (event) => (isSuggestionEvent(event) ? [LIST_KEY] : 'none'),
  });

  app.post(
    aiContract.voteSuggestion.path,
    { schema: { params: aiContract.voteSuggestion.params, body: aiContract.voteSuggestion.body, response: aiContract.voteSuggestion.response }, config: { joinsWrite: true } },
    async (request) => suggestions.vote(requireMember(request), request.params.id, request.body.voteType, joinWriteOf(request)),
  );

  app.post(
    aiContract.setSuggestionStatus.path,
    {
      schema: { params: aiContract.setSuggestionStatus.params, body: aiContract.setSuggestionStatus.body, response: aiContract.setSuggestionStatus.response },
      config: { access: 'admin' },
    },
    async (request) => suggestions.setStatus(requireAdmin(request), { ip: request.ip }, request.params.id, request.body),
  );

  app.post(
    aiContract.assignSuggestion.path,
    { schema: { params: aiContract.assignSuggestion.params, body: aiContract.assignSuggestion.body, response: aiContract.assignSuggestion.response }, config: { access: 'admin' } },
    async (request) => suggestions.assign(requireAdmin(request), { ip: request.ip }, request.params.id, request.body),
  );

  app.post(
    aiContract.completeSuggestion.path,
    { schema: { params: aiContract.completeSuggestion.params, body: emptyBody, response: aiContract.completeSuggestion.response } },
    async (request) => suggestions.complete(requireMember(request), { ip: request.ip }, request.params.id),
  );

  const narrativeRule = aiCallRule('ai-narrative', MEMBER_LIMITS.narrativesPerMinute);
  cachedJson(app, events, {
    url: aiContract.narrativeSummary.path,
    key: () => NARRATIVE_KEY,
    load: () => narrative.summarize(),
    // A cached or stored answer is no AI call: only a request that has one made counts toward the limit.
    beforeLoad: async (request) => {
      if (!(await narrative.isStored())) await limiter.enforce(narrativeRule, request);
    },
    invalidatedBy: (event) => (changesNarrative(event) ? [NARRATIVE_KEY] : 'none'),
  });
}
