import { describe, expect, it } from 'vitest';
import { suggestionsOutputSchema } from '../../../common/contract/ai.js';
import { recommendationTypeOf } from '../../../common/significance.js';
import type { CommentForAnalysis } from '../provider.js';
import { COMPONENTS, TRIAGE_APPROVAL_IDS, comment, reviewComments } from './fixtures/comments.js';
import { shuffled, stringsOf } from './fixtures/helpers.js';
import { createLocalProvider } from './local-provider.js';

const provider = createLocalProvider();
const commentsById = new Map(reviewComments.map((item) => [item.id, item]));

describe('local generateSuggestions', () => {
  it('makes one suggestion of the four approval-gate comments, worded from the best-voted one', async () => {
    const { suggestions } = await provider.generateSuggestions({ comments: reviewComments });
    const approval = suggestions.filter((item) => item.sources.some((id) => (TRIAGE_APPROVAL_IDS as readonly number[]).includes(id)));
    expect(approval).toHaveLength(1);
    expect(approval[0]?.sources).toEqual([...TRIAGE_APPROVAL_IDS]);
    expect(approval[0]?.suggestion).toBe('Agentic Triage: Increase the approval gate timeout to 30 minutes so the on-call manager can react.');
    expect(approval[0]?.recommendationType).toBe('content');
  });

  it('clusters the alternative-assignment-group and correlation-window requests', async () => {
    const { suggestions } = await provider.generateSuggestions({ comments: reviewComments });
    const sources = suggestions.map((item) => item.sources);
    expect(sources).toContainEqual([105, 106, 107]);
    expect(sources).toContainEqual([201, 202]);
    const window = suggestions.find((item) => item.sources.includes(201));
    expect(window?.suggestion).toBe('Extend the correlation window to 15 minutes for storage alerts.');
  });

  it('keeps opposite requests on the same thing apart', async () => {
    const { suggestions } = await provider.generateSuggestions({ comments: reviewComments });
    const keep = suggestions.find((item) => item.sources.includes(301));
    const remove = suggestions.find((item) => item.sources.includes(302));
    expect(keep?.sources).toEqual([301]);
    expect(remove?.sources).toEqual([302]);
    expect(remove?.recommendationType).toBe('structural');
  });

  it('never makes one suggestion of comments on opposite sides of a disagreement, even when they share their words', async () => {
    const at = (id: number, author: string, content: string, up: number[], down: number[]): CommentForAnalysis => ({
      ...comment(id, COMPONENTS.correlation, author, content),
      upVotes: up.length,
      downVotes: down.length,
      upVoterIds: up,
      downVoterIds: down,
    });
    const split = [
      at(401, 'Ana Berg', 'Set the storage alert correlation window to 5 minutes.', [2, 3], [4, 5]),
      at(402, 'Dee Eng', 'Set the storage alert correlation window to 20 minutes instead.', [4, 5], [2, 3]),
    ];
    const { suggestions } = await provider.generateSuggestions({ comments: split });
    expect(suggestions.map((item) => item.sources).sort()).toEqual([[401], [402]]);
    // Without the crossing votes and values they are one request, worded once.
    const agreed = split.map((item) => ({ ...item, content: 'Set the storage alert correlation window per service.', upVoterIds: [2, 3], downVoterIds: [], upVotes: 2, downVotes: 0 }));
    expect((await provider.generateSuggestions({ comments: agreed })).suggestions.map((item) => item.sources)).toEqual([[401, 402]]);
  });

  it('lets a proposal stand alone, and makes nothing of praise or plain questions', async () => {
    const { suggestions } = await provider.generateSuggestions({ comments: reviewComments });
    const cited = new Set(suggestions.flatMap((item) => item.sources));
    expect(cited.has(303)).toBe(true);
    for (const id of [108, 109, 204, 304]) expect(cited.has(id)).toBe(false);
  });

  it('cites only real comments, each suggestion on one component, ordered by support', async () => {
    const { suggestions } = await provider.generateSuggestions({ comments: reviewComments });
    expect(suggestions.length).toBeGreaterThanOrEqual(6);
    const nets = suggestions.map((item) =>
      item.sources.reduce((sum, id) => {
        const source = commentsById.get(id);
        expect(source).toBeDefined();
        return sum + (source === undefined ? 0 : source.upVotes - source.downVotes);
      }, 0),
    );
    for (let i = 1; i < nets.length; i += 1) expect(nets[i]).toBeLessThanOrEqual(nets[i - 1] ?? Number.POSITIVE_INFINITY);
    for (const item of suggestions) {
      expect(item.sources.length).toBeGreaterThanOrEqual(1);
      expect(new Set(item.sources.map((id) => commentsById.get(id)?.componentId)).size).toBe(1);
      expect(item.recommendationType).toBe(recommendationTypeOf(item.suggestion));
    }
  });

  it('gives the same suggestions, word for word, for the same comments in any order', async () => {
    const first = await provider.generateSuggestions({ comments: reviewComments });
    const again = await provider.generateSuggestions({ comments: reviewComments });
    const reordered = await provider.generateSuggestions({ comments: shuffled(reviewComments) });
    expect(again).toEqual(first);
    expect(reordered).toEqual(first);
  });

  it('parses with the output schema and writes plain sentences', async () => {
    const output = await provider.generateSuggestions({ comments: reviewComments });
    expect(suggestionsOutputSchema.parse(output)).toEqual(output);
    for (const text of stringsOf(output.suggestions.map((item) => item.suggestion))) {
      expect(text).not.toMatch(/[<>*#`]|\]\(/);
      expect(text).toMatch(/^[A-Z].*[.!]$/);
    }
  });

  it('needs support for a hedged single comment, and never uses a voted-down one alone', async () => {
    const comments: CommentForAnalysis[] = [
      comment(1, COMPONENTS.correlation, 'Anna Berg', 'It could maybe use some colour coding for the rule groups.'),
      comment(2, COMPONENTS.correlation, 'Ben Carter', 'Remove the deduplication cache from the correlation engine entirely.', { up: 1, down: 3 }),
      comment(3, COMPONENTS.correlation, 'Chloe Diaz', 'Add a replay button for alert storms.'),
    ];
    const { suggestions } = await provider.generateSuggestions({ comments });
    expect(suggestions.map((item) => item.sources)).toEqual([[3]]);
    expect(suggestions[0]?.suggestion).toBe('Event Correlation: Add a replay button for alert storms.');
  });

  it('rewords a proposal asked as a question as a request', async () => {
    const comments = [comment(7, COMPONENTS.triage, 'Dev Patel', 'Could we show the reassignment history in the triage panel?', { up: 2 })];
    const { suggestions } = await provider.generateSuggestions({ comments });
    expect(suggestions).toEqual([{ suggestion: 'Show the reassignment history in the triage panel.', recommendationType: 'content', sources: [7] }]);
  });

  it('says what the "it" of a request stands for, so a suggestion reads alone', async () => {
    const comments = [comment(8, COMPONENTS.triage, 'Dev Patel', 'The approval gate timeout is 10 minutes. Make it 30 minutes at night.', { up: 3 })];
    const { suggestions } = await provider.generateSuggestions({ comments });
    expect(suggestions.map((item) => item.suggestion)).toEqual(['Agentic Triage: Make the approval gate timeout 30 minutes at night.']);
  });

  it('words a cluster with a request that reads alone rather than one that points back', async () => {
    const comments = [
      comment(8, COMPONENTS.triage, 'Dev Patel', 'It should escalate the approval gate timeout to the duty manager.', { up: 3 }),
      comment(9, COMPONENTS.triage, 'Emma Fox', 'Escalate the approval gate timeout to the duty manager at night.', { up: 1 }),
    ];
    const { suggestions } = await provider.generateSuggestions({ comments });
    expect(suggestions.map((item) => item.suggestion)).toEqual(['Agentic Triage: Escalate the approval gate timeout to the duty manager at night.']);
  });

  it('answers at most 60 suggestions, the best-supported ones', async () => {
    const comments = Array.from({ length: 120 }, (_item, i) =>
      comment(
        i + 1,
        { componentId: `component-${i}`, componentTitle: `Component ${i}` },
        `Member ${i % 9}`,
        `Add a dedicated health check for the queue ${i} worker pool.`,
        { up: i % 7 },
      ),
    );
    const output = await provider.generateSuggestions({ comments });
    expect(output.suggestions).toHaveLength(60);
    expect(suggestionsOutputSchema.safeParse(output).success).toBe(true);
    const nets = output.suggestions.map((item) => (commentsOf(comments, item.sources)[0]?.upVotes ?? -1));
    expect(Math.min(...nets)).toBeGreaterThanOrEqual(3);
  });

  it('answers no suggestions for no comments', async () => {
    expect(await provider.generateSuggestions({ comments: [] })).toEqual({ suggestions: [] });
  });
});

function commentsOf(comments: readonly CommentForAnalysis[], ids: readonly number[]): CommentForAnalysis[] {
  return comments.filter((item) => ids.includes(item.id));
}
