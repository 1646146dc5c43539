import { describe, expect, it } from 'vitest';
import { LANGUAGE_RULES, VOCABULARIES } from './rules.js';

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
