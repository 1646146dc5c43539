import { ANSWERED_NAME, REPLIES } from './rules.js';

/**
 * How a comment answers another: by opening as an answer to what was just said, or by naming the
 * teammate it answers. Themes link a reply to what it answers (themes.ts); an aside answers nobody
 * (chatter.ts).
 */

/**
 * A comment that opens by answering what was just said ('Same for the stop displays: …', 'Yes, and
 * keep the history', 'But only for P1s'). Named nobody, it answers the comment just before it.
 */
export const ANSWERS_THE_LAST = REPLIES.answersTheLast.pattern;
const CARRIES_ON = REPLIES.carriesOn.pattern;

/** Words as written, for first names: letters, with inner hyphens ('Jean-Luc'); "Priya's" gives 'Priya' and 's'. */
const NAME_WORD = /\p{L}+(?:-\p{L}+)*/gu;

const BEFORE_AN_ANSWERED_NAME = new Set<string>(ANSWERED_NAME.before.words);
const CONTRIBUTION = new Set<string>(ANSWERED_NAME.contribution.words);
const AFTER_AN_ANSWERED_NAME = new Set<string>(ANSWERED_NAME.after.words);
const VERDICT = new Set<string>(ANSWERED_NAME.verdict.words);
/** How many words open a comment: a name among them is the person answered ('+1 Lukas', 'Lukas, …'). */
const OPENING_WORDS = 4;

/**
 * The words of a comment that may be a teammate answered: the first few, and those written as an
 * answer ('Agree with Priya', "Priya's point", 'Lukas is right'). A name only mentioned ("Priya's
 * little one", 'if Kwame still organises it') answers nobody: a reply of that kind is about the same
 * question as what it answers in 98% of the labelled cases, a mention in half.
 */
export function addressedWords(content: string): Set<string> {
  const words = content.match(NAME_WORD) ?? [];
  const addressed = new Set(words.slice(0, OPENING_WORDS));
  words.forEach((word, i) => {
    const after = words[i + 1]?.toLowerCase();
    const contribution = after === 's' && [words[i + 2], words[i + 3]].some((next) => CONTRIBUTION.has(next?.toLowerCase() ?? ''));
    const verdict = (after === 'is' || after === 'was') && VERDICT.has(words[i + 2]?.toLowerCase() ?? '');
    if (BEFORE_AN_ANSWERED_NAME.has(words[i - 1]?.toLowerCase() ?? '') || contribution || verdict || (after !== undefined && AFTER_AN_ANSWERED_NAME.has(after))) addressed.add(word);
  });
  return addressed;
}

/**
 * Whether a comment takes part in its discussion: it opens as an answer or carries on, or names one
 * of `authors` (the other authors of the discussion, by full name) where an answer names them. A
 * name of two letters or fewer is too likely a word.
 */
export function answersATeammate(content: string, authors: Iterable<string>): boolean {
  if (ANSWERS_THE_LAST.test(content) || CARRIES_ON.test(content) || REPLIES.aboutTheDiscussion.pattern.test(content)) return true;
  const words = addressedWords(content);
  for (const name of authors) {
    const first = name.split(/\s+/)[0] ?? '';
    if (first.length > 2 && words.has(first)) return true;
  }
  return false;
}
