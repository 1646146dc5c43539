import { describe, expect, it } from 'vitest';
import { matchSuggestions, normalizeSuggestionText, sourceOverlap, type ExistingSuggestion } from './match-suggestions.js';

const old = (id: number, text: string, sources: number[], status: ExistingSuggestion['status'] = 'active'): ExistingSuggestion => ({ id, text, sources, status });

describe('matchSuggestions (regenerating never loses votes)', () => {
  it('keeps the id of a suggestion with the same text, whatever its punctuation and case', () => {
    expect(normalizeSuggestionText('Add a timeout — with escalation!')).toBe(normalizeSuggestionText('add a timeout with escalation'));
    expect(matchSuggestions([old(7, 'Add a timeout, with escalation.', [1, 2])], [{ text: 'add a timeout with escalation', sources: [9] }])).toEqual([7]);
  });

  it('brings an archived suggestion back by its text, but only an active one by its sources', () => {
    const existing = [old(3, 'Show the alternative groups', [1, 2], 'archived'), old(4, 'Keep the gate', [5, 6], 'archived')];
    expect(matchSuggestions(existing, [{ text: 'Show the alternative groups', sources: [1] }, { text: 'Keep the gate open longer', sources: [5, 6] }])).toEqual([3, undefined]);
  });

  it('keeps the id of a reworded suggestion sharing at least half its sources, the closest first', () => {
    expect(sourceOverlap([1, 2, 3], [2, 3, 4])).toBe(0.5);
    const existing = [old(10, 'Timeout the approval gate', [1, 2, 3]), old(11, 'Approval gate timeout per tier', [2, 3, 4, 5])];
    expect(matchSuggestions(existing, [{ text: 'Escalate an unanswered approval gate after 15 minutes', sources: [2, 3, 4] }])).toEqual([11]);
    expect(matchSuggestions(existing, [{ text: 'Something else', sources: [1, 9, 8] }])).toEqual([undefined]);
  });

  it('gives each old id to one new suggestion at most, text matches first, ties to the lower id', () => {
    const existing = [old(20, 'Same text', [1, 2]), old(21, 'Other', [1, 2])];
    expect(matchSuggestions(existing, [{ text: 'Reworded', sources: [1, 2] }, { text: 'Same text', sources: [7] }, { text: 'Again reworded', sources: [1, 2] }])).toEqual([21, 20, undefined]);
  });
});
