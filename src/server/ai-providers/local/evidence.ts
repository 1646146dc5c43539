import { z } from 'zod';
import type { GenerateSuggestionsInput, NarrativeSummaryInput, SummarizeCommentsInput } from '../provider.js';
import { indexesByComponent, type Analyzer } from './analysis.js';
import { readDiscussion, type Discussion } from './summarize.js';

/**
 * The structure the built-in analyzer finds, handed to a model (the openai provider) so that it
 * writes from evidence rather than from the raw text alone: the themes (ids clustered by what they
 * say), the disagreements (the ids on each side, those offering a middle way, whether both sides
 * back it) and the comments set aside (addressed to the AI, or about other things), each with the
 * reason the comment panel shows. Ids are those of the input; labels and questions are the
 * reviewers' own words, data to a model like the rest. A summary's `setAside` is taken from here,
 * never from the model's answer.
 */

const ids = z.array(z.number().int());

const evidenceDisagreementSchema = z.object({
  question: z.string(),
  sideA: ids,
  sideB: ids,
  middleWay: ids,
  resolved: z.boolean(),
});

export const commentEvidenceSchema = z.object({
  themes: z.array(z.object({ label: z.string(), ids })),
  disagreements: z.array(evidenceDisagreementSchema),
  setAside: z.array(z.object({ id: z.number().int(), reason: z.string() })),
});

export const narrativeEvidenceSchema = z.object({
  themes: z.array(z.object({ label: z.string(), ids })),
  disagreements: z.array(evidenceDisagreementSchema),
});

/** Of one component's comments (a summary), or of every comment of the review (suggestions); comment ids. */
export type CommentEvidence = z.infer<typeof commentEvidenceSchema>;
/** Of the suggestions (the narrative); suggestion ids. */
export type NarrativeEvidence = z.infer<typeof narrativeEvidenceSchema>;

function fromDiscussion(discussion: Discussion): CommentEvidence {
  const idsOf = (indexes: readonly number[]) => indexes.flatMap((i) => (discussion.comments[i] === undefined ? [] : [discussion.comments[i].id]));
  return {
    themes: discussion.themes.map((theme) => ({ label: theme.label, ids: idsOf(theme.members) })),
    disagreements: discussion.disagreements.map((disagreement) => ({
      question: disagreement.topic,
      sideA: idsOf(disagreement.sideA),
      sideB: idsOf(disagreement.sideB),
      middleWay: idsOf(disagreement.compromise),
      resolved: disagreement.resolved,
    })),
    setAside: discussion.setAside,
  };
}

export function summaryEvidence(analyzer: Analyzer, input: SummarizeCommentsInput): CommentEvidence {
  return fromDiscussion(readDiscussion(analyzer, input));
}

/** Every component read as its summary reads it; the themes and disagreements of all of them. */
export function suggestionsEvidence(analyzer: Analyzer, input: GenerateSuggestionsInput): CommentEvidence {
  const parts = [...indexesByComponent(input.comments).values()].map((indexes) => {
    const comments = indexes.flatMap((i) => (input.comments[i] === undefined ? [] : [input.comments[i]]));
    const first = comments[0];
    return fromDiscussion(readDiscussion(analyzer, { componentId: first?.componentId ?? '', componentTitle: first?.componentTitle ?? '', comments }));
  });
  return {
    themes: parts.flatMap((part) => part.themes),
    disagreements: parts.flatMap((part) => part.disagreements),
    setAside: parts.flatMap((part) => part.setAside),
  };
}

/** Where a model's evidence comes from: the analyzer, in a worker thread in the server. */
export interface EvidenceSource {
  summary(input: SummarizeCommentsInput, signal?: AbortSignal): Promise<CommentEvidence>;
  suggestions(input: GenerateSuggestionsInput, signal?: AbortSignal): Promise<CommentEvidence>;
  narrative(input: NarrativeSummaryInput, signal?: AbortSignal): Promise<NarrativeEvidence>;
}
