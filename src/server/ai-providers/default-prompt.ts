import { SUGGESTIONS_PLACEHOLDER } from '../../common/api/ai-prompts.js';

/** The narrative-summary prompt a fresh database starts with; an admin replaces it in the Admin panel. */
export const DEFAULT_NARRATIVE_PROMPT = [
  'You are helping an IT-operations team review the architecture of an AI-driven incident-management platform.',
  'Below are the improvement suggestions the team has gathered from its comments, with their votes.',
  'Summarise where the team agrees, which themes matter most (weigh them by net votes and by how many suggestions support them),',
  'which concrete actions to take first and why, and where the team disagrees, with a way to resolve each disagreement.',
  'Cite the ids of the suggestions behind every theme, action and conflict.',
  '',
  SUGGESTIONS_PLACEHOLDER,
].join('\n');

export const DEFAULT_NARRATIVE_PROMPT_DESCRIPTION = 'Built-in default: themes by votes, first actions, and disagreements with a resolution.';
