import type { CommentSummaryOutput, NarrativeOutput, SuggestionsOutput } from '../../../common/contract/ai.js';
import { commentSummaryOutputSchema, narrativeOutputSchema, suggestionsOutputSchema } from '../../../common/contract/ai.js';
import type { AiProvider, CommentForAnalysis, GenerateSuggestionsInput, NarrativeSummaryInput, SummarizeCommentsInput } from '../provider.js';
import type { AnalyzerPool } from './analyzer-pool.js';
import { type AnalysisCache, Analyzer } from './analysis.js';
import { commentEvidenceSchema, narrativeEvidenceSchema, suggestionsEvidence, summaryEvidence, type EvidenceSource } from './evidence.js';
import { narrativeEvidence, narrativeSummary } from './narrative.js';
import { generateSuggestions } from './suggestions.js';
import { summarizeComments } from './summarize.js';
import type { Reader } from './wink.js';
import { loadReader } from './wink.js';
import type { WordModels } from './word-model.js';

/**
 * The offline, deterministic `local` provider: real text analysis with wink-nlp
 * (sentences, part-of-speech tags, lemmas, negation, sentiment), no network and no randomness. The
 * same input always gives the same output; a change to the analysis bumps PROMPT_VERSION so cached
 * outputs of the old analysis are not reused.
 */

export const LOCAL_MODEL = 'wink-eng-lite-web-model@1.8';
export const LOCAL_PROMPT_VERSION = 'local-analyzer/8';

/**
 * `cache`: analyses kept across calls (the analyzer worker keeps one; without it every call reads
 * every text). `wordModels`: other word models than the trained ones, for an evaluation that scores a
 * set with models that never saw it.
 */
export function createLocalProvider(options: { cache?: AnalysisCache; wordModels?: WordModels } = {}): AiProvider {
  const { cache, wordModels } = options;
  return {
    name: 'local',
    model: LOCAL_MODEL,
    promptVersion: () => LOCAL_PROMPT_VERSION,

    async summarizeComments(input: SummarizeCommentsInput, signal?: AbortSignal): Promise<CommentSummaryOutput> {
      const analyzer = await analyzerFor(signal, cache, wordModels);
      return commentSummaryOutputSchema.parse(summarizeComments(analyzer, input));
    },

    async generateSuggestions(input: GenerateSuggestionsInput, signal?: AbortSignal): Promise<SuggestionsOutput> {
      const analyzer = await analyzerFor(signal, cache, wordModels);
      return suggestionsOutputSchema.parse(generateSuggestions(analyzer, input));
    },

    async narrativeSummary(input: NarrativeSummaryInput, signal?: AbortSignal): Promise<NarrativeOutput> {
      const analyzer = await analyzerFor(signal, cache, wordModels);
      return narrativeOutputSchema.parse(narrativeSummary(analyzer, input));
    },
  };
}

/**
 * The same provider, answered by a pool of worker threads: what the server uses, so that an
 * analysis never blocks the event loop. Outputs are parsed again here; the worker is code of ours,
 * but a message crosses a boundary.
 */
export function createPooledLocalProvider(pool: AnalyzerPool): AiProvider {
  return {
    name: 'local',
    model: LOCAL_MODEL,
    promptVersion: () => LOCAL_PROMPT_VERSION,

    async summarizeComments(input: SummarizeCommentsInput, signal?: AbortSignal): Promise<CommentSummaryOutput> {
      return commentSummaryOutputSchema.parse(await pool.run({ kind: 'summarizeComments', input }, signal));
    },

    async generateSuggestions(input: GenerateSuggestionsInput, signal?: AbortSignal): Promise<SuggestionsOutput> {
      return suggestionsOutputSchema.parse(await pool.run({ kind: 'generateSuggestions', input }, signal));
    },

    async narrativeSummary(input: NarrativeSummaryInput, signal?: AbortSignal): Promise<NarrativeOutput> {
      return narrativeOutputSchema.parse(await pool.run({ kind: 'narrativeSummary', input }, signal));
    },
  };
}

