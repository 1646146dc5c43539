/** The local analyzer on the built code, timed in this process on the demo comments with seeded members and votes. */
import type { createLocalProvider } from '../../src/server/ai-providers/local/local-provider.js';
import type { CommentForAnalysis, SuggestionForAnalysis } from '../../src/server/ai-providers/provider.js';
import type { DEMO_THREADS } from '../../src/server/seed/demo-comments.js';
import { builtExport } from './built.js';
import { prng } from '../../src/server/seed/random.js';
import { SEEDS } from './random.js';
import { summarize } from './stats.js';

export const ANALYZER_TARGETS = { summaryMs: 300, narrativeMs: 300, summaryComments: 500, narrativeSuggestions: 200 } as const;
const RUNS = 7;

export interface AnalyzerResult {
  modelLoadMs: number;
  summary: { comments: number; firstMs: number; medianMs: number; maxMs: number };
  narrative: { suggestions: number; firstMs: number; medianMs: number; maxMs: number };
  suggestions: { comments: number; medianMs: number };
}

const MEMBERS = ['Priya Raman', 'Diego Alvarez', 'Kenji Sato', 'Samuel Okoye', 'Tomasz Nowak', 'Rafael Costa', 'Hannah Berg', 'Olivia Grant', 'Aisha Bello', 'Marcus Webb'];

function demoComments(threads: typeof DEMO_THREADS, count: number, componentId: string | undefined): CommentForAnalysis[] {
  const random = prng(SEEDS.analyzerComments);
  const entries = Object.entries(threads).flatMap(([id, list]) => list.map((entry) => ({ componentId: id, entry })));
  return Array.from({ length: count }, (_, index) => {
    const picked = entries[index % entries.length];
    if (picked === undefined) throw new Error('no demo comments');
    const author = Math.floor(random() * MEMBERS.length);
    const upVotes = Math.floor(random() * 6);
    const downVotes = picked.entry.reception === 'split' ? Math.floor(random() * 4) : Math.floor(random() * 2);
    // Voters are the other members, each voting once: the analysis compares who votes what.
    const voters = MEMBERS.map((_name, member) => member + 1).filter((member) => member !== author + 1);
    const shuffled = voters.map((member) => ({ member, order: random() })).sort((a, b) => a.order - b.order).map((entry) => entry.member);
    return {
      id: index + 1,
      componentId: componentId ?? picked.componentId,
      componentTitle: componentId ?? picked.componentId,
      kind: picked.entry.kind,
      content: picked.entry.text,
      memberName: MEMBERS[author] ?? 'Priya Raman',
      createdAt: 1_700_000_000_000 + index * 60_000,
      upVotes,
      downVotes,
      upVoterIds: shuffled.slice(0, upVotes),
      downVoterIds: shuffled.slice(upVotes, upVotes + downVotes),
    };
  });
}

/**
 * 200 suggestions: the demo proposals and requests, each once, with seeded votes, each following
 * from 1–4 of the review's comments (given to the narrative with them, as the server gives them).
 */
function demoSuggestions(threads: typeof DEMO_THREADS, count: number, comments: readonly CommentForAnalysis[]): SuggestionForAnalysis[] {
  const random = prng(SEEDS.analyzerSuggestions);
  const texts = Object.entries(threads).flatMap(([id, list]) => list.map((entry) => ({ id, text: entry.text.split(/(?<=[.!?])\s/)[0] ?? entry.text })));
  return Array.from({ length: count }, (_, index) => {
    const picked = texts[index % texts.length];
    if (picked === undefined) throw new Error('no demo texts');
    return {
      id: index + 1,
      suggestion: picked.text,
      recommendationType: /\b(split|merge|remove|replace|move)\b/i.test(picked.text) ? 'structural' : 'content',
      componentTitles: [picked.id],
      memberInitials: ['PR', 'DA'],
      upVotes: Math.floor(random() * 7),
      downVotes: Math.floor(random() * 4),
      ...sourcesOf(1 + Math.floor(random() * 4), index, comments),
    };
  });
}

function sourcesOf(sourceCount: number, index: number, comments: readonly CommentForAnalysis[]): Pick<SuggestionForAnalysis, 'sourceCount' | 'sourceIds' | 'upVoterIds' | 'downVoterIds'> {
  const sources = Array.from({ length: sourceCount }, (_, k) => comments[(index * 3 + k) % comments.length]).filter((comment) => comment !== undefined);
  return {
    sourceCount,
    sourceIds: sources.map((comment) => comment.id),
    upVoterIds: [...new Set(sources.flatMap((comment) => comment.upVoterIds ?? []))],
    downVoterIds: [...new Set(sources.flatMap((comment) => comment.downVoterIds ?? []))],
  };
}

async function timed<T>(run: () => Promise<T>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

export async function measureAnalyzer(): Promise<AnalyzerResult> {
  const threads = await builtExport<typeof DEMO_THREADS>('server/seed/demo-comments.js', 'DEMO_THREADS');
  const create = await builtExport<typeof createLocalProvider>('server/ai-providers/local/local-provider.js', 'createLocalProvider');
  const provider = create();

  const comments = demoComments(threads, ANALYZER_TARGETS.summaryComments, 'agentic-triage');
  const summaryInput = { componentId: 'agentic-triage', componentTitle: 'Agentic Triage', comments };
  // The model loads on first use: time that apart from the calls.
  const modelLoadMs = await timed(() => provider.summarizeComments({ componentId: 'agentic-triage', componentTitle: 'Agentic Triage', comments: comments.slice(0, 1) }));
  const summaryFirst = await timed(() => provider.summarizeComments(summaryInput));
  const summaryRuns: number[] = [];
  for (let run = 0; run < RUNS; run += 1) summaryRuns.push(await timed(() => provider.summarizeComments(summaryInput)));

  const reviewComments = demoComments(threads, ANALYZER_TARGETS.summaryComments, undefined);
  const suggestions = demoSuggestions(threads, ANALYZER_TARGETS.narrativeSuggestions, reviewComments);
  const cited = new Set(suggestions.flatMap((suggestion) => suggestion.sourceIds ?? []));
  const sourceComments = reviewComments.filter((comment) => cited.has(comment.id));
  const narrativeInput = { suggestions, sourceComments, prompt: { id: 1, template: '{suggestionsText}' } };
  const narrativeFirst = await timed(() => provider.narrativeSummary(narrativeInput));
  const narrativeRuns: number[] = [];
  for (let run = 0; run < RUNS; run += 1) narrativeRuns.push(await timed(() => provider.narrativeSummary(narrativeInput)));

  const generationRuns: number[] = [];
  for (let run = 0; run < 3; run += 1) generationRuns.push(await timed(() => provider.generateSuggestions({ comments: reviewComments })));

  const summaryStats = summarize(summaryRuns);
  const narrativeStats = summarize(narrativeRuns);
  return {
    modelLoadMs,
    summary: { comments: comments.length, firstMs: summaryFirst, medianMs: summaryStats.median, maxMs: summaryStats.max },
    narrative: { suggestions: suggestions.length, firstMs: narrativeFirst, medianMs: narrativeStats.median, maxMs: narrativeStats.max },
    suggestions: { comments: reviewComments.length, medianMs: summarize(generationRuns).median },
  };
}
