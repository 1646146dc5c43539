import { describe, expect, it } from 'vitest';
import { alternationOf, FUNCTION_WORDS, LANGUAGE_RULES, VOCABULARIES, type Vocabulary } from './rules.js';

describe('the language rules', () => {
  it.each(LANGUAGE_RULES)('%s matches its examples and none of its near misses', (_name, rule) => {
    expect(rule.covers.length, 'says which class of language it stands for').toBeGreaterThan(10);
    expect(rule.rationale.length, 'says why').toBeGreaterThan(20);
    expect(rule.examples.length).toBeGreaterThan(0);
    expect(rule.nearMisses.length).toBeGreaterThan(0);
    for (const text of rule.examples) expect(rule.pattern.test(text), text).toBe(true);
    for (const text of rule.nearMisses) expect(rule.pattern.test(text), text).toBe(false);
  });
});

describe('the vocabularies', () => {
  it.each(VOCABULARIES)('%s says what it stands for, in lower case, each word once', (_name, vocabulary) => {
    expect(vocabulary.covers.length).toBeGreaterThan(10);
    expect(vocabulary.rationale.length).toBeGreaterThan(20);
    expect(new Set(vocabulary.words).size).toBe(vocabulary.words.length);
    for (const word of vocabulary.words) expect(word).toBe(word.toLowerCase());
  });
});

describe('the function words', () => {
  // Words that are two parts of speech, and so belong to two classes.
  const twoParts: Record<string, string[]> = {
    that: ['determiners', 'relativeWords'],
    before: ['prepositions', 'subordinators'],
    after: ['prepositions', 'subordinators'],
    until: ['prepositions', 'subordinators'],
  };

  it('lists each word in one class, save a word that is two parts of speech', () => {
    const classesOf = new Map<string, string[]>();
    for (const [name, vocabulary] of Object.entries(FUNCTION_WORDS)) {
      for (const word of vocabulary.words) classesOf.set(word, [...(classesOf.get(word) ?? []), name]);
    }
    for (const [word, classes] of classesOf) expect(classes, word).toEqual(twoParts[word] ?? [classes[0]]);
  });

  it('match as whole words, longest first, any space between two', () => {
    const vocabulary: Vocabulary = { covers: 'a test vocabulary', rationale: 'only to try the alternation', words: ['good morning', 'morning', '+1'] };
    const pattern = new RegExp(`^(?:${alternationOf(vocabulary)})$`, 'i');
    expect(pattern.test('Good   morning')).toBe(true);
    expect(pattern.test('+1')).toBe(true);
    expect(pattern.test('11')).toBe(false);
    expect(alternationOf(vocabulary).split('|')[0]).toBe(String.raw`good\s+morning`);
  });
});
