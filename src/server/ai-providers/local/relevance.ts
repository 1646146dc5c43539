import type { CommentForAnalysis } from '../provider.js';
import { indexesByComponent } from './analysis.js';
import { chatterIn } from './chatter.js';
import { OFF_THE_SUBJECT } from './rules.js';
import type { WordReading } from './word-model.js';

/**
 * Comments that are not about their component: the car park, lunch, another project. Such a
 * comment is the source of no theme, request, disagreement or suggestion. By the rules of
 * rules.ts (OFF_THE_SUBJECT): one nobody voted on that says it is an aside or talks of workplace
 * life; voted or not, a question put to the room, wishes or a notice passed on about workplace
 * life, office events and polls about a meeting: colleagues vote for the cake and the poll too.
 * By its words, with the analyzer's word models: chatter (chatter.ts), voted or not.
 *
 * Sharing no word with the title or the thread is not enough alone: a short, unvoted request ('Add
 * a replay button for alert storms') often shares none and is on topic all the same.
 */

const { saysItIsAnAside, workplaceLife, officeEvent, pollAboutAMeeting, asksTheRoom, passedOn, wishes } = OFF_THE_SUBJECT;

/**
 * Indexes of the comments that are off their component's topic. With the word models (the built-in
 * analyzer's), chatter too, voted or not (chatter.ts): words like those of the off-topic comments the
 * model learnt from, and next to nothing in common with the component's title and thread.
 */
export function offTopic(comments: readonly CommentForAnalysis[], words?: WordReading): Set<number> {
  const aside = new Set<number>();
  comments.forEach((comment, i) => {
    const content = comment.content.trim();
    const officeLife = workplaceLife.pattern.test(content);
    const saysSo = saysItIsAnAside.pattern.test(content);
    const toTheRoom =
      (officeLife && (saysSo || asksTheRoom.pattern.test(content) || wishes.pattern.test(content) || passedOn.pattern.test(content))) || officeEvent.pattern.test(content) || pollAboutAMeeting.pattern.test(content);
    if (toTheRoom || (comment.upVotes + comment.downVotes === 0 && (saysSo || officeLife))) aside.add(i);
  });
  if (words !== undefined) {
    for (const indexes of indexesByComponent(comments).values()) {
      const first = comments[indexes[0] ?? -1];
      for (const k of chatterIn(first?.componentTitle ?? '', indexes.flatMap((i) => comments[i] ?? []), words, first?.componentDescription)) {
        const index = indexes[k];
        if (index !== undefined) aside.add(index);
      }
    }
  }
  return aside;
}
