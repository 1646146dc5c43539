import { describe, expect, it } from 'vitest';
import type { CommentForAnalysis } from '../provider.js';
import { Analyzer } from './analysis.js';
import { createLocalProvider } from './local-provider.js';
import { findDisagreements, type Disagreement } from './stance.js';
import { loadReader } from './wink.js';

/** Who stands against whom on one component, from the votes and the words. */

const BASE = Date.UTC(2026, 1, 2, 9, 0, 0);
const TITLE = 'Deduplication & Suppression';
// Member ids 1-6; names by id.
const NAMES = ['', 'Ana Berg', 'Ben Cole', 'Cy Diaz', 'Dee Eng', 'Eli Fox', 'Fay Gray'];

function at(id: number, author: number, content: string, up: number[] = [], down: number[] = []): CommentForAnalysis {
  return {
    id,
    componentId: 'event-deduplication',
    componentTitle: TITLE,
    kind: 'comment',
    content,
    memberName: NAMES[author] ?? 'Someone',
    createdAt: BASE + id * 60_000,
    upVotes: up.length,
    downVotes: down.length,
    upVoterIds: up,
    downVoterIds: down,
  };
}

/** Ana and Dee want 3 minutes, Ben and Eli 10; each camp votes its side up and the other down. */
const SPLIT = [
  at(1, 1, 'Set the flap damping window for edge health checks to 3 minutes, or a real outage stays hidden.', [4, 6], [2, 5]),
  at(2, 2, 'I disagree with Ana: 3 minutes is shorter than a BGP reconvergence. Make the flap damping window 10 minutes instead.', [5, 3], [1, 4]),
  at(3, 4, '+1 to 3 minutes. The Madrid check flapped for 8 minutes before it stayed down.', [1, 6], [2, 5]),
  at(4, 5, 'No, 10 minutes is the number. One reconvergence gave us 212 flap events from ams-01 alone.', [2, 3], [1, 4]),
];
const POPULAR = at(5, 3, 'Put the PoP code in the alert fingerprint next to the check name, so one bad PoP is one alert.', [1, 2, 4, 5, 6]);

async function disagreementsIn(comments: readonly CommentForAnalysis[]): Promise<Disagreement[]> {
  const analyzer = new Analyzer(await loadReader());
  const titleWords = analyzer.titleWords(TITLE);
  return findDisagreements(
    analyzer,
    comments.map((comment) => ({ comment, analysis: analyzer.analyse(comment.content, titleWords) })),
  );
}

const ids = (comments: readonly CommentForAnalysis[], side: readonly number[]) => side.map((i) => comments[i]?.id);

