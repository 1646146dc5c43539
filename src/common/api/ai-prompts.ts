import type { AiPrompt, ActivateAiPromptInput, CreateAiPromptInput } from '../contract/ai.js';
import { defineRoute } from './route.js';

export const NARRATIVE_PROMPT_NAME = 'narrative-summary';
/** Where the suggestions go in a narrative prompt; a prompt without it is refused. */
export const SUGGESTIONS_PLACEHOLDER = '{suggestionsText}';
/** How much of each older prompt the history shows. */
export const PROMPT_PREVIEW_LENGTH = 200;

/** The admin's AI prompts: every version, the active one, a new one (which becomes active), and rollback. */
export const aiPromptRoutes = {
  list: defineRoute<{ response: AiPrompt[] }>()('GET', '/api/ai-prompts'),
  active: defineRoute<{ response: AiPrompt }>()('GET', '/api/ai-prompts/active'),
  create: defineRoute<{ body: CreateAiPromptInput; response: AiPrompt }>()('POST', '/api/ai-prompts'),
  /** Makes an earlier version the active one again. */
  activate: defineRoute<{ body: ActivateAiPromptInput; response: AiPrompt }>()('POST', '/api/ai-prompts/:id/activate'),
} as const;
