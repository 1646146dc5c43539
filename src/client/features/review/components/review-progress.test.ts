import { describe, expect, test } from 'vitest';
import type { Architecture } from '../../../../common/contract/architecture';
import { progressLine, reviewedComponentIds } from './review-progress';

const ARCHITECTURE = {
  groups: [
    { id: 'g', title: 'G', description: '', cards: [{ id: 'a', title: 'A', description: '', highlights: [] }, { id: 'b', title: 'B', description: '', highlights: [] }] },
  ],
  diagram: { components: [{ id: 'b' }, { id: 'c' }], edges: [] },
} as unknown as Architecture;

describe('the review progress line', () => {
  test('counts each component once, cards and boxes', () => {
    expect(reviewedComponentIds(ARCHITECTURE)).toEqual(['a', 'b', 'c']);
  });

  test('says how many are decided, how many comments are open (and resolved), and the actions', () => {
    const line = progressLine(ARCHITECTURE, {
      components: { a: { open: 3, resolved: 2, decision: 'accepted' }, c: { open: 1, resolved: 0, decision: null }, stale: { open: 9, resolved: 0, decision: 'deferred' } },
      actions: { total: 4, done: 1 },
    });
    expect(line).toBe('1 of 3 components decided · 4 open comments (2 resolved) · 4 actions, 1 done');
  });

  test('reads well at the start of a review', () => {
    expect(progressLine(ARCHITECTURE, { components: {}, actions: { total: 1, done: 0 } })).toBe('0 of 3 components decided · 0 open comments · 1 action, 0 done');
  });
});
