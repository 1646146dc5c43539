import type { SuggestionOutput, SuggestionsOutput } from '../../../common/contract/ai.js';
import { recommendationTypeOf } from '../../../common/significance.js';
import { authorKey, type CommentForAnalysis, type GenerateSuggestionsInput } from '../provider.js';
import type { ActionStrength, AnalysedSentence, Analyzer, Direction, TextAnalysis } from './analysis.js';
import { actionSentencesOf, uniqueById } from './analysis.js';
import type { Candidate } from './grouping.js';
import { candidatesOf, pickGroups } from './grouping.js';
import { addressingOf, onlyAddress, withoutAddress, type Addressing } from './addressing.js';
import { namesIn } from './runs.js';
import { disagreementsByComponent } from './stance.js';
import { addressesTheTool, asRequest, capitalise, cleanText, compareText, truncate } from './text.js';

/**
 * Suggestions from every comment of the review: comments on one component that ask for a change to
 * the same thing (a shared key phrase, the same direction) become one suggestion, worded from their
 * best-voted, clearest action sentence. The same comments always give the same words. A suggestion
 * is shown beside its components and the members who raised it, so its words name neither: no
 * greeting or teammate called at its start, no component title in front. Suggestions are ranked by
 * how many members stand behind them before how many votes: one member's many comments, voted up
 * by themselves, do not push out a point several members make.
 */

const MAX_SUGGESTIONS = 60;
const IDEAL_MIN = 40;
const IDEAL_MAX = 300;

interface ActionComment {
  comment: CommentForAnalysis;
  actions: Array<{ sentence: AnalysedSentence; strength: ActionStrength }>;
  /** The phrase each action sentence's change acts on, and which way. */
  directions: Map<string, Direction>;
  /** Every sentence of the comment, to say what an 'it' of a request stands for. */
  sentences: readonly AnalysedSentence[];
}

const net = (comment: CommentForAnalysis): number => comment.upVotes - comment.downVotes;

export function generateSuggestions(analyzer: Analyzer, input: GenerateSuggestionsInput): SuggestionsOutput {
  // A comment addressed to the AI is no source of any suggestion (text.ts, addressesTheTool).
  const comments = uniqueById(input.comments).filter((comment) => !addressesTheTool(comment.content, analyzer.words));
  const analyses = comments.map((comment) => analyzer.analyse(comment.content, analyzer.titleWords(comment.componentTitle)));
  const { sideOf, aside } = readComponents(analyzer, comments, analyses);
  const addressing = addressingOf(comments.map((comment) => comment.memberName));
  const items: Array<ActionComment | null> = comments.map((comment, i) => {
    const analysis = analyses[i];
    // A comment about something else is no source of any suggestion (relevance.ts).
    if (analysis === undefined || aside.has(i)) return null;
    const actions = actionSentencesOf(comment, analysis);
    // A side of a disagreement is a position the team weighs even when it is not phrased as a
    // request ('No batch jobs against the billing primary'): its first statement stands for it,
    // past one that only credits a teammate ('Mira is right on the cost.').
    const position = sideOf.has(i)
      ? analysis.sentences.find((sentence) => !sentence.question && sentence.words >= 4 && !onlyAddress(sentence.text, addressing))
      : undefined;
    if (actions.length === 0 && position !== undefined) actions.push({ sentence: position, strength: 'weak' });
    if (actions.length === 0) return null;
    const directions = new Map<string, Direction>();
    for (const { sentence } of actions) {
      for (const [phrase, direction] of sentence.directions) if (!directions.has(phrase)) directions.set(phrase, direction);
    }
    return { comment, actions, directions, sentences: analysis.sentences };
  });

  // Clusters: a shared phrase on the same component; opposite directions (add vs remove) never merge.
  // A teammate's name is who a comment speaks to, not what it asks for: no cluster is made of it.
  const names = namesIn(comments.map((comment) => comment.memberName));
  const isName = (phrase: string) => phrase.split(' ').every((word) => names.has(word));
  const candidates = splitByDirection(
    candidatesOf(
      items.map((item) => (item === null ? [] : [...new Set(item.actions.flatMap((action) => action.sentence.phrases))].filter((phrase) => !isName(phrase)))),
      (i, phrase) => `${comments[i]?.componentId ?? ''}\u0000${phrase}`,
    ),
    items,
  );
  const groups = pickGroups(candidates, {
    minSize: 2,
    maxGroups: Number.POSITIVE_INFINITY,
    bonus: comments.map((comment) => Math.max(0, net(comment)) / 2),
    exclusive: true,
  });
  const clustered = new Set(groups.flatMap((group) => group.members));
  // Comments on opposite sides of a disagreement never make one suggestion: each side is its own.
  const clusters: Array<{ members: number[]; phrase: string | null }> = groups.flatMap((group) =>
    bySide(group.members, sideOf).map((members) => ({ members, phrase: group.candidate.phrase })),
  );

  // A single comment stands alone when it is a proposal, a well-supported request, or a side of a
  // disagreement (the team weighs each side, however it is voted).
  items.forEach((item, i) => {
    if (item === null || clustered.has(i)) return;
    const strong = item.actions.some((action) => action.strength === 'strong');
    if (item.comment.kind === 'proposal' || net(item.comment) >= 1 || (net(item.comment) >= 0 && strong) || sideOf.has(i)) clusters.push({ members: [i], phrase: null });
  });

  const drafts = clusters.flatMap((cluster) => {
    const members = cluster.members.flatMap((i) => {
      const item = items[i];
      return item === undefined || item === null ? [] : [item];
    });
    const text = wordingOf(members, cluster.phrase, addressing);
    if (text === null) return [];
    const ids = members.map((member) => member.comment.id).sort((a, b) => a - b);
    return [{ text, ids, comments: members.map((member) => member.comment) }];
  });

  // The same words twice (copied comments) are one suggestion.
  const byText = new Map<string, { text: string; ids: Set<number>; comments: CommentForAnalysis[] }>();
  for (const draft of drafts) {
    const key = draft.text.toLowerCase();
    const existing = byText.get(key);
    if (existing === undefined) byText.set(key, { text: draft.text, ids: new Set(draft.ids), comments: [...draft.comments] });
    else {
      for (const id of draft.ids) existing.ids.add(id);
      existing.comments.push(...draft.comments);
    }
  }
  const ranked = [...byText.values()].map((draft) => ({
    ...draft,
    members: membersBehind(draft.comments),
    net: draft.comments.reduce((sum, comment) => sum + net(comment), 0),
    first: Math.min(...draft.ids),
  }));
  ranked.sort((a, b) => b.members - a.members || b.net - a.net || b.ids.size - a.ids.size || a.first - b.first || compareText(a.text, b.text));
  const suggestions: SuggestionOutput[] = ranked.slice(0, MAX_SUGGESTIONS).map((draft) => ({
    suggestion: draft.text,
    recommendationType: recommendationTypeOf(draft.text),
    sources: [...draft.ids].sort((a, b) => a - b),
  }));
  return { suggestions };
}

