import type { AiProviderName, CommentSummaryOutput, NarrativeOutput, SuggestionsOutput } from '../../common/contract/ai.js';
import type { CommentKind } from '../../common/contract/comments.js';

/**
 * The provider interface (docs/architecture.md, 'AI design'). Inputs are plain data the services read from the
 * database; every output is parsed by the shared contract's *output* schema before it is used, and
 * every source id it cites must be one of the input's ids (the service drops any other).
 */

export interface CommentForAnalysis {
  id: number;
  componentId: string;
  componentTitle: string;
  /** What the component does, from the architecture, when known: its words are the component's own vocabulary. */
  componentDescription?: string;
  kind: CommentKind;
  /** Untrusted text: analysed or delimited, never executed or followed. */
  content: string;
  memberName: string;
  /** The author's member id, when known: an author stands with their own comment, as an up-vote would. */
  memberId?: number;
  /** Epoch milliseconds. */
  createdAt: number;
  upVotes: number;
  downVotes: number;
  /**
   * Who voted which way, as member ids, when known: comments the same members vote opposite ways
   * stand against each other. Never shown; only compared.
   */
  upVoterIds?: readonly number[];
  downVoterIds?: readonly number[];
  /** Marked resolved by its author or an admin: settled, so not read as an open point. */
  resolved?: boolean;
}

/**
 * Who wrote a comment, as one key: by member id when known (voter ids are keyed the same way,
 * `id:<n>`), else by name, so one member is one voice wherever volume counts.
 */
export function authorKey(comment: { memberId?: number; memberName: string }): string {
  return comment.memberId === undefined ? `name:${comment.memberName.trim().toLowerCase()}` : `id:${comment.memberId}`;
}

export interface SuggestionForAnalysis {
  id: number;
  suggestion: string;
  recommendationType: 'content' | 'structural';
  /** Titles of the components it concerns. */
  componentTitles: string[];
  memberInitials: string[];
  /** Support: votes on the suggestion plus votes on the comments it follows from. */
  upVotes: number;
  downVotes: number;
  /** How many comments it follows from. */
  sourceCount: number;
  /** Who voted its source comments up and down, as member ids, when known (compared, never shown). */
  upVoterIds?: readonly number[];
  downVoterIds?: readonly number[];
  /** The comments it follows from, by id, when known (in the narrative input's sourceComments). */
  sourceIds?: readonly number[];
}

export interface SummarizeCommentsInput {
  componentId: string;
  componentTitle: string;
  /** The open comments, newest first. */
  comments: CommentForAnalysis[];
  /** How many comments are settled (resolved, or a basis of the decision) and left out of `comments`. */
  settledCount?: number;
}

export interface GenerateSuggestionsInput {
  /** Every comment of the review, oldest first. */
  comments: CommentForAnalysis[];
}

export interface NarrativeSummaryInput {
  suggestions: SuggestionForAnalysis[];
  /**
   * The comments the suggestions follow from, when known: where members disagree is read from them
   * (who stands against whom, in votes and words), as a component's summary reads it.
   */
  sourceComments?: CommentForAnalysis[];
  /** The admin's active prompt: `{suggestionsText}` is replaced by the delimited suggestions. */
  prompt: { id: number; template: string };
  /** How many suggestions are settled (decided, or a basis of a decision) and left out of `suggestions`. */
  settledCount?: number;
}

export interface AiProvider {
  readonly name: AiProviderName;
  readonly model: string;
  /** Part of every output's stamp: a new version means new outputs, not cached old ones. */
  promptVersion(kind: 'summary' | 'suggestions' | 'narrative', promptId?: number): string;
  summarizeComments(input: SummarizeCommentsInput, signal?: AbortSignal): Promise<CommentSummaryOutput>;
  generateSuggestions(input: GenerateSuggestionsInput, signal?: AbortSignal): Promise<SuggestionsOutput>;
  narrativeSummary(input: NarrativeSummaryInput, signal?: AbortSignal): Promise<NarrativeOutput>;
}
