import { describe, expect, it } from 'vitest';
import { candidatesOf, pickGroups } from './grouping.js';

const phrasesOf = (items: string[][]) => candidatesOf(items, (_item, phrase) => phrase);

describe('pickGroups', () => {
  it('prefers the more specific phrase when both cover the same items', () => {
    const candidates = phrasesOf([['timeout', 'approval gate timeout'], ['approval gate timeout', 'timeout'], ['runbook']]);
    const groups = pickGroups(candidates, { minSize: 2, maxGroups: 5, bonus: [0, 0, 0], exclusive: false });
    expect(groups.map((group) => [group.candidate.phrase, group.members])).toEqual([['approval gate timeout', [0, 1]]]);
  });

  it('weighs a longer phrase above a vague word with slightly more votes', () => {
    const candidates = phrasesOf([['incident'], ['incident', 'approval gate timeout'], ['approval gate timeout']]);
    const groups = pickGroups(candidates, { minSize: 2, maxGroups: 1, bonus: [0.5, 0, 0], exclusive: true });
    expect(groups[0]?.candidate.phrase).toBe('approval gate timeout');
  });

  it('weighs votes: the better-voted of two equal phrases wins', () => {
    const candidates = phrasesOf([['runbook link'], ['runbook link'], ['health check'], ['health check']]);
    const groups = pickGroups(candidates, { minSize: 2, maxGroups: 1, bonus: [0, 0, 1, 0], exclusive: true });
    expect(groups[0]?.candidate.phrase).toBe('health check');
  });

  it('gives each item to one group when exclusive, and stops below the minimum size', () => {
    const candidates = phrasesOf([['gate', 'queue'], ['gate', 'queue'], ['gate'], ['queue', 'panel'], ['panel']]);
    const groups = pickGroups(candidates, { minSize: 2, maxGroups: 10, bonus: [0, 0, 0, 0, 0], exclusive: true });
    expect(groups.map((group) => [group.candidate.phrase, group.members])).toEqual([
      ['gate', [0, 1, 2]],
      ['panel', [3, 4]],
    ]);
  });

  it('cites every item with the phrase when not exclusive, but adds no group that covers nothing new', () => {
    const candidates = phrasesOf([['gate', 'queue'], ['gate', 'queue'], ['gate'], ['queue', 'panel'], ['panel']]);
    const groups = pickGroups(candidates, { minSize: 2, maxGroups: 10, bonus: [0, 0, 0, 0, 0], exclusive: false });
    expect(groups.map((group) => [group.candidate.phrase, group.members])).toEqual([
      ['gate', [0, 1, 2]],
      ['panel', [3, 4]],
    ]);
  });
});
