import { z } from 'zod';
import { aiContract } from '../../../shared/contract/ai.js';
import { requireAdmin, requireMember } from '../auth/guards.js';
import { MEMBER_LIMITS } from '../../../shared/limits.js';
import { perMemberRule, type RateLimiter } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';
import type { CommentSummaryService } from './summary-service.js';
import type { NarrativeService } from './narrative-service.js';
import type { PromptService } from './prompt-service.js';
import type { SuggestionService } from './suggestion-service.js';

const JSON_UTF8 = 'application/json; charset=utf-8';
/** 'Empty body' (spec section 7): nothing, or an empty JSON object. */
const emptyBody = z.strictObject({}).nullish();

export interface AiServices {
  summaries: CommentSummaryService;
  suggestions: SuggestionService;
  narrative: NarrativeService;
  prompts: PromptService;
}

export function registerAiRoutes(app: App, services: AiServices, limiter: RateLimiter) {
  const aiRule = (name: string, perMinute: number) => perMemberRule(name, perMinute, 'Too many AI requests from you');
  const summaryRule = aiRule('ai-summary', MEMBER_LIMITS.summariesPerMinute);
  const narrativeRule = aiRule('ai-narrative', MEMBER_LIMITS.narrativesPerMinute);
  // The cached reads answer JSON bytes built from contract-typed values (ADR 0011).
  app.get(
    aiContract.commentSummary.path,
    { schema: { params: aiContract.commentSummary.params, querystring: aiContract.commentSummary.querystring } },
    // A cached answer is no AI call: only a request that has one made counts toward the limit.
    async (request, reply) =>
      reply.type(JSON_UTF8).send(await services.summaries.summaryJson(request.params.componentId, () => limiter.enforce(summaryRule, request))),
  );

  app.post(
    aiContract.generateSuggestions.path,
    { onRequest: limiter.hook(aiRule('ai-generate', MEMBER_LIMITS.generationsPerMinute)), schema: { body: emptyBody, response: aiContract.generateSuggestions.response } },
    async (request) =>
      services.suggestions.generate(requireMember(request)),
  );

  app.get(aiContract.suggestionsWithVotes.path, async (_request, reply) => reply.type(JSON_UTF8).send(await services.suggestions.listJson()));

  app.post(
    aiContract.voteSuggestion.path,
    { schema: { params: aiContract.voteSuggestion.params, body: aiContract.voteSuggestion.body, response: aiContract.voteSuggestion.response } },
    async (request) => services.suggestions.vote(requireMember(request), request.params.id, request.body.voteType),
  );

  app.get(aiContract.narrativeSummary.path, async (request, reply) =>
    reply.type(JSON_UTF8).send(await services.narrative.summaryJson(() => limiter.enforce(narrativeRule, request))),
  );

  app.get(aiContract.prompts.path, { config: { access: 'admin' }, schema: { response: aiContract.prompts.response } }, async () => services.prompts.list());

  app.get(aiContract.activePrompt.path, { config: { access: 'admin' }, schema: { response: aiContract.activePrompt.response } }, async () =>
    services.prompts.activeNarrativePrompt(),
  );

  app.post(
    aiContract.createPrompt.path,
    { config: { access: 'admin' }, schema: { body: aiContract.createPrompt.body, response: aiContract.createPrompt.response } },
    async (request, reply) => reply.status(201).send(await services.prompts.create(requireAdmin(request), { ip: request.ip }, request.body)),
  );
}
