import { CHATTER_MODEL } from './chatter-model.js';

/** Per word, the naive Bayes weight of its presence; `bias` is the prior. */
export interface ChatterModel {
  bias: number;
  weights: Readonly<Record<string, number>>;
}

/**
 * Chatter: a comment about life rather than the review ('Thank you all for the flowers after my
 * dad's operation', 'The new graduates get a tour on Thursday, put your name on the whiteboard'). No
 * list of phrases foresees every one, so a small naive Bayes model reads the words: trained on the
 * labelled review sets (scripts/train-chatter.ts writes chatter-model.ts), it scores how much a
 * comment reads like their off-topic comments rather than the rest. Words alone would also set aside
 * a real point written in everyday words, so a comment is chatter only when it also shares almost no
 * word with its component's title and the other comments: an aside is about something else.
 */

/** The words of a text as the model reads them: lowercase, stemmed, each once ("dad's" → 'dad'). */
export function chatterWords(text: string, stem: (word: string) => string): Set<string> {
  const words = new Set<string>();
  for (const word of text.toLowerCase().match(WORD) ?? []) words.add(stem(word.replace(POSSESSIVE, '')));
  return words;
}

const WORD = /\p{L}[\p{L}'’-]*/gu;
const POSSESSIVE = /['’]s$/;

/** Naive Bayes evidence that a text is chatter: the sum of its known words' weights and the prior. */
export function chatterScore(words: ReadonlySet<string>, model: ChatterModel = CHATTER_MODEL): number {
  let score = model.bias;
  for (const word of words) score += model.weights[word] ?? 0;
  return score;
}

/**
 * Above this score, and with at most `MAX_SHARED` words in common with the title and the thread, a
 * comment is chatter. Chosen by leaving each labelled set out in turn (`npm run train:chatter`):
 * most off-topic comments of the set left out are found, almost no other comment.
 */
export const CHATTER_SCORE = 7;
export const MAX_SHARED = 4;
/** A discussion this short has no thread to be apart from. */
export const MIN_DISCUSSION = 5;

/** Words of more than three letters, stemmed: those a comment may share with its title and thread. */
export function contentWords(text: string, stem: (word: string) => string): Set<string> {
  const words = new Set<string>();
  for (const word of text.toLowerCase().match(WORD) ?? []) if (word.length > 3) words.add(stem(word.replace(POSSESSIVE, '')));
  return words;
}

/**
 * Indexes of the chatter among one component's comments. A word shared with the title counts twice,
 * one shared with another comment once.
 */
export function chatterIn(title: string, texts: readonly string[], stem: (word: string) => string, model: ChatterModel = CHATTER_MODEL): Set<number> {
  const chatter = new Set<number>();
  if (texts.length < MIN_DISCUSSION) return chatter;
  const titleWords = chatterWords(title, stem);
  const words = texts.map((text) => contentWords(text, stem));
  const counts = new Map<string, number>();
  for (const set of words) for (const word of set) counts.set(word, (counts.get(word) ?? 0) + 1);
  texts.forEach((text, i) => {
    let shared = 0;
    for (const word of words[i] ?? []) {
      if (titleWords.has(word)) shared += 2;
      else if ((counts.get(word) ?? 0) > 1) shared += 1;
    }
    if (shared <= MAX_SHARED && chatterScore(chatterWords(text, stem), model) > CHATTER_SCORE) chatter.add(i);
  });
  return chatter;
}
