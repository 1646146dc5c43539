import type { CommentSummaryOutput, NarrativeOutput, SuggestionsOutput } from '../../../common/contract/ai.js';
import { DEFAULT_NARRATIVE_PROMPT } from '../default-prompt.js';
import type { AiProvider, CommentForAnalysis, SuggestionForAnalysis } from '../provider.js';
import type { LabelledSet } from './labelled-set.js';

const BASE_TIME = Date.UTC(2026, 0, 12, 9, 0, 0);

/** A set's comments as the provider receives them, with the numeric ids the outputs cite. */
export interface PreparedSet {
  set: LabelledSet;
  comments: CommentForAnalysis[];
  idOf: ReadonlyMap<string, number>;
  keyOf: ReadonlyMap<number, string>;
}

/** The three AI outputs of one set, as the app would make them from the same comments. */
export interface SetOutputs {
  summaries: ReadonlyMap<string, CommentSummaryOutput>;
  suggestions: SuggestionsOutput;
  narrative: NarrativeOutput;
  /** Suggestion index + 1 (the id the narrative cites) → the comment ids it follows from. */
  suggestionSources: ReadonlyMap<number, readonly number[]>;
}

export function prepareSet(set: LabelledSet): PreparedSet {
  const idOf = new Map<string, number>();
  const keyOf = new Map<number, string>();
  const comments: CommentForAnalysis[] = [];
  const memberId = (name: string) => set.members.indexOf(name) + 1;
  for (const component of set.components) {
    for (const comment of component.comments) {
      const id = comments.length + 1;
      idOf.set(comment.key, id);
      keyOf.set(id, comment.key);
      comments.push({
        id,
        componentId: component.id,
        componentTitle: component.title,
        componentDescription: component.description,
        kind: comment.kind,
        content: comment.text,
        memberName: comment.author,
        memberId: memberId(comment.author),
        createdAt: BASE_TIME + id * 7 * 60_000,
        upVotes: comment.up.length,
        downVotes: comment.down.length,
        upVoterIds: comment.up.map(memberId),
        downVoterIds: comment.down.map(memberId),
      });
    }
  }
  return { set, comments, idOf, keyOf };
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .map((part) => part.charAt(0).toUpperCase())
    .join('');
}

/** Summaries per component, suggestions over all comments, and the narrative over those suggestions. */
export async function runSet(provider: AiProvider, prepared: PreparedSet): Promise<SetOutputs> {
  const summaries = new Map<string, CommentSummaryOutput>();
  for (const component of prepared.set.components) {
    const comments = prepared.comments.filter((comment) => comment.componentId === component.id).reverse();
    summaries.set(component.id, await provider.summarizeComments({ componentId: component.id, componentTitle: component.title, comments }));
  }
  const suggestions = await provider.generateSuggestions({ comments: prepared.comments });
  const byId = new Map(prepared.comments.map((comment) => [comment.id, comment]));
  const suggestionSources = new Map<number, readonly number[]>();
  const forNarrative: SuggestionForAnalysis[] = suggestions.suggestions.map((suggestion, index) => {
    const sources = suggestion.sources.map((id) => byId.get(id)).filter((comment) => comment !== undefined);
    suggestionSources.set(index + 1, suggestion.sources);
    return {
      id: index + 1,
      suggestion: suggestion.suggestion,
      recommendationType: suggestion.recommendationType,
      componentTitles: [...new Set(sources.map((comment) => comment.componentTitle))],
      memberInitials: [...new Set(sources.map((comment) => initials(comment.memberName)))],
      upVotes: sources.reduce((sum, comment) => sum + comment.upVotes, 0),
      downVotes: sources.reduce((sum, comment) => sum + comment.downVotes, 0),
      sourceCount: sources.length,
      upVoterIds: [...new Set(sources.flatMap((comment) => comment.upVoterIds ?? []))],
      downVoterIds: [...new Set(sources.flatMap((comment) => comment.downVoterIds ?? []))],
      sourceIds: suggestion.sources,
    };
  });
  const sourceIds = new Set(suggestions.suggestions.flatMap((suggestion) => suggestion.sources));
  const sourceComments = prepared.comments.filter((comment) => sourceIds.has(comment.id));
  const narrative = await provider.narrativeSummary({ suggestions: forNarrative, sourceComments, prompt: { id: 1, template: DEFAULT_NARRATIVE_PROMPT } });
  return { summaries, suggestions, narrative, suggestionSources };
}
