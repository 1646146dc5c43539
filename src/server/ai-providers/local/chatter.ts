import { contentWords, modelWords, wordScore, type WordReading } from './word-model.js';

/**
 * Chatter: a comment about life rather than the review ('Thank you all for the flowers after my
 * dad's operation', 'The new graduates get a tour on Thursday, put your name on the whiteboard'),
 * read by the chatter model (word-model.ts). Words alone would also set aside a real point written
 * in everyday words, so a comment is chatter only when it also shares almost no word with its
 * component's title and the other comments: an aside is about something else.
 */

/**
 * Above this score, and with at most `MAX_SHARED` words in common with the title and the thread, a
 * comment is chatter. Chosen by leaving each labelled set out in turn (`npm run train:models`):
 * most off-topic comments of the set left out are found, almost no other comment.
 */
export const CHATTER_SCORE = 7;
export const MAX_SHARED = 4;
/** A discussion this short has no thread to be apart from. */
export const MIN_DISCUSSION = 5;

/**
 * Indexes of the chatter among one component's comments. A word shared with the title counts twice,
 * one shared with another comment once.
 */
export function chatterIn(title: string, texts: readonly string[], { stem, chatter: model }: WordReading): Set<number> {
  const chatter = new Set<number>();
  if (texts.length < MIN_DISCUSSION) return chatter;
  const titleWords = modelWords(title, stem);
  const words = texts.map((text) => contentWords(text, stem));
  const counts = new Map<string, number>();
  for (const set of words) for (const word of set) counts.set(word, (counts.get(word) ?? 0) + 1);
  texts.forEach((text, i) => {
    let shared = 0;
    for (const word of words[i] ?? []) {
      if (titleWords.has(word)) shared += 2;
      else if ((counts.get(word) ?? 0) > 1) shared += 1;
    }
    if (shared <= MAX_SHARED && wordScore(modelWords(text, stem), model) > CHATTER_SCORE) chatter.add(i);
  });
  return chatter;
}
