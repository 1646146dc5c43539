import type { AiPrompt, CreateAiPromptInput } from '../contract/ai.js';
import { defineRoute } from './route.js';

export const NARRATIVE_PROMPT_NAME = 'narrative-summary';
/** Where the suggestions go in a narrative prompt; a prompt without it is refused. */
export const SUGGESTIONS_PLACEHOLDER = '{suggestionsText}';

/** The admin's AI prompts: every version, the active one, and a new one (which becomes active). */
export const aiPromptRoutes = {
  list: defineRoute<{ response: AiPrompt[] }>()('GET', '/api/ai-prompts'),
  active: defineRoute<{ response: AiPrompt }>()('GET', '/api/ai-prompts/active'),
  create: defineRoute<{ body: CreateAiPromptInput; response: AiPrompt }>()('POST', '/api/ai-prompts'),
} as const;
