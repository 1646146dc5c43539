/**
 * A suggestion's significance comes from keywords in its text. Shared by the server
 * (which also types a change as structural or content with it) and the suggestions table.
 */
export type Significance = 'major' | 'moderate' | 'minor';

export const MAJOR_KEYWORDS = ['remove', 'delete', 'eliminate', 'replace', 'rename', 'reorder', 'restructure', 'redesign'] as const;
export const MODERATE_KEYWORDS = ['change', 'modify', 'update', 'improve', 'enhance', 'specify', 'clarify', 'define'] as const;

/**
 * Changes to the shape of the architecture rather than to what a box says: the major keywords,
 * plus splitting a box and adding a new box, step or phase. Verbs like 'merge' or 'move' are left
 * out: reviewers use them about incidents and alerts far more often than about boxes.
 */
export const STRUCTURAL_KEYWORDS = [...MAJOR_KEYWORDS, 'split', 'new component', 'new step', 'new box', 'new phase'] as const;

/**
 * Whole words and their inflections: 'updated', 'clarified', 'splitting', 'removes' count;
 * 'removal' does not.
 */
function inflections(keyword: string): string {
  if (keyword.includes(' ')) return keyword.replace(/\s+/g, '\\s+');
  if (keyword.endsWith('y')) return `${keyword.slice(0, -1)}(?:y|ies|ied|ying)`;
  if (keyword.endsWith('e')) return `${keyword.slice(0, -1)}(?:e|es|ed|ing)`;
  const last = keyword.slice(-1);
  return `${keyword}(?:s|es|ed|ing|${last}ed|${last}ing)?`;
}

function keywordPattern(keywords: readonly string[]): RegExp {
  return new RegExp(`\\b(?:${keywords.map(inflections).join('|')})\\b`, 'i');
}

const MAJOR = keywordPattern(MAJOR_KEYWORDS);
const MODERATE = keywordPattern(MODERATE_KEYWORDS);
const STRUCTURAL = keywordPattern(STRUCTURAL_KEYWORDS);

export function significanceOf(text: string): Significance {
  if (MAJOR.test(text)) return 'major';
  if (MODERATE.test(text)) return 'moderate';
  return 'minor';
}

export type RecommendationType = 'content' | 'structural';

export function recommendationTypeOf(text: string): RecommendationType {
  return STRUCTURAL.test(text) ? 'structural' : 'content';
}