/**
 * How many members stand behind comments: their authors and the members who vote them up, each
 * once, less those who vote them down (and back none of them). An author's vote on their own
 * comment adds nobody. Votes without voter ids count one member each.
 */
export function membersBehind(comments: readonly CommentForAnalysis[]): number {
  const backing = new Set<string>();
  const against = new Set<string>();
  let anonymous = 0;
  for (const comment of comments) {
    const author = authorKey(comment);
    backing.add(author);
    if (comment.upVoterIds === undefined) anonymous += comment.upVotes;
    else for (const voter of comment.upVoterIds) backing.add(`id:${voter}`);
    if (comment.downVoterIds === undefined) anonymous -= comment.downVotes;
    else for (const voter of comment.downVoterIds) against.add(`id:${voter}`);
  }
  for (const member of backing) against.delete(member);
  return backing.size - against.size + anonymous;
}

/**
 * Per component: which side of which disagreement each comment is on, or whether it offers the middle way (stance.ts), and which
 * comments are about something else (relevance.ts); by comment index.
 */
function readComponents(analyzer: Analyzer, comments: readonly CommentForAnalysis[], analyses: readonly TextAnalysis[]): { sideOf: Map<number, string>; aside: Set<number> } {
  const { disagreements, aside } = disagreementsByComponent(analyzer, comments, analyses);
  const sideOf = new Map<number, string>();
  disagreements.forEach((disagreement, d) => {
    for (const i of disagreement.sideA) sideOf.set(i, `${d}\u0000a`);
    for (const i of disagreement.sideB) sideOf.set(i, `${d}\u0000b`);
    // A middle way is a third position, merged with neither side.
    for (const i of disagreement.compromise) if (!sideOf.has(i)) sideOf.set(i, `${d}\u0000middle`);
  });
  return { sideOf, aside };
}

