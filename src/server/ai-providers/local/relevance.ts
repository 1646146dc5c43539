import type { CommentForAnalysis } from '../provider.js';
import { indexesByComponent } from './analysis.js';
import { chatterIn } from './chatter.js';
import type { WordReading } from './word-model.js';

/**
 * Comments that are not about their component: the car park, lunch, another project. Such a
 * comment is the source of no theme, request, disagreement or suggestion. By phrase: one nobody
 * voted on that says it is an aside ('Unrelated, but…', 'Side question:', 'Does anyone know…') or
 * talks of office life (the holiday rota, lunch, parking, expense claims); voted or not, a question
 * put to the room, wishes or a notice passed on about office life ('Does anyone know if the car park
 * is shut?', 'Happy birthday, there is cake', 'HR asked me to pass this on: pension forms are due'),
 * office events (a fire drill, a leaving do, a charity run) and polls about a meeting ('Quick poll:
 * shall we move the Thursday call?'): colleagues vote for the heating, the cake and the poll too.
 * By its words, with the analyzer's word models: chatter (chatter.ts), voted or not.
 *
 * Sharing no word with the title or the thread is not enough alone: a short, unvoted request ('Add
 * a replay button for alert storms') often shares none and is on topic all the same.
 */

const ASIDE =
  /^(?:[^.!?]{0,40}\b)?(?:unrelated|off[- ]topic|side question|random question|slightly off|not (?:related|review-related)|on another note|different topic|separate (?:thing|topic|note|matter)|sorry to hijack|quick question for (?:anyone|everyone)|does anyone (?:know|have)|anyone (?:know|have|got|up for))\b/i;

/** Office life rather than the architecture: the bank holiday rota, lunch, the bike cage, the heating. */
const OFFICE_LIFE =
  /\b(?:lunch|coffee|canteen|car park|parking|bike (?:cage|shed|rack)|cake|birthday|leaving (?:do|drinks)|drinks|(?:bank )?holiday (?:rota|schedule|calendar)|annual leave|shift swaps?|office (?:is )?closed|(?:team|christmas) (?:lunch|dinner|party|outing)|desk booking|football|padlock|heating|air[- ]?con(?:ditioning)?|estates team|facilities team|espresso|coffee machine|fridge|concert|school play|my (?:laptop|desk|car) (?:is|goes|will be|gets)|my car's|(?:give|get) (?:me|us) a lift|(?:call|ring) my mobile|(?:i'm|i am) (?:off|out of office|on leave|away) (?:on|from|until|next)|pensions?|expense claims?|timesheets?|payslips?|leave carry-over)\b/i;

/** Events of office life no architecture has: set aside even when colleagues voted for them. */
const OFFICE_EVENT =
  /\b(?:fire drill|fire alarm test|evacuation drill|staff survey|leaving (?:do|card|drinks)|christmas (?:party|do)|team photo|charity (?:run|walk|\d+k|(?:half )?marathon|bake sale|quiz|raffle)|(?:my|our) running club)\b/i;

/** A poll of the room about a meeting ('Quick poll: shall we move the Thursday call?'): the votes answer the poll. */
const POLL = /\b(?:quick poll|poll for the room|show of hands)\b/i;
const MEETING = /\b(?:call|meeting|stand-?up|sync|all-hands|town hall)s?\b/i;

/** A question put to the room: 'Does anyone know…', 'Can someone from estates explain…'. */
const ASKS_AROUND = /\b(?:does|do|can|could|would) (?:anyone|anybody|someone|somebody)\b/i;

/** A notice passed on for another department: 'HR asked me to pass this on: …', 'Payroll wants us to remind everyone…'. */
const PASSED_ON = /\b(?:asked|wants?|want) (?:me|us) to (?:pass (?:this |that |it )?on|remind (?:everyone|everybody|you all|all of you|the team))\b/i;

/** Wishes to a colleague: 'Happy birthday Mei!', 'Congratulations on the new job'. */
const WISHES = /\b(?:happy birthday|congratulations|congrats|welcome (?:to the team|aboard)|farewell)\b/i;

/**
 * Indexes of the comments that are off their component's topic. With the word models (the built-in
 * analyzer's), chatter too, voted or not (chatter.ts): words like those of the off-topic comments the
 * model learnt from, and next to nothing in common with the component's title and thread.
 */
export function offTopic(comments: readonly CommentForAnalysis[], words?: WordReading): Set<number> {
  const aside = new Set<number>();
  comments.forEach((comment, i) => {
    const content = comment.content.trim();
    const officeLife = OFFICE_LIFE.test(content);
    const toTheRoom =
      (officeLife && (ASIDE.test(content) || ASKS_AROUND.test(content) || WISHES.test(content) || PASSED_ON.test(content))) || OFFICE_EVENT.test(content) || (POLL.test(content) && MEETING.test(content));
    if (toTheRoom || (comment.upVotes + comment.downVotes === 0 && (ASIDE.test(content) || officeLife))) aside.add(i);
  });
  if (words !== undefined) {
    for (const indexes of indexesByComponent(comments).values()) {
      const title = comments[indexes[0] ?? -1]?.componentTitle ?? '';
      for (const k of chatterIn(title, indexes.flatMap((i) => comments[i] ?? []), words)) {
        const index = indexes[k];
        if (index !== undefined) aside.add(index);
      }
    }
  }
  return aside;
}
