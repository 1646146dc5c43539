import type { CommentSummaryOutput, NarrativeOutput, SuggestionsOutput } from '../../common/contract/ai.js';

/**
 * A model's claims checked against what they cite: every cited comment or suggestion must share
 * content with the claim (a theme's name, a requested change, a suggestion, a conflict), else the
 * claim is dropped. A model that cites a real but unrelated comment for a claim it made up is
 * caught here; ids that do not exist at all are dropped before (known-sources.ts). Words are
 * compared by their first five letters, so 'fallbacks' meets 'fallback' and 'securing' 'security'.
 */

const STEM_LETTERS = 5;
const FILLER = new Set(
  ('the and for with that this from into onto over under about after before when while which what where whom whose there their ' +
    'they them then than these those have has had was were are been being will would should could must can may might shall ' +
    'not but also just only very more most less some any all each every other such same own our ours your yours its his her ' +
    'one two three add make use get set put see keep need needs want like does did doing done').split(' '),
);

function stemsOf(text: string): Set<string> {
  const words = text.toLowerCase().match(/\p{L}[\p{L}\p{N}]{2,}/gu) ?? [];
  return new Set(words.filter((word) => !FILLER.has(word)).map((word) => word.slice(0, STEM_LETTERS)));
}

/** Whether a claim and each text it cites share at least one content word. */
function supports(claim: string, cited: readonly number[], textOf: ReadonlyMap<number, string>): boolean {
  const claimed = stemsOf(claim);
  return cited.every((id) => {
    const text = textOf.get(id);
    if (text === undefined) return true;
    for (const stem of stemsOf(text)) if (claimed.has(stem)) return true;
    return false;
  });
}

/** A comment summary without the themes and changes whose cited comments say nothing of them. */
export function groundedSummary(output: CommentSummaryOutput, comments: ReadonlyMap<number, string>): CommentSummaryOutput {
  const themes = output.keyThemes.map((theme, index) => ({ theme, sources: output.sources.keyThemes[index] ?? [] })).filter(({ theme, sources }) => supports(theme, sources, comments));
  const change = (text: string, sources: readonly number[]) => (supports(text, sources, comments) ? { text, sources: [...sources] } : { text: '', sources: [] });
  const content = change(output.contentChanges, output.sources.contentChanges);
  const structural = change(output.structuralChanges, output.sources.structuralChanges);
  return {
    ...output,
    contentChanges: content.text,
    structuralChanges: structural.text,
    keyThemes: themes.map(({ theme }) => theme),
    sources: { keyThemes: themes.map(({ sources }) => sources), contentChanges: content.sources, structuralChanges: structural.sources },
  };
}

/** Suggestions without those whose cited comments say nothing of them. */
export function groundedSuggestions(output: SuggestionsOutput, comments: ReadonlyMap<number, string>): SuggestionsOutput {
  return { suggestions: output.suggestions.filter((suggestion) => supports(suggestion.suggestion, suggestion.sources, comments)) };
}

/** A narrative without the themes, actions and conflicts whose cited suggestions say nothing of them. */
export function groundedNarrative(output: NarrativeOutput, suggestions: ReadonlyMap<number, string>): NarrativeOutput {
  return {
    ...output,
    keyThemes: output.keyThemes.filter((theme) => supports(`${theme.theme} ${theme.description}`, theme.sources, suggestions)),
    actionItems: output.actionItems.filter((item) => supports(`${item.action} ${item.reasoning}`, item.sources, suggestions)),
    conflicts: output.conflicts.filter((conflict) => supports(`${conflict.topic} ${conflict.description} ${conflict.suggestedResolution}`, conflict.sources, suggestions)),
  };
}
