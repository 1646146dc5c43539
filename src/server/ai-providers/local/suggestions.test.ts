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
    expect(approval[0]?.suggestion).toBe('Increase the approval gate timeout to 30 minutes so the on-call manager can react.');
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

  it('makes a suggestion of each side of a disagreement, even a side voted down and asking for nothing', async () => {
    const at = (id: number, author: string, memberId: number, content: string, up: number[], down: number[]): CommentForAnalysis => ({
      ...comment(id, COMPONENTS.correlation, author, content),
      memberId,
      upVotes: up.length,
      downVotes: down.length,
      upVoterIds: up,
      downVoterIds: down,
    });
    const split = [
      at(501, 'Ana Berg', 1, 'Set the disk latency correlation window to 2 minutes so a failing array pages fast.', [2, 3], [4, 5, 6]),
      at(502, 'Dee Eng', 4, 'I disagree with Ana: slow rebuilds run for twenty minutes, and each would open three incidents.', [5, 6], [1, 2, 3]),
    ];
    const { suggestions } = await provider.generateSuggestions({ comments: split });
    expect(suggestions.map((item) => item.sources).sort()).toEqual([[501], [502]]);
    // A side that opens by crediting a teammate is worded from the statement after it.
    const [first, second] = split;
    if (first === undefined || second === undefined) throw new Error('two comments expected');
    const credited = [first, { ...second, content: 'Ben has a point on speed though. Slow rebuilds run for twenty minutes, so a 2 minute disk latency window opens three incidents each.' }];
    const words = (await provider.generateSuggestions({ comments: [...credited, { ...comment(503, COMPONENTS.correlation, 'Ben Cole', 'Page the storage team for a failed array.'), memberId: 2 }] })).suggestions;
    expect(words.find((item) => item.sources.includes(502))?.suggestion).toBe('Slow rebuilds run for twenty minutes, so a 2 minute disk latency window opens three incidents each.');
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
    expect(suggestions[0]?.suggestion).toBe('Add a replay button for alert storms.');
  });

  it('rewords a proposal asked as a question as a request', async () => {
    const comments = [comment(7, COMPONENTS.triage, 'Dev Patel', 'Could we show the reassignment history in the triage panel?', { up: 2 })];
    const { suggestions } = await provider.generateSuggestions({ comments });
    expect(suggestions).toEqual([{ suggestion: 'Show the reassignment history in the triage panel.', recommendationType: 'content', sources: [7] }]);
  });

  it('says what the "it" of a request stands for, so a suggestion reads alone', async () => {
    const comments = [comment(8, COMPONENTS.triage, 'Dev Patel', 'The approval gate timeout is 10 minutes. Make it 30 minutes at night.', { up: 3 })];
    const { suggestions } = await provider.generateSuggestions({ comments });
    expect(suggestions.map((item) => item.suggestion)).toEqual(['Make the approval gate timeout 30 minutes at night.']);
  });

  it('words a cluster with a request that reads alone rather than one that points back', async () => {
    const comments = [
      comment(8, COMPONENTS.triage, 'Dev Patel', 'It should escalate the approval gate timeout to the duty manager.', { up: 3 }),
      comment(9, COMPONENTS.triage, 'Emma Fox', 'Escalate the approval gate timeout to the duty manager at night.', { up: 1 }),
    ];
    const { suggestions } = await provider.generateSuggestions({ comments });
    expect(suggestions.map((item) => item.suggestion)).toEqual(['Escalate the approval gate timeout to the duty manager at night.']);
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

  it('words a suggestion without the greeting, the teammate called or the component title it opens with', async () => {
    const on = (id: number, author: string, content: string) => comment(id, COMPONENTS.correlation, author, content, { up: 2 });
    const comments = [
      on(11, 'Priya Raman', 'Hi all, we should add a replay button for the storage alert storms.'),
      on(12, 'Omar Haddad', 'Priya, we should put the rollback command at the top of every disk runbook.'),
      on(17, 'Priya Raman', 'Morning Omar, the escalation policy should name a backup for the weekend on-call.'),
      on(13, 'Lena Vogt', '@omar please tag every suppression rule with the team that owns it.'),
      on(14, 'Priya Raman', 'Team: keep the flap damping window at five minutes for edge checks.'),
      on(15, 'Omar Haddad', 'Event Correlation: group the disk alerts of one array into a single incident.'),
      on(16, 'Lena Vogt', 'Log every merged alert pair with its similarity score, Omar.'),
    ];
    const { suggestions } = await provider.generateSuggestions({ comments });
    expect(suggestions.map((item) => item.suggestion).sort()).toEqual([
      'Add a replay button for the storage alert storms.',
      'Group the disk alerts of one array into a single incident.',
      'Keep the flap damping window at five minutes for edge checks.',
      'Log every merged alert pair with its similarity score.',
      'Put the rollback command at the top of every disk runbook.',
      'Tag every suppression rule with the team that owns it.',
      'The escalation policy should name a backup for the weekend on-call.',
    ]);
  });

  describe('one member with many comments, voted up by themselves', () => {
    const voted = (item: CommentForAnalysis, memberId: number, up: number[]): CommentForAnalysis => ({ ...item, memberId, upVotes: up.length, upVoterIds: up, downVoterIds: [] });
    // Ana (member 1) writes a request twice on each of many components and votes up her own comments.
    const flood = (components: number) =>
      Array.from({ length: components }, (_item, i) => {
        const where = { componentId: `queue-${i}`, componentTitle: `Queue ${i}` };
        const text = `Add a dedicated health check for the queue ${i} worker pool.`;
        return [voted(comment(1_000 + 2 * i, where, 'Ana Berg', text), 1, [1]), voted(comment(1_001 + 2 * i, where, 'Ana Berg', text), 1, [1])];
      }).flat();
    // Ben writes one request that Cy and Dee vote up: three members.
    const point = voted(comment(1, COMPONENTS.correlation, 'Ben Cole', 'Show the suppressed alerts of a maintenance window on the incident.'), 2, [3, 4]);

    it('rank below a point three other members stand behind', async () => {
      const { suggestions } = await provider.generateSuggestions({ comments: [...flood(3), point] });
      expect(suggestions[0]?.sources).toEqual([1]);
    });

    it('do not push that point out when the suggestions are capped', async () => {
      const { suggestions } = await provider.generateSuggestions({ comments: [...flood(60), point] });
      expect(suggestions).toHaveLength(60);
      expect(suggestions.map((item) => item.sources)).toContainEqual([1]);
    });
  });

  it('answers no suggestions for no comments', async () => {
    expect(await provider.generateSuggestions({ comments: [] })).toEqual({ suggestions: [] });
  });
});

function commentsOf(comments: readonly CommentForAnalysis[], ids: readonly number[]): CommentForAnalysis[] {
  return comments.filter((item) => ids.includes(item.id));
}
