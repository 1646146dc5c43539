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

export interface WordModels {
  chatter: WordModel;
  steering: WordModel;
}

/**
 * The models and the stemmer they read with: what the chatter and steering checks are given. The
 * analyzer's holds the models trained on every labelled set; an evaluation may hold models trained
 * without the set it scores, to see how the analyzer reads a review no model has seen.
 */
export interface WordReading extends WordModels {
  stem: (word: string) => string;
}

const WORD = /\p{L}[\p{L}'’-]*/gu;
const POSSESSIVE = /['’]s$/;

/**
 * Texts read so far, per stemmer and per minimum word length: every new comment reads its
 * component's comments again, and the texts seldom change. Emptied when it grows past this: ~1 KB
 * an entry, about 8 MiB in all (measured), as many texts as the analyzer worker keeps analyses of.
 */
const MAX_READ = 8_000;
const read = new WeakMap<(word: string) => string, Map<string, ReadonlySet<string>>>();

function wordsOf(text: string, stem: (word: string) => string, minLength: number): ReadonlySet<string> {
  let texts = read.get(stem);
  if (texts === undefined) {
    texts = new Map();
    read.set(stem, texts);
  }
  const key = `${minLength}:${text}`;
  let words = texts.get(key);
  if (words === undefined) {
    const found = new Set<string>();
    for (const word of text.toLowerCase().match(WORD) ?? []) if (word.length >= minLength) found.add(stem(word.replace(POSSESSIVE, '')));
    if (texts.size >= MAX_READ) texts.clear();
    texts.set(key, found);
    words = found;
  }
  return words;
}

/** The words of a text as a model reads them: lowercase, stemmed, each once ("dad's" → 'dad'). */
export function modelWords(text: string, stem: (word: string) => string): ReadonlySet<string> {
  return wordsOf(text, stem, 1);
}

/** Words of more than three letters, stemmed: those a comment may share with its title and thread. */
export function contentWords(text: string, stem: (word: string) => string): ReadonlySet<string> {
  return wordsOf(text, stem, 4);
}

/** The model's evidence for a text: the prior and the sum of its known words' weights. */
export function wordScore(words: ReadonlySet<string>, model: WordModel): number {
  let score = model.bias;
  for (const word of words) score += model.weights[word] ?? 0;
  return score;
}
