import { describe, expect, it } from 'vitest';
import { commentSummaryOutputSchema } from '../../../common/contract/ai.js';
import type { CommentForAnalysis, SummarizeCommentsInput } from '../provider.js';
import {
  COMPONENTS,
  TRIAGE_ALTERNATIVES_IDS,
  TRIAGE_APPROVAL_IDS,
  TRIAGE_PRAISE_ID,
  TRIAGE_QUESTION_ID,
  TRIAGE_SPLIT_ID,
  comment,
  triageComments,
} from './fixtures/comments.js';
import { shuffled, stringsOf } from './fixtures/helpers.js';
import { createLocalProvider } from './local-provider.js';

const provider = createLocalProvider();

/** The service passes a component's comments newest first. */
function input(comments: CommentForAnalysis[]): SummarizeCommentsInput {
  return { ...COMPONENTS.triage, comments: [...comments].sort((a, b) => b.createdAt - a.createdAt) };
}

function byId(id: number): CommentForAnalysis {
  const found = triageComments.find((item) => item.id === id);
  if (found === undefined) throw new Error(`no fixture comment ${id}`);
  return found;
}

describe('local summarizeComments', () => {
  it('finds the approval-gate theme and cites exactly the comments about it', async () => {
    const summary = await provider.summarizeComments(input(triageComments));
    const index = summary.keyThemes.findIndex((theme) => /approval gate/i.test(theme));
    expect(index).toBe(0);
    expect(summary.keyThemes[0]).toBe('Approval gate timeout');
    expect(summary.sources.keyThemes[index]).toEqual([...TRIAGE_APPROVAL_IDS]);
  });

  it('finds the alternative-assignment-groups theme, and no theme for the praise or the question alone', async () => {
    const summary = await provider.summarizeComments(input(triageComments));
    const index = summary.keyThemes.findIndex((theme) => /alternative assignment group/i.test(theme));
    expect(index).toBeGreaterThan(-1);
    expect(summary.sources.keyThemes[index]).toEqual([...TRIAGE_ALTERNATIVES_IDS]);
    expect(summary.keyThemes.length).toBe(summary.sources.keyThemes.length);
    expect(summary.keyThemes.length).toBeLessThanOrEqual(5);
    for (const ids of summary.sources.keyThemes) expect(ids.length).toBeGreaterThanOrEqual(2);
  });

  it('cites only ids of the input, and each theme only comments that use its words', async () => {
    const summary = await provider.summarizeComments(input(triageComments));
    const ids = new Set(triageComments.map((item) => item.id));
    const cited = [...summary.sources.keyThemes.flat(), ...summary.sources.contentChanges, ...summary.sources.structuralChanges];
    expect(cited.length).toBeGreaterThan(0);
    for (const id of cited) expect(ids.has(id)).toBe(true);
    summary.keyThemes.forEach((theme, i) => {
      const words = theme.toLowerCase().split(' ').map((word) => word.replace(/s$/, ''));
      for (const id of summary.sources.keyThemes[i] ?? []) {
        const text = byId(id).content.toLowerCase();
        for (const word of words) expect(text).toContain(word);
      }
    });
  });

  it('splits the requested changes into content and structural ones, with their comments', async () => {
    const summary = await provider.summarizeComments(input(triageComments));
    expect(summary.contentChanges).toContain('Increase the approval gate timeout to 30 minutes');
    expect(summary.contentChanges).toMatch(/alternative assignment groups/);
    expect(summary.sources.contentChanges).toContain(101);
    expect(summary.sources.contentChanges).not.toContain(TRIAGE_PRAISE_ID);
    expect(summary.sources.contentChanges).not.toContain(TRIAGE_QUESTION_ID);
    expect(summary.structuralChanges).toBe('Split the enrichment step into a separate CMDB lookup so it can be reused by Event Correlation.');
    expect(summary.sources.structuralChanges).toEqual([TRIAGE_SPLIT_ID]);
    expect(summary.contentChanges.length).toBeLessThanOrEqual(3 * 200 + 2);
  });

  it('describes the discussion: volume, members, themes, tone and proposals', async () => {
    const summary = await provider.summarizeComments(input(triageComments));
    expect(summary.understanding).toContain('10 comments from 5 members on Agentic Triage.');
    expect(summary.understanding).toContain('approval gate timeout (4 comments)');
    expect(summary.understanding).toContain('critical');
    expect(summary.understanding).toContain('21 up-votes and 3 down-votes');
    expect(summary.understanding).toMatch(/8 of the 10 comments propose changes \(1 structural, 7 content\)\./);
    const sentences = summary.understanding.split(/(?<=\.)\s+(?=[A-Z0-9])/);
    expect(sentences.length).toBeGreaterThanOrEqual(2);
    expect(sentences.length).toBeLessThanOrEqual(4);
  });

  it('gives the same output for the same input, in any order', async () => {
    const first = await provider.summarizeComments(input(triageComments));
    const again = await provider.summarizeComments(input(triageComments));
    const reordered = await provider.summarizeComments({ ...COMPONENTS.triage, comments: shuffled(triageComments) });
    expect(again).toEqual(first);
    expect(reordered).toEqual(first);
  });

  it('parses with the output schema and writes plain text', async () => {
    const summary = await provider.summarizeComments(input(triageComments));
    expect(commentSummaryOutputSchema.parse(summary)).toEqual(summary);
    for (const text of stringsOf(summary)) expect(text).not.toMatch(/[<>*#`]|\]\(/);
  });

  it('grows more confident with more comments and agreement', async () => {
    const many = await provider.summarizeComments(input(triageComments));
    const few = await provider.summarizeComments(input(triageComments.slice(0, 3)));
    expect(many.confidence).toBeGreaterThan(few.confidence);
    expect(many.confidence).toBeGreaterThanOrEqual(0.6);
    expect(many.confidence).toBeLessThanOrEqual(1);
  });

  it('says there is nothing to summarise for no comments', async () => {
    const summary = await provider.summarizeComments(input([]));
    expect(summary).toEqual({
      confidence: 0,
      understanding: 'There are no comments on Agentic Triage yet, so there is nothing to summarise.',
      contentChanges: '',
      structuralChanges: '',
      keyThemes: [],
      sources: { keyThemes: [], contentChanges: [], structuralChanges: [] },
      setAside: [],
    });
  });

  it('says no open point remains when every comment is settled, rather than that there are none', async () => {
    const summary = await provider.summarizeComments({ ...input([]), settledCount: 4 });
    expect(summary.understanding).toBe('Every comment on Agentic Triage is settled (resolved, or a basis of the decision), so no open point remains to summarise.');
    expect(summary.confidence).toBe(0);
  });

  it('summarises a single comment with low confidence and a theme of its own', async () => {
    const summary = await provider.summarizeComments(input([byId(101)]));
    expect(summary.confidence).toBeGreaterThan(0);
    expect(summary.confidence).toBeLessThanOrEqual(0.35);
    expect(summary.keyThemes).toEqual(['Approval gate timeout']);
    expect(summary.sources.keyThemes).toEqual([[101]]);
    expect(summary.contentChanges).toBe('Increase the approval gate timeout to 30 minutes so the on-call manager can react.');
    expect(summary.understanding).toMatch(/^1 comment from 1 member on Agentic Triage\./);
  });

  it('summarises praise alone without inventing a change', async () => {
    const summary = await provider.summarizeComments(input([byId(TRIAGE_PRAISE_ID)]));
    expect(summary.contentChanges).toBe('');
    expect(summary.structuralChanges).toBe('');
    expect(summary.sources.contentChanges).toEqual([]);
    expect(summary.understanding).toContain('supportive');
  });

  it('summarises two comments with confidence at most 0.35', async () => {
    const summary = await provider.summarizeComments(input([byId(105), byId(106)]));
    expect(summary.confidence).toBeGreaterThan(0);
    expect(summary.confidence).toBeLessThanOrEqual(0.35);
    expect(summary.keyThemes).toEqual(['Alternative assignment groups']);
    expect(summary.sources.keyThemes).toEqual([[105, 106]]);
    expect(summary.understanding).toContain('Both comments propose changes');
  });

  it('keeps the component title from dominating the themes', async () => {
    const comments = [
      comment(1, COMPONENTS.triage, 'Anna Berg', 'Agentic triage is the heart of this. Agentic triage must log every decision.', { up: 1 }),
      comment(2, COMPONENTS.triage, 'Ben Carter', 'Agentic triage needs an audit trail for every decision.', { up: 1 }),
      comment(3, COMPONENTS.triage, 'Chloe Diaz', 'I like agentic triage, but the audit trail should be searchable.', { up: 1 }),
    ];
    const summary = await provider.summarizeComments(input(comments));
    expect(summary.keyThemes.map((theme) => theme.toLowerCase())).not.toContain('agentic triage');
    expect(summary.keyThemes).toContain('Audit trail');
    // The decision log of the first comment is the same concern, by its words ('every decision').
    expect(summary.sources.keyThemes[summary.keyThemes.indexOf('Audit trail')]).toEqual(expect.arrayContaining([2, 3]));
  });

  it('stays within the schema limits for long comments', async () => {
    const long = 'We should add a fallback assignment group for the approval gate timeout because the night shift needs it. '.repeat(60);
    const comments = [1, 2, 3].map((id) => comment(id, COMPONENTS.triage, `Member ${id}`, long, { up: id }));
    const summary = await provider.summarizeComments(input(comments));
    expect(commentSummaryOutputSchema.safeParse(summary).success).toBe(true);
    expect(summary.contentChanges.length).toBeLessThanOrEqual(2_000);
  });
});
