import { describe, expect, it } from 'vitest';
import type { CommentForAnalysis } from '../provider.js';
import { AnalysisCache, Analyzer } from './analysis.js';
import { COMPONENTS, comment, correlationComments, reviewComments, triageComments } from './fixtures/comments.js';
import { agreedSuggestions, conflictSuggestions } from './fixtures/suggestions.js';
import { createLocalProvider } from './local-provider.js';
import { loadReader, type Reader } from './wink.js';

/** A reader that counts the texts it reads. */
async function countingReader(): Promise<{ reader: Reader; reads: () => number }> {
  const inner = await loadReader();
  let count = 0;
  return {
    reader: {
      read(text) {
        count += 1;
        return inner.read(text);
      },
      stem: (word) => inner.stem(word),
    },
    reads: () => count,
  };
}

const newestFirst = (comments: readonly CommentForAnalysis[]) => [...comments].sort((a, b) => b.createdAt - a.createdAt);

describe('AnalysisCache', () => {
  it('gives exactly the answers of an analysis without it, on every call and after a new comment', async () => {
    const plain = createLocalProvider();
    const cached = createLocalProvider({ cache: new AnalysisCache(1_000) });
    const triage = { ...COMPONENTS.triage, comments: newestFirst(triageComments) };
    for (let call = 0; call < 2; call += 1) expect(await cached.summarizeComments(triage)).toEqual(await plain.summarizeComments(triage));

    const more = { ...triage, comments: newestFirst([...triageComments, comment(190, COMPONENTS.triage, 'Nora New', 'Show the approval gate timeout on the incident so the duty manager sees it.')]) };
    expect(await cached.summarizeComments(more)).toEqual(await plain.summarizeComments(more));
    const correlation = { ...COMPONENTS.correlation, comments: newestFirst(correlationComments) };
    expect(await cached.summarizeComments(correlation)).toEqual(await plain.summarizeComments(correlation));

    // The same texts under the other analyses share the cache and still answer the same.
    expect(await cached.generateSuggestions({ comments: reviewComments })).toEqual(await plain.generateSuggestions({ comments: reviewComments }));
    const prompt = { id: 1, template: '{suggestionsText}' };
    for (const suggestions of [conflictSuggestions, agreedSuggestions]) {
      expect(await cached.narrativeSummary({ suggestions, prompt })).toEqual(await plain.narrativeSummary({ suggestions, prompt }));
    }
  });

  it('reads a text once across analysis runs, and labels phrases as if it had read it again', async () => {
    const { reader, reads } = await countingReader();
    const cache = new AnalysisCache(1_000);
    const texts = triageComments.map((item) => item.content);

    const first = new Analyzer(reader, cache);
    const title = first.titleWords(COMPONENTS.triage.componentTitle);
    const firstAnalyses = texts.map((text) => first.analyse(text, title));
    const afterFirst = reads();

    const second = new Analyzer(reader, cache);
    const secondTitle = second.titleWords(COMPONENTS.triage.componentTitle);
    const secondAnalyses = texts.map((text) => second.analyse(text, secondTitle));
    // Only the title was read again (each analysis run reads its own).
    expect(reads() - afterFirst).toBe(1);
    expect(secondAnalyses).toEqual(firstAnalyses);
    const phrases = [...new Set(firstAnalyses.flatMap((analysis) => analysis.phrases))];
    expect(phrases.length).toBeGreaterThan(0);
    for (const phrase of phrases) expect(second.label(phrase)).toBe(first.label(phrase));
  });

  it('keeps at most its size, the least recently used going first', async () => {
    const { reader, reads } = await countingReader();
    const cache = new AnalysisCache(2);
    const analyzer = new Analyzer(reader, cache);
    const title = analyzer.titleWords('Agentic Triage');
    const a = 'Add a timeout to the approval gate.';
    const b = 'Show the confidence score.';
    const c = 'Split the enrichment step.';
    analyzer.analyse(a, title);
    analyzer.analyse(b, title);
    analyzer.analyse(a, title); // a is now the most recently used
    analyzer.analyse(c, title); // b goes
    expect(cache.size).toBe(2);
    const before = reads();
    analyzer.analyse(a, title);
    analyzer.analyse(c, title);
    expect(reads()).toBe(before);
    analyzer.analyse(b, title);
    expect(reads()).toBe(before + 1);
  });

  it('keeps at most its characters of text, however few the texts', async () => {
    const { reader } = await countingReader();
    const long = (word: string) => `${word} the approval gate timeout. `.repeat(40);
    // Room for two of these texts (and their keys' title words), not three.
    const cache = new AnalysisCache(1_000, Math.round(long('Add').length * 2.5));
    const analyzer = new Analyzer(reader, cache);
    const title = analyzer.titleWords('Agentic Triage');
    analyzer.analyse(long('Add'), title);
    analyzer.analyse(long('Fix'), title);
    expect(cache.size).toBe(2);
    analyzer.analyse(long('Cut'), title);
    expect(cache.size).toBe(2);
  });
});