/** The analyzer's structure for a model to write from (evidence.ts), in this thread. */
export function createLocalEvidence(options: { cache?: AnalysisCache } = {}): EvidenceSource {
  const { cache } = options;
  return {
    async summary(input, signal) {
      return summaryEvidence(await analyzerFor(signal, cache), input);
    },
    async suggestions(input, signal) {
      return suggestionsEvidence(await analyzerFor(signal, cache), input);
    },
    async narrative(input, signal) {
      return narrativeEvidence(await analyzerFor(signal, cache), input);
    },
  };
}

/** The same, answered by the pool's worker threads (the server's): parsed again, since a message crosses a boundary. */
export function createPooledEvidence(pool: AnalyzerPool): EvidenceSource {
  return {
    async summary(input, signal) {
      return commentEvidenceSchema.parse(await pool.run({ kind: 'summaryEvidence', input }, signal));
    },
    async suggestions(input, signal) {
      return commentEvidenceSchema.parse(await pool.run({ kind: 'suggestionsEvidence', input }, signal));
    },
    async narrative(input, signal) {
      return narrativeEvidenceSchema.parse(await pool.run({ kind: 'narrativeEvidence', input }, signal));
    },
  };
}

/** A fresh analyzer per call (its phrase labels belong to that call's texts) over the shared, once-loaded model. */
async function analyzerFor(signal: AbortSignal | undefined, cache: AnalysisCache | undefined, wordModels?: WordModels): Promise<Analyzer> {
  signal?.throwIfAborted();
  const reader = await warmedReader();
  signal?.throwIfAborted();
  return new Analyzer(reader, cache, wordModels);
}

let warming: Promise<Reader> | undefined;

/**
 * The model, loaded once per process; on loading, a few sample comments, repeated to
 * WARM_UP_DISCUSSION comments, go through a summary, which analyses each of them: the engine and
 * the loops over pairs of comments run often enough to be compiled, so the first large component
 * read is not twice as slow as the next.
 */
function warmedReader(): Promise<Reader> {
  warming ??= loadReader().then(
    (reader) => {
      summarizeComments(new Analyzer(reader), { componentId: 'warm-up', componentTitle: WARM_UP_TITLE, comments: warmUpDiscussion() });
      return reader;
    },
    (error: unknown) => {
      warming = undefined;
      throw error;
    },
  );
  return warming;
}

const WARM_UP_TITLE = 'Agentic Triage';
const WARM_UP_DISCUSSION = 60;

/** The samples as one discussion among five members who vote on each other's comments. */
function warmUpDiscussion(): CommentForAnalysis[] {
  return Array.from({ length: WARM_UP_DISCUSSION }, (_unused, i) => ({
    id: i + 1,
    componentId: 'warm-up',
    componentTitle: WARM_UP_TITLE,
    kind: i % 2 === 0 ? 'proposal' : 'comment',
    // Each text distinct, so each is read rather than found among the analyses already made: the
    // reading code is what a first large call spends most of its time in.
    content: `${WARM_UP[i % WARM_UP.length] ?? ''} Ref ${String(i + 1)}.`,
    memberName: `Member ${i % 5}`,
    memberId: (i % 5) + 1,
    createdAt: i * 60_000,
    upVotes: 1,
    downVotes: 1,
    upVoterIds: [((i + 1) % 5) + 1],
    downVoterIds: [((i + 2) % 5) + 1],
  }));
}

const WARM_UP = [
  'The approval gate timeout is far too short for P1 incidents. We should increase it to 30 minutes so the on-call manager can react.',
  'Please show the alternative assignment groups with their confidence scores; the top pick alone is not enough for the service desk.',
  'Great work on this flow, it is really clear. How does the agent learn from reassignments?',
  'Split the enrichment step into a separate CMDB lookup, but keep the human approval for production changes.',
  "Can we document what happens when the correlation window closes? It would be better to extend it, not to drop alerts.",
  // A reply by name and a disagreement in values: the paths that read sides and quote them.
  "Member 1, I'd rather keep the approval gate timeout at 10 minutes; 30 minutes is too risky for P1 incidents.",
  '+1 to 30 minutes, and page the duty manager after 25 minutes.',
];
