import { describe, expect, it } from 'vitest';
import { ANALYSIS_BOUNDS, boundedComments, shortenedForAnalysis } from './analysis-bounds.js';
import { prepareSet } from './eval/run-set.js';
import { loadDevelopmentSets } from './eval/sets.js';
import type { CommentForAnalysis } from './provider.js';

const comment = (id: number, overrides: Partial<CommentForAnalysis> = {}): CommentForAnalysis => ({
  id,
  componentId: 'agentic-triage',
  componentTitle: 'Agentic Triage',
  kind: 'comment',
  content: `Comment ${id} about the approval gate.`,
  memberName: 'Alice Archer',
  memberId: 1,
  createdAt: id * 1_000,
  upVotes: 0,
  downVotes: 0,
  ...overrides,
});

describe('the bounds of what one AI call reads', () => {
  it('leaves every labelled evaluation set as it is: the same comments, objects and order', () => {
    for (const set of loadDevelopmentSets()) {
      const { comments } = prepareSet(set);
      const bounded = boundedComments(comments);
      expect(bounded.sample, set.name).toBeUndefined();
      expect(bounded.comments).toHaveLength(comments.length);
      bounded.comments.forEach((read, i) => {
        expect(read).toBe(comments[i]);
      });
    }
  });

  it('reads the most-voted and the most recent comments of a component past its bound, in the given order', () => {
    // Newest first, as a summary gets them; every 10th of the oldest half has votes.
    const all = Array.from({ length: 612 }, (_, i) => {
      const id = 612 - i;
      return comment(id, id <= 306 && id % 10 === 0 ? { upVotes: 2, downVotes: 1 } : {});
    });
    const { comments, sample } = boundedComments(all);
    expect(sample).toEqual({ read: ANALYSIS_BOUNDS.commentsPerComponent, of: 612, shortened: 0 });
    const ids = comments.map((read) => read.id);
    // Order kept: newest first.
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    // The 30 voted ones, old as they are, and then the most recent.
    const voted = all.filter((read) => read.upVotes > 0).map((read) => read.id);
    expect(ids).toEqual(expect.arrayContaining(voted));
    const newest = all.slice(0, ANALYSIS_BOUNDS.commentsPerComponent - voted.length).map((read) => read.id);
    expect(ids).toEqual(expect.arrayContaining(newest));
  });

  it("never lets one member's flood push out the others' comments, voted or not", () => {
    // Four teammates wrote one unvoted comment each, then one member posted 600 in a row.
    const teammates = [2, 3, 4, 5].map((memberId) => comment(memberId, { memberId, memberName: `Member ${memberId}` }));
    const flood = Array.from({ length: 600 }, (_, i) => comment(100 + i, { memberId: 1, memberName: 'Flo Flood' }));
    const { comments, sample } = boundedComments([...flood, ...teammates]);
    expect(sample?.read).toBe(ANALYSIS_BOUNDS.commentsPerComponent);
    expect(comments.map((read) => read.id)).toEqual(expect.arrayContaining([2, 3, 4, 5]));
    // Within the flooding member's share, their most-voted and most recent come first as before.
    const voted = comment(50, { memberId: 1, memberName: 'Flo Flood', upVotes: 3 });
    expect(boundedComments([...flood, voted, ...teammates]).comments.map((read) => read.id)).toEqual(expect.arrayContaining([50, 699, 2, 3, 4, 5]));
  });

  it('bounds each component on its own, then the characters of the call', () => {
    const long = 'word '.repeat(1_000);
    const all = Array.from({ length: 700 }, (_, i) => comment(i + 1, { componentId: i % 2 === 0 ? 'agentic-triage' : 'event-correlation', content: long }));
    const { comments, sample } = boundedComments(all);
    const chars = comments.reduce((sum, read) => sum + read.content.length, 0);
    expect(chars).toBeLessThanOrEqual(ANALYSIS_BOUNDS.charsPerCall);
    expect(comments.every((read) => read.content.length <= ANALYSIS_BOUNDS.charsPerComment)).toBe(true);
    expect(sample).toEqual({ read: comments.length, of: 700, shortened: comments.length });
    // Both components are read.
    expect(new Set(comments.map((read) => read.componentId)).size).toBe(2);
  });

  it('reads the beginning of a long comment, cut at a word boundary', () => {
    const text = `${'approval gate timeout '.repeat(200)}end`;
    const shortened = shortenedForAnalysis(text);
    expect(shortened.length).toBeLessThanOrEqual(ANALYSIS_BOUNDS.charsPerComment);
    expect(shortened.length).toBeGreaterThan(ANALYSIS_BOUNDS.charsPerComment * 0.9);
    expect(text.startsWith(shortened)).toBe(true);
    expect(text.charAt(shortened.length)).toBe(' ');
    expect(shortenedForAnalysis('short')).toBe('short');
  });
});
