/**
 * Small naive Bayes models over a comment's words, learnt from the labelled review sets
 * (scripts/train-word-models.ts writes word-models.ts): how much a comment reads like their
 * off-topic comments (chatter.ts) or like their comments written to the summarising tool
 * (steering.ts) rather than the rest. No list of phrases foresees every aside or every way of
 * steering a summary; the words they use are few and telling ('my', 'wedding', 'thanks';
 * 'summary', 'unanimous', 'headline', 'objections').
 */

/** Per word, the naive Bayes weight of its presence; `bias` is the prior. */
export interface WordModel {
  bias: number;
  weights: Readonly<Record<string, number>>;
}

const WORD = /\p{L}[\p{L}'’-]*/gu;
const POSSESSIVE = /['’]s$/;

/** The words of a text as a model reads them: lowercase, stemmed, each once ("dad's" → 'dad'). */
export function modelWords(text: string, stem: (word: string) => string): Set<string> {
  const words = new Set<string>();
  for (const word of text.toLowerCase().match(WORD) ?? []) words.add(stem(word.replace(POSSESSIVE, '')));
  return words;
}

/** Words of more than three letters, stemmed: those a comment may share with its title and thread. */
export function contentWords(text: string, stem: (word: string) => string): Set<string> {
  const words = new Set<string>();
  for (const word of text.toLowerCase().match(WORD) ?? []) if (word.length > 3) words.add(stem(word.replace(POSSESSIVE, '')));
  return words;
}

/** The model's evidence for a text: the prior and the sum of its known words' weights. */
export function wordScore(words: ReadonlySet<string>, model: WordModel): number {
  let score = model.bias;
  for (const word of words) score += model.weights[word] ?? 0;
  return score;
}