/** A cluster's members split by the side they take; members on no side stay with the first part. */
function bySide(members: readonly number[], sideOf: ReadonlyMap<number, string>): number[][] {
  const parts = new Map<string, number[]>();
  for (const i of members) {
    const side = sideOf.get(i) ?? '';
    const part = parts.get(side);
    if (part === undefined) parts.set(side, [i]);
    else part.push(i);
  }
  const sided = [...parts.entries()].filter(([side]) => side !== '').map(([, part]) => part);
  const free = parts.get('') ?? [];
  if (sided.length <= 1) return [[...members]];
  const [first, ...rest] = sided;
  return [[...free, ...(first ?? [])].sort((a, b) => a - b), ...rest];
}

/** A candidate whose comments pull both ways on its phrase becomes one candidate per direction. */
function splitByDirection(candidates: readonly Candidate[], items: ReadonlyArray<ActionComment | null>): Candidate[] {
  return candidates.flatMap((candidate) => {
    const directionOf = (i: number): Direction | undefined => items[i]?.directions.get(candidate.phrase);
    const up = candidate.members.filter((i) => directionOf(i) === 'up');
    const down = candidate.members.filter((i) => directionOf(i) === 'down');
    if (up.length === 0 || down.length === 0) return [candidate];
    return [
      { ...candidate, key: `${candidate.key}\u0000up`, members: up },
      { ...candidate, key: `${candidate.key}\u0000down`, members: down },
    ];
  });
}

/**
 * A request that opens on a word pointing back ('It should…', 'Make it 30 minutes') cannot be
 * understood alone: group 1 is what comes before the word, group 2 the word.
 */
const POINTS_BACK = /^((?:[\p{L}-]+\s+)?)(it|this|that|these|those|they|them)\b(?!\s+(?:is|was)\s+(?:why|how|what))/iu;

/**
 * The request with its pointing word replaced by what the sentence before it is about ('The
 * approval gate timeout is 10 minutes. Make it 30' → 'Make the approval gate timeout 30'); as it
 * was when there is no such sentence.
 */
function resolved(request: string, sentence: AnalysedSentence, sentences: readonly AnalysedSentence[]): string {
  const match = POINTS_BACK.exec(request);
  const before = sentences.filter((candidate) => candidate.index < sentence.index).at(-1);
  // Its most specific phrase: the longest, the first among equals.
  const subject = [...(before?.phrases ?? [])].sort((a, b) => b.split(' ').length - a.split(' ').length)[0];
  if (match === null || subject === undefined) return request;
  const [whole, lead = '', word = ''] = match;
  const possessive = /^its$/i.test(word);
  return `${lead}${lead === '' ? 'The' : 'the'} ${subject}${possessive ? "'s" : ''}${request.slice(whole.length)}`;
}

/**
 * The cluster's best action sentence (about its phrase where possible): one that reads alone (no
 * 'It …' pointing back to another sentence), the best-voted comment's, then one of a readable
 * length, a firm request before a hedged one, the shorter, the older.
 */
function wordingOf(members: readonly ActionComment[], phrase: string | null, addressing: Addressing): string | null {
  const options = members.flatMap((member) =>
    member.actions.map((action) => {
      const request = asRequest(withoutTitle(withoutAddress(action.sentence.text, addressing), member.comment.componentTitle));
      const text = resolved(request, action.sentence, member.sentences);
      return {
        member,
        action,
        text,
        onTopic: phrase === null || action.sentence.phrases.includes(phrase),
        readsAlone: !POINTS_BACK.test(text),
        length: action.sentence.text.length,
      };
    }),
  );
  const ideal = (length: number): number => (length >= IDEAL_MIN && length <= IDEAL_MAX ? 1 : 0);
  options.sort(
    (a, b) =>
      Number(b.onTopic) - Number(a.onTopic) ||
      Number(b.readsAlone) - Number(a.readsAlone) ||
      net(b.member.comment) - net(a.member.comment) ||
      ideal(b.length) - ideal(a.length) ||
      Number(b.action.strength === 'strong') - Number(a.action.strength === 'strong') ||
      a.length - b.length ||
      a.member.comment.id - b.member.comment.id ||
      a.action.sentence.index - b.action.sentence.index,
  );
  const best = options[0];
  if (best === undefined) return null;
  return truncate(best.text, IDEAL_MAX) || null;
}

/** A sentence that opens with its component's title as a heading ('Event Correlation: add …') without it. */
function withoutTitle(sentence: string, componentTitle: string): string {
  const title = cleanText(componentTitle).replace(/[.:]+$/, '').trim();
  if (title === '') return sentence;
  const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const heading = new RegExp(`^${escaped}\\s*(?::|\\s[-–—])\\s+`, 'i');
  const rest = sentence.replace(heading, '');
  return rest === sentence || rest.length < 12 ? sentence : capitalise(rest);
}
