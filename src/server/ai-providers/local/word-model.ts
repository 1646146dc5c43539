/**
 * Small naive Bayes models over a comment's words, learnt from the labelled review sets
 * (`npm run train:models` writes word-models.json, which the analyzer loads): how much a comment
 * reads like their off-topic comments (chatter.ts) or like their comments written to the
 * summarising tool (steering.ts) rather than the rest. No list of phrases foresees every aside or
 * every way of steering a summary; the words they use are few and telling ('my', 'anyone',
 * 'congratulations'; 'unanimous', 'headline', 'objections'). The models know no person's name and
 * none of the review's subject words (SUBJECT, the components' titles), only words that at least
 * three reviews used, none weighing more than 3 either way (eval/word-model-training.ts).
 */

import { FUNCTION_WORDS } from './rules.js';

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

/**
 * The model's evidence for a text: the prior and the sum of its known words' weights, but for the
 * words `ignored` (those a reading knows to be no evidence: the title's, the teammates' names).
 */
export function wordScore(words: ReadonlySet<string>, model: WordModel, ignored?: ReadonlySet<string>): number {
  let score = model.bias;
  for (const word of words) if (ignored?.has(word) !== true) score += model.weights[word] ?? 0;
  return score;
}

/**
 * The review's own subject: what every comment of it is about, asides ('the architecture diagram
 * party is at five') as much as real points ('add the field to the architecture diagram'), and
 * what a comment written to the summarising tool names as much as a point about the platform's own
 * AI. Words of this class are evidence of no kind, in no model; the words of a component's title
 * are of the same class (titleWords).
 */
const SUBJECT = ['architecture', 'diagram', 'component', 'AI', 'assistant', 'model', 'summary', 'summarise', 'summarize', 'review'];

/**
 * The review's subject words as a model reads them, and the courtesies (rules.ts: 'thanks',
 * 'please', 'ok'): these open a reply to a teammate's point ('Thanks Ingrid. The index…') as often
 * as an aside ('thanks for the cake'), so they are evidence of no kind either.
 */
export function subjectWords(stem: (word: string) => string): ReadonlySet<string> {
  return new Set([...SUBJECT, ...FUNCTION_WORDS.interjections.words].flatMap((word) => [...modelWords(word, stem)]));
}

/** The words of a component's title that are no evidence: those a comment could share with it (contentWords). */
export function titleWords(title: string, stem: (word: string) => string): ReadonlySet<string> {
  return contentWords(title, stem);
}

/**
 * A person's name as a model reads it, each part: 'Mei-Ling Chen' is 'mei-ling', 'mei', 'ling' and
 * 'chen' (stemmed), since a comment may name her by any of them.
 */
export function nameWords(name: string, stem: (word: string) => string): ReadonlySet<string> {
  return new Set([...modelWords(name, stem), ...modelWords(name.replace(/[-‐]/g, ' '), stem)]);
}

/** A person's first name (its parts too), as a model reads it: how teammates name each other. */
export function firstNameWords(name: string, stem: (word: string) => string): ReadonlySet<string> {
  return nameWords(name.trim().split(/\s+/)[0] ?? '', stem);
}
