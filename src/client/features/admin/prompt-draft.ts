/** The new prompt being written; kept by the page, so a visit to another tab loses nothing. */
export interface PromptDraft {
  description: string;
  prompt: string;
}

export const EMPTY_PROMPT_DRAFT: PromptDraft = { description: '', prompt: '' };
