import type { AiPrompt, AiPromptListItem, ActivateAiPromptInput, CreateAiPromptInput } from '../contract/ai.js';
import { defineRoute } from './route.js';

export const NARRATIVE_PROMPT_NAME = 'narrative-summary';
/** Where the suggestions go in a narrative prompt; a prompt without it is refused. */
export const SUGGESTIONS_PLACEHOLDER = '{suggestionsText}';
/** How much of each older prompt the history shows, and carries: the whole text is fetched when it is compared. */
export const PROMPT_PREVIEW_LENGTH = 200;

/**
 * The history comes a page at a time, newest first: `limit` versions (at most `maxLimit`), and the
 * next page `before` the id of the last one shown; a page shorter than asked is the last.
 */
export const PROMPT_HISTORY_PAGE = { defaultLimit: 20, maxLimit: 50 } as const;

/** Whether a history item's `prompt` is the whole text (its length, in characters, within the preview). */
export const isWholePrompt = (item: { promptLength: number }) => item.promptLength <= PROMPT_PREVIEW_LENGTH;

/** The admin's AI prompts: the history a page at a time, one version, the active one, a new one (which becomes active), and rollback. */
export const aiPromptRoutes = {
  list: defineRoute<{ query: { before?: string; limit?: string }; response: AiPromptListItem[] }>()('GET', '/api/ai-prompts'),
  active: defineRoute<{ response: AiPrompt }>()('GET', '/api/ai-prompts/active'),
  /** One version with its whole text. */
  get: defineRoute<{ response: AiPrompt }>()('GET', '/api/ai-prompts/:id'),
  create: defineRoute<{ body: CreateAiPromptInput; response: AiPrompt }>()('POST', '/api/ai-prompts'),
  /** Makes an earlier version the active one again. */
  activate: defineRoute<{ body: ActivateAiPromptInput; response: AiPrompt }>()('POST', '/api/ai-prompts/:id/activate'),
} as const;