describe('findDisagreements', () => {
  it('names the question by the phrase around a word the sides share, not by the word alone', async () => {
    const comments = [
      at(1, 1, 'Keep the hand-kept suppression ledger as the source of truth; the assistant may only propose changes to it.', [3], [2, 4]),
      at(2, 2, 'I disagree with Ana: that ledger is always stale. Let the assistant decide on its own and show its reasons.', [4], [1, 3]),
      at(3, 4, '+1 Ana, auditors read the ledger first.', [1], [2]),
    ];
    const [found] = await disagreementsIn(comments);
    expect(found?.topic).toBe('suppression ledger');
  });

  it('finds both sides of a split from crossing votes, replies and values, with the two values as positions', async () => {
    const comments = [...SPLIT, POPULAR];
    const [found, ...others] = await disagreementsIn(comments);
    expect(others).toEqual([]);
    expect(found).toBeDefined();
    if (found === undefined) return;
    expect(ids(comments, found.sideA)).toEqual([1, 3]);
    expect(ids(comments, found.sideB)).toEqual([2, 4]);
    expect(found.positions).toEqual(['3 minutes', '10 minutes']);
    expect(found.topic).toMatch(/damping window/i);
    expect(found.resolved).toBe(false);
  });

  it('finds a disagreement said in words alone, without any votes or voter ids', async () => {
    const comments = SPLIT.map(({ upVoterIds: _up, downVoterIds: _down, ...comment }) => ({ ...comment, upVotes: 0, downVotes: 0 }));
    const [found] = await disagreementsIn(comments);
    expect(found).toBeDefined();
    expect(ids(comments, found?.sideA ?? [])).toContain(1);
    expect(ids(comments, found?.sideB ?? [])).toContain(2);
  });

  it('reads no split into a popular comment whose voters down-vote an unrelated weak one', async () => {
    const weak = at(6, 6, 'Rename the suppression rules page to Quiet Hours.', [], [1, 2, 4]);
    expect(await disagreementsIn([POPULAR, weak, at(7, 2, 'The maintenance window list should show who created each window.', [3])])).toEqual([]);
  });

  it('reads no side into a comment about something else that says "instead", whoever votes for it', async () => {
    // Side A's camp votes it up; it shares the figure 10 with side B, but no subject.
    const aside = at(6, 3, 'Gym shut till 10, so laps round the car park instead.', [1, 4]);
    const comments = [...SPLIT, aside];
    const [found] = await disagreementsIn(comments);
    expect(found).toBeDefined();
    expect([...ids(comments, found?.sideA ?? []), ...ids(comments, found?.sideB ?? [])]).not.toContain(6);
  });

  it('pairs no comments on different questions, however many members vote them opposite ways', async () => {
    // Two camps, each author with their own: Ana, Ben, Cy and Dee against Eli and Fay, both ways round.
    const camps = [
      { ...at(1, 1, 'Keep the shift handover notes in the wiki, with one page per rota week.', [2, 3, 4], [5, 6]), memberId: 1 },
      { ...at(2, 5, 'Colour the dashboard tiles by service tier so the red ones stand out.', [6], [1, 2, 3, 4]), memberId: 5 },
    ];
    expect(await disagreementsIn(camps)).toEqual([]);
  });

  describe('in a discussion whose every comment shares a few words', () => {
    // Nine comments on what the assistant drafts: 'assistant' and 'draft' name the discussion, not a question in it.
    const drafts = [
      at(1, 1, 'Let the assistant draft the shift handover notes from the chat log.', [3, 4, 6], [2, 5]),
      at(2, 2, 'The assistant should draft the status page text in plain English for customers.', [5, 6], [1, 3, 4]),
      at(3, 3, 'A draft from the assistant needs the ticket number in its first line.'),
      at(4, 4, 'Have the assistant draft the weekly capacity report for the storage arrays.'),
      at(5, 5, 'Every assistant draft should carry a footer saying it was generated.'),
      at(6, 6, 'The assistant may draft, but a person presses send on anything external.'),
      at(7, 1, 'Store each assistant draft next to the incident so reviewers can compare it.'),
      at(8, 2, 'Cap an assistant draft at three hundred words.'),
      at(9, 3, 'Let the assistant draft replies to vendor escalations too.'),
    ];

    it('does not set two comments against each other for the shared words alone', async () => {
      expect(await disagreementsIn(drafts)).toEqual([]);
    });

    it('still finds two comments on one question with opposing positions', async () => {
      const comments = [
        ...drafts.slice(2),
        at(10, 4, 'Let the assistant publish the customer status update by itself once the incident is ten minutes old.', [1, 5], [2, 6]),
        at(11, 6, 'Dee, we should keep a human approving every customer status update the assistant writes.', [2, 3], [1, 4, 5]),
      ];
      const [found, ...others] = await disagreementsIn(comments);
      expect(others).toEqual([]);
      expect(found).toBeDefined();
      expect([ids(comments, found?.sideA ?? []), ids(comments, found?.sideB ?? [])]).toEqual([[10], [11]]);
      expect(found?.topic).toMatch(/status update/i);
      // A side's position without the teammate it is addressed to.
      expect(found?.positions[1]).toBe('“Keep a human approving every customer status update the assistant writes”');
    });
  });

  describe('an author voting down a comment on the same question', () => {
    // Ana proposes; Ben answers without 'I disagree'; Ana votes his comment down. Ids are member ids.
    const own = (comment: CommentForAnalysis, memberId: number): CommentForAnalysis => ({ ...comment, memberId });
    const PROPOSAL = own(at(1, 1, 'Archive suppressed alerts once their rule expires, so the suppression table stays small and fast to search.', [3]), 1);
    const answer = (down: number[], content = 'Archiving suppressed alerts loses the evidence the suppression audit needs. Leave them in the table and page through them.') =>
      own(at(2, 2, content, [4], down), 2);

    it('stands against it: the two are the sides of a disagreement', async () => {
      const comments = [PROPOSAL, answer([1])];
      const [found] = await disagreementsIn(comments);
      expect(found && [ids(comments, found.sideA), ids(comments, found.sideB)]).toEqual([[1], [2]]);
    });

    it('is what pairs them: without the vote, no disagreement', async () => {
      expect(await disagreementsIn([PROPOSAL, answer([])])).toEqual([]);
    });

    it('pairs nothing when the comment backs the author in words, or is about something else', async () => {
      const backing = answer([1], '+1 Ana. Archiving suppressed alerts once the rule expires keeps the suppression table fast; add a restore button too.');
      expect(await disagreementsIn([PROPOSAL, backing])).toEqual([]);
      const elsewhere = answer([1], 'The runbook links in the paging message point at the old wiki; move them to the new handbook.');
      expect(await disagreementsIn([PROPOSAL, elsewhere])).toEqual([]);
    });
  });

  it('finds no disagreement where members only add to each other', async () => {
    const comments = [
      at(1, 1, 'Capture the maintenance window id when a window suppresses an event.', [2, 3]),
      at(2, 2, 'Agree with Ana, and capture who created the window too.', [1, 3]),
      at(3, 3, '+1, the audit log needs both.', [1]),
    ];
    expect(await disagreementsIn(comments)).toEqual([]);
  });

  it('settles a split when a middle way is backed by members of both sides', async () => {
    const middle = at(6, 6, 'Middle ground: a 3 minutes flap damping window for single-PoP checks and 10 minutes when a whole transit provider reconverges.', [1, 2, 4, 5]);
    const [found] = await disagreementsIn([...SPLIT, middle]);
    expect(found?.compromise.map((i) => [...SPLIT, middle][i]?.id)).toEqual([6]);
    expect(found?.resolved).toBe(true);
  });

  it('leaves a middle way nobody from the other side backs unresolved', async () => {
    const middle = at(6, 6, 'Middle ground: a 5 minutes flap damping window for every edge health check.', [1]);
    const [found] = await disagreementsIn([...SPLIT, middle]);
    expect(found?.compromise).toHaveLength(1);
    expect(found?.resolved).toBe(false);
  });
});

