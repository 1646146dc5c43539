import { answersATeammate } from './answers.js';
import { FUNCTION_WORDS, REPLIES, wordsOf } from './rules.js';
import { contentWords, modelWords, nameWords, titleWords, wordScore, type WordReading } from './word-model.js';

/**
 * Chatter: a comment about life rather than the review ('Thank you all for the flowers after my
 * dad's operation', 'The new graduates get a tour on Thursday, put your name on the whiteboard'),
 * read by the chatter model (word-model.ts), which is given neither the title's words nor the
 * teammates' names, as it learnt neither. Words alone would also set aside a real point written
 * in everyday words, so a comment is chatter only when it also shares almost no word with its
 * component's title and the other comments: an aside is about something else.
 */

/**
 * A comment that shares at most `MAX_SHARED` words with its title and thread is chatter above
 * `CHATTER_SCORE`; every word shared past that asks `PER_SHARED_WORD` more of its score, so an aside
 * that happens to use a few of the thread's words ('the Thursday call', 'my laptop') is still found
 * when its words are chatter's through and through. One that also answers nobody (answers.ts: no
 * opening as an answer, no teammate named) needs only `LONE_CHATTER_SCORE`: a reply written in
 * everyday words ('Deal. I'll add the check this sprint') answers the thread it seems apart from.
 * Chosen by leaving each labelled set out in turn (`npm run train:models`): most off-topic comments
 * of the set left out are found, almost no other comment (43 sets: 169 of 177 asides, 2 of 2,297
 * other comments, both about the discussion itself in everyday words: 'Two rounds on this and
 * we're no closer'). The scores are relative to the prior (about -2.6): a lone comment needs a
 * little evidence of chatter, one that answers a teammate more.
 */
export const CHATTER_SCORE = 1;
export const MAX_SHARED = 7;
export const PER_SHARED_WORD = 1;
export const LONE_CHATTER_SCORE = -1;
/** A discussion this short has no thread to be apart from. */
export const MIN_DISCUSSION = 5;

/** A comment of a discussion, as chatter is looked for: its text and its author. */
export interface DiscussionComment {
  content: string;
  memberName: string;
}

/**
 * Indexes of the chatter among one component's comments. A word shared with the title counts twice,
 * one shared with another comment once.
 */
export function chatterIn(title: string, comments: readonly DiscussionComment[], { stem, chatter: model }: WordReading, description = ''): Set<number> {
  const chatter = new Set<number>();
  if (comments.length < MIN_DISCUSSION) return chatter;
  const inTitle = modelWords(title, stem);
  // The component's own vocabulary: what its description says it does ('spare-part stock at the
  // nearest depot'). A comment that uses it is about the component, as one sharing its title is.
  const inDescription = descriptionWords(description, stem);
  const words = comments.map((comment) => contentWords(comment.content, stem));
  const counts = new Map<string, number>();
  for (const set of words) for (const word of set) counts.set(word, (counts.get(word) ?? 0) + 1);
  const authors = new Set(comments.map((comment) => comment.memberName));
  // No evidence either way, as in training: the title's words and the teammates' names.
  const ignored = new Set([...titleWords(title, stem), ...[...authors].flatMap((name) => [...nameWords(name, stem)])]);
  comments.forEach((comment, i) => {
    // A remark on the discussion itself ('we are going in circles', 'parking it for the guild')
    // is about this thread, whatever its words.
    if (REPLIES.aboutTheDiscussion.pattern.test(comment.content)) return;
    let shared = 0;
    for (const word of words[i] ?? []) {
      if (inTitle.has(word) || inDescription.has(word)) shared += 2;
      else if ((counts.get(word) ?? 0) > 1) shared += 1;
    }
    const score = wordScore(modelWords(comment.content, stem), model, ignored);
    if (score - PER_SHARED_WORD * Math.max(0, shared - MAX_SHARED) > CHATTER_SCORE) chatter.add(i);
    else if (shared <= MAX_SHARED && score > LONE_CHATTER_SCORE && !answersATeammate(comment.content, teammatesOf(authors, comment.memberName))) chatter.add(i);
  });
  return chatter;
}

function teammatesOf(authors: ReadonlySet<string>, author: string): string[] {
  return [...authors].filter((name) => name !== author);
}

/** Words a component's description would share with any comment whatever its subject. */
const GRAMMAR = wordsOf(...Object.values(FUNCTION_WORDS));

/** The content words of a component's description, as a comment's are read (contentWords). */
function descriptionWords(description: string, stem: (word: string) => string): ReadonlySet<string> {
  const grammar = new Set([...GRAMMAR].map(stem));
  return new Set([...contentWords(description, stem)].filter((word) => !grammar.has(word)));
}
