import type { GenerateSuggestionsInput, NarrativeSummaryInput, SummarizeCommentsInput } from '../provider.js';

/** The messages between the server and an analyzer worker thread. */

export type AnalysisJob =
  | { kind: 'summarizeComments'; input: SummarizeCommentsInput }
  | { kind: 'generateSuggestions'; input: GenerateSuggestionsInput }
  | { kind: 'narrativeSummary'; input: NarrativeSummaryInput }
  | { kind: 'summaryEvidence'; input: SummarizeCommentsInput }
  | { kind: 'suggestionsEvidence'; input: GenerateSuggestionsInput }
  | { kind: 'narrativeEvidence'; input: NarrativeSummaryInput };

export type AnalysisRequest = AnalysisJob & { id: number };

export type AnalysisResponse = { id: number; ok: true; output: unknown } | { id: number; ok: false; message: string };
