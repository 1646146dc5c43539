import { describe, expect, it } from 'vitest';
import { recommendationTypeOf, significanceOf } from './significance.js';

describe('significanceOf', () => {
  it.each([
    ['Remove the manual paging step', 'major'],
    ['We should replace the correlation rules with learned ones', 'major'],
    ['Reordering the triage and context steps would help', 'major'],
    ['Redesigned escalation flow', 'major'],
    ['Clarify who approves a Sev1 rollback', 'moderate'],
    ['The owner should be clarified', 'moderate'],
    ['Specified per tier', 'moderate'],
    ['Modifying the rules', 'moderate'],
    ['Changes to the wording', 'moderate'],
    ['Update the runbook links', 'moderate'],
    ['Improves the noise filter', 'moderate'],
    ['Looks good to me', 'minor'],
    ['The removal of noise is key', 'minor'],
    ['', 'minor'],
  ])('%s → %s', (text, expected) => {
    expect(significanceOf(text)).toBe(expected);
  });

  it('ranks major above moderate when both occur', () => {
    expect(significanceOf('Update the diagram and delete the old box')).toBe('major');
  });
});

describe('recommendationTypeOf', () => {
  it.each([
    ['Split triage into severity and routing steps', 'structural'],
    ['Splitting the connector box in two', 'structural'],
    ['Alerts moved to the queue stay there', 'content'],
    ['Add a new step for change freeze checks', 'structural'],
    ['Correlation merges unrelated incidents on busy services', 'content'],
    ['Add a new component for change freeze windows', 'structural'],
    ['Remove the duplicate knowledge-graph link', 'structural'],
    ['Clarify the approval timeout in the description', 'content'],
    ['Mention the SLO source', 'content'],
  ])('%s → %s', (text, expected) => {
    expect(recommendationTypeOf(text)).toBe(expected);
  });
});