describe('the summary of a split component', () => {
  const provider = createLocalProvider();
  const input = (comments: CommentForAnalysis[]) => ({ componentId: 'event-deduplication', componentTitle: TITLE, comments: [...comments].reverse() });

  it('states who holds what, says the question is open, never that members mostly agree, and doubts itself', async () => {
    const summary = await provider.summarizeComments(input([...SPLIT, POPULAR]));
    expect(summary.understanding).toContain('Members disagree on');
    expect(summary.understanding).toContain('Ana Berg and Dee Eng argue for 3 minutes, Ben Cole and Eli Fox for 10 minutes.');
    expect(summary.understanding).toContain('Nobody has proposed a middle way yet');
    expect(summary.understanding).not.toMatch(/mostly agree/);
    expect(summary.confidence).toBeLessThanOrEqual(0.6);
  });

  it('says one member argues, and several argue', async () => {
    const [first, second] = SPLIT;
    if (first === undefined || second === undefined) throw new Error('the split has two sides');
    const summary = await provider.summarizeComments(input([first, second, POPULAR]));
    expect(summary.understanding).toContain('Ana Berg argues for 3 minutes, Ben Cole for 10 minutes.');
  });

  it('never cites opposite sides as the sources of one requested change', async () => {
    const summary = await provider.summarizeComments(input([...SPLIT, POPULAR]));
    for (const sources of [summary.sources.contentChanges, summary.sources.structuralChanges]) {
      expect(sources.some((id) => id === 1 || id === 3) && sources.some((id) => id === 2 || id === 4)).toBe(false);
    }
  });

  it('doubts itself when a comment is voted clearly both ways, even with no counterpart found', async () => {
    const agreed = [
      at(1, 1, 'Capture the maintenance window id whenever a window suppresses an event.', [2, 3, 4]),
      at(2, 2, 'Capture who created the maintenance window as well, in the audit log.', [1, 3, 4]),
      at(3, 3, 'Record the maintenance window owner next to the window id in the audit log.', [1, 2, 4]),
      at(4, 4, 'Show suppressed events on the maintenance window page with the window id.', [1, 2, 3]),
    ];
    const calm = await provider.summarizeComments(input(agreed));
    const contested = await provider.summarizeComments(input([...agreed, at(5, 5, 'Drop the suppression of flapping edge checks altogether.', [1, 2, 3], [4, 6])]));
    expect(calm.confidence).toBeGreaterThan(0.7);
    expect(contested.confidence).toBeLessThanOrEqual(0.7);
  });

  it('is surer of itself once both sides back a middle way', async () => {
    const middle = at(6, 6, 'Middle ground: a 3 minutes flap damping window for single-PoP checks and 10 minutes when a whole transit provider reconverges.', [1, 2, 4, 5]);
    const open = await provider.summarizeComments(input([...SPLIT, POPULAR]));
    const settled = await provider.summarizeComments(input([...SPLIT, POPULAR, middle]));
    expect(settled.understanding).toContain("Fay Gray's middle way has support from both sides.");
    expect(settled.confidence).toBeGreaterThan(open.confidence);
  });

  it('keeps the question open when a side says it keeps its view after the middle way', async () => {
    const middle = at(6, 6, 'Middle ground: a 3 minutes flap damping window for single-PoP checks and 10 minutes when a whole transit provider reconverges.', [1, 2, 4, 5]);
    const holdout = at(7, 2, 'Fair point on single PoPs, but I still think 3 minutes will page us for every reconvergence.', [5]);
    const settled = await provider.summarizeComments(input([...SPLIT, POPULAR, middle]));
    const open = await provider.summarizeComments(input([...SPLIT, POPULAR, middle, holdout]));
    expect(open.understanding).toContain('say they keep their view, so the question stays open');
    expect(open.confidence).toBeLessThan(settled.confidence);
    expect(open.confidence).toBeLessThanOrEqual(0.75);
  });
});
