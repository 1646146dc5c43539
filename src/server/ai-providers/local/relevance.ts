import type { CommentForAnalysis } from '../provider.js';

/**
 * Comments that are not about their component: the car park, lunch, another project. Such a
 * comment is the source of no theme, request, disagreement or suggestion. It is one nobody voted
 * on that says it is an aside ('Unrelated, but…', 'Side question:', 'Does anyone know…'). A comment
 * members voted on is kept: the votes say it matters to the review.
 *
 * Sharing no word with the title or the thread is not enough: a short, unvoted request ('Add a
 * replay button for alert storms') often shares none and is on topic all the same.
 */

const ASIDE =
  /^(?:[^.!?]{0,40}\b)?(?:unrelated|off[- ]topic|side question|random question|slightly off|not (?:related|review-related)|on another note|different topic|quick question for (?:anyone|everyone)|does anyone (?:know|have)|anyone (?:know|have|up for))\b/i;

/** Indexes of the comments that are off their component's topic. */
export function offTopic(comments: readonly CommentForAnalysis[]): Set<number> {
  const aside = new Set<number>();
  comments.forEach((comment, i) => {
    if (comment.upVotes + comment.downVotes === 0 && ASIDE.test(comment.content.trim())) aside.add(i);
  });
  return aside;
}
