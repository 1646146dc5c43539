import type { CommentSummaryOutput, SetAside } from '../../../common/contract/ai.js';
import { recommendationTypeOf } from '../../../common/significance.js';
import { authorKey, type CommentForAnalysis, type SummarizeCommentsInput } from '../provider.js';
import type { ActionStrength, AnalysedSentence, Analyzer, TextAnalysis } from './analysis.js';
import { actionSentencesOf, overlap, uniqueById } from './analysis.js';
import { setAsideForSummary, sortOut } from './set-aside.js';
import { themesOf, type Theme } from './themes.js';
import { findDisagreements, splitVote, unpairedDissent, type Disagreement } from './stance.js';
import { asRequest, clamp, cleanText, listOf, lowerFirst, plural, round2, truncate } from './text.js';

/** One component's comments: themes, the changes they ask for, and a few sentences on the discussion. */

const MAX_THEMES = 5;
const MAX_CHANGES = 3;
const CHANGE_MAX_CHARS = 200;

interface ActionSentence {
  comment: number;
  sentence: AnalysedSentence;
  strength: ActionStrength;
}

const net = (comment: CommentForAnalysis): number => comment.upVotes - comment.downVotes;

/** What a component's discussion is, before anything is said about it. */
export interface Discussion {
  /** The comments read: to the team and on the subject, newest first as given. */
  comments: CommentForAnalysis[];
  analyses: TextAnalysis[];
  /** How many comments were addressed to the AI, and how many were about other things. */
  addressed: number;
  aside: number;
  /** Both kinds, by comment id, each with the reason a member reads (set-aside.ts). */
  setAside: SetAside[];
  /** Indexes into `comments`. */
  disagreements: Disagreement[];
  themes: Theme[];
}

/**
 * A component's comments read as the summary reads them: those addressed to the AI or about other
 * things set aside, the disagreements, and the themes, a disagreement's sides and middle way being
 * one question (themes.ts).
 */
export function readDiscussion(analyzer: Analyzer, input: SummarizeCommentsInput): Discussion {
  const titleWords = analyzer.titleWords(input.componentTitle);
  const all = uniqueById(input.comments);
  // Comments addressed to the AI, and those about something else, are no source of anything.
  const { toTheTeam, offTopic: aside, setAside } = sortOut(all, analyzer.words);
  const readings = toTheTeam.map((comment) => analyzer.analyse(comment.content, titleWords));
  const comments = toTheTeam.filter((_comment, i) => !aside.has(i));
  const analyses = readings.filter((_analysis, i) => !aside.has(i));
  const disagreements = findDisagreements(
    analyzer,
    comments.map((comment, i) => ({ comment, analysis: analyses[i] ?? { sentences: [], phrases: [], sentiment: 0, injections: 0 } })),
  );
  const together = disagreements.map((disagreement) => [...disagreement.sideA, ...disagreement.sideB, ...disagreement.compromise]);
  const themes =
    comments.length === 0
      ? []
      : themesOf(analyzer, comments, analyses, titleWords, { maxThemes: MAX_THEMES, minSize: comments.length <= 2 ? 1 : 2, together }).map((theme) => ({
          ...theme,
          label: truncate(theme.label, 200),
        }));
  return { comments, analyses, addressed: all.length - toTheTeam.length, aside: aside.size, setAside, disagreements, themes };
}

export function summarizeComments(analyzer: Analyzer, input: SummarizeCommentsInput): CommentSummaryOutput {
  const title = truncate(cleanText(input.componentTitle).replace(/[.]$/, ''), 120) || 'this component';
  const { comments, analyses, addressed, aside, setAside, disagreements, themes } = readDiscussion(analyzer, input);
  const setAsideNote =
    (addressed === 0 ? '' : ` ${plural(addressed, 'comment')} addressed to the AI rather than to the team ${addressed === 1 ? 'was' : 'were'} set aside.`) +
    (aside === 0 ? '' : ` ${plural(aside, 'comment')} about other things ${aside === 1 ? 'was' : 'were'} left out.`);
  if (comments.length === 0) {
    return {
      confidence: 0,
      understanding:
        (input.settledCount ?? 0) > 0
          ? `Every comment on ${title} is settled (resolved, or a basis of the decision), so no open point remains to summarise.${setAsideNote}`
          : `There are no comments on ${title} yet, so there is nothing to summarise.${setAsideNote}`,
      contentChanges: '',
      structuralChanges: '',
      keyThemes: [],
      sources: { keyThemes: [], contentChanges: [], structuralChanges: [] },
      setAside: setAsideForSummary(setAside),
    };
  }

  const n = comments.length;
  // A theme's weight behind a change is how many members raised it, not how many comments: one
  // member posting thirty comments is one voice.
  const authorsOf = (members: readonly number[]) => new Set(members.flatMap((i) => (comments[i] === undefined ? [] : [authorKey(comments[i])]))).size;
  const themeSizeOf = new Map(themes.flatMap((theme) => theme.members.map((i) => [i, authorsOf(theme.members)] as const)));

  // Changes: action sentences, the best supported first (votes, then how many comments share their theme).
  const actions: Array<ActionSentence & { support: number }> = [];
  comments.forEach((comment, i) => {
    const analysis = analyses[i];
    if (analysis === undefined) return;
    for (const { sentence, strength } of actionSentencesOf(comment, analysis)) {
      const shared = (themeSizeOf.get(i) ?? 1) - 1;
      actions.push({ comment: i, sentence, strength, support: net(comment) + shared + (strength === 'strong' ? 0.5 : 0) });
    }
  });
  actions.sort(
    (a, b) => b.support - a.support || a.comment - b.comment || a.sentence.index - b.sentence.index,
  );
  const structural = actions.filter((action) => recommendationTypeOf(action.sentence.text) === 'structural');
  const content = actions.filter((action) => recommendationTypeOf(action.sentence.text) === 'content');
  // A contested request is the disagreement's, stated with it: the changes are those nobody contests,
  // so no change ever merges comments of opposite sides.
  const contested = new Set(disagreements.flatMap((disagreement) => [...disagreement.sideA, ...disagreement.sideB]));
  const uncontested = (action: ActionSentence) => !contested.has(action.comment);
  const structuralChanges = changesOf(structural.filter(uncontested), comments);
  const contentChanges = changesOf(content.filter(uncontested), comments);

  // Understanding.
  const members = new Set(comments.map((comment) => comment.memberName.trim().toLowerCase())).size;
  const up = comments.reduce((sum, comment) => sum + comment.upVotes, 0);
  const down = comments.reduce((sum, comment) => sum + comment.downVotes, 0);
  const proposing = new Set(actions.map((action) => action.comment));
  const proposingStructural = new Set(structural.map((action) => action.comment)).size;
  const praising = analyses.filter((analysis, i) => !proposing.has(i) && analysis.sentiment > 0.3).length;
  const understanding =
    n === 1
      ? understandingOfOne(title, themes[0]?.label, proposing.size > 0, proposingStructural > 0, praising > 0, up, down)
      : understandingOfMany({ n, members, title, themes, proposing: proposing.size, structural: proposingStructural, praising, up, down, split: disagreements.length > 0 });
  const stances = disagreements.map((disagreement) => describeDisagreement(disagreement, comments)).join(' ');

  // Confidence: volume, how much of the discussion the themes cover, how clear the votes are.
  // Coverage by member: the share of each member's comments the themes cover, averaged over the
  // members, so one member's many comments clustering together do not make the summary sure.
  const inThemes = new Set(themes.flatMap((theme) => theme.members));
  const coveredBy = new Map<string, { in: number; of: number }>();
  comments.forEach((comment, i) => {
    const key = authorKey(comment);
    const tally = coveredBy.get(key) ?? { in: 0, of: 0 };
    coveredBy.set(key, { in: tally.in + (inThemes.has(i) ? 1 : 0), of: tally.of + 1 });
  });
  const covered = [...coveredBy.values()].reduce((sum, tally) => sum + tally.in / tally.of, 0) / Math.max(1, coveredBy.size);
  const voted = comments.reduce((sum, comment) => sum + comment.upVotes + comment.downVotes, 0);
  const agreement = voted === 0 ? 0.5 : comments.reduce((sum, comment) => sum + Math.abs(net(comment)), 0) / voted;
  // Volume counts at most three comments of any one member, for the same reason.
  const written = new Map<string, number>();
  for (const comment of comments) written.set(authorKey(comment), (written.get(authorKey(comment)) ?? 0) + 1);
  const volume = [...written.values()].reduce((sum, count) => sum + Math.min(count, 3), 0);
  let confidence = 0.1 + 0.4 * Math.min(1, volume / 12) + 0.3 * covered + 0.2 * agreement;
  if (n <= 2) confidence = Math.min(confidence, 0.2 + 0.1 * (n - 1));
  // A reader cannot take the summary as the team's view while the team is still divided.
  if (disagreements.some((disagreement) => !disagreement.resolved)) confidence = Math.min(confidence * 0.75, 0.6);
  else if (disagreements.length > 0) confidence = Math.min(confidence, 0.8);
  // A comment the team votes clearly both ways is an open question, even where its counterpart is
  // not found among the comments.
  if (comments.some((comment) => splitVote(comment.upVotes, comment.downVotes))) confidence = Math.min(confidence, 0.7);
  // Dissent the analyzer could not pair into sides (pushback in words, or members voting down
  // more than one comment) still says the team is not of one mind.
  if (disagreements.length === 0 && unpairedDissent(comments, analyses)) confidence = Math.min(confidence, 0.7);

  return {
    confidence: round2(clamp(confidence, 0.05, 0.95)),
    understanding: truncate(`${understanding}${stances === '' ? '' : ` ${stances}`}${setAsideNote}`, 2_000),
    contentChanges: contentChanges.text,
    structuralChanges: structuralChanges.text,
    keyThemes: themes.map((theme) => theme.label),
    sources: {
      keyThemes: themes.map((theme) => theme.members.map((i) => comments[i]?.id ?? 0).filter((id) => id > 0)),
      contentChanges: contentChanges.sources,
      structuralChanges: structuralChanges.sources,
    },
    setAside: setAsideForSummary(setAside),
  };
}

/**
 * Who holds a side ('Tomasz Nowak and Aisha Okafor', or the first two and how many others), with
 * the verb that agrees with them ('Ana Berg argues', 'Ana Berg and Dee Eng argue').
 */
function camp(side: readonly number[], comments: readonly CommentForAnalysis[]): { who: string; argue: string } {
  const names = [...new Set(side.map((i) => comments[i]?.memberName.trim() ?? '').filter((name) => name !== ''))];
  const who = names.length <= 3 ? listOf(names) : `${listOf(names.slice(0, 2))} and ${plural(names.length - 2, 'other')}`;
  return { who, argue: names.length === 1 ? 'argues' : 'argue' };
}

/** The disagreement in words: the question, who holds what, and whether a middle way has been found. */
function describeDisagreement(disagreement: Disagreement, comments: readonly CommentForAnalysis[]): string {
  const [a, b] = disagreement.positions;
  const campA = camp(disagreement.sideA, comments);
  const sentences = [`Members disagree on ${disagreement.topic}: ${campA.who} ${campA.argue} for ${a}, ${camp(disagreement.sideB, comments).who} for ${b}.`];
  const middle = disagreement.compromise[0];
  const proposer = middle === undefined ? undefined : comments[middle]?.memberName.trim();
  if (disagreement.resolved && proposer !== undefined) sentences.push(`${proposer}'s middle way has support from both sides.`);
  else if (proposer !== undefined && disagreement.holdsOut) sentences.push(`${proposer} proposes a middle way, but some members say they keep their view, so the question stays open.`);
  else if (proposer !== undefined) sentences.push(`${proposer} proposes a middle way, but it is not yet backed by both sides, so the question stays open.`);
  else sentences.push('Nobody has proposed a middle way yet, so the question is open.');
  return sentences.join(' ');
}

/** Up to three of the best-supported sentences, one per comment; a near-repeat adds its comment to the sources. */
function changesOf(actions: ReadonlyArray<ActionSentence>, comments: readonly CommentForAnalysis[]): { text: string; sources: number[] } {
  const picked: Array<{ action: ActionSentence; sources: Set<number> }> = [];
  const usedComments = new Set<number>();
  for (const action of actions) {
    const repeat = picked.find((pick) => overlap(pick.action.sentence.lemmas, action.sentence.lemmas) >= 0.7);
    if (repeat !== undefined) {
      repeat.sources.add(action.comment);
      continue;
    }
    if (usedComments.has(action.comment) || picked.length >= MAX_CHANGES) continue;
    usedComments.add(action.comment);
    picked.push({ action, sources: new Set([action.comment]) });
  }
  const text = truncate(picked.map((pick) => truncate(asRequest(pick.action.sentence.text), CHANGE_MAX_CHARS)).join(' '), 2_000);
  const sources = [...new Set(picked.flatMap((pick) => [...pick.sources]))]
    .map((i) => comments[i]?.id ?? 0)
    .filter((id) => id > 0)
    .sort((a, b) => a - b);
  return { text, sources };
}

function votesOf(up: number, down: number): string {
  return `${plural(up, 'up-vote')} and ${plural(down, 'down-vote')}`;
}

function understandingOfOne(title: string, theme: string | undefined, proposes: boolean, structural: boolean, praises: boolean, up: number, down: number): string {
  const sentences = [`1 comment from 1 member on ${title}.`];
  if (theme !== undefined) sentences.push(`It is about ${lowerFirst(theme)}.`);
  const stance = proposes
    ? `It is critical of the current design and proposes a ${structural ? 'structural' : 'content'} change`
    : praises
      ? 'It is supportive of the current design and proposes no change'
      : 'It is an observation or question without a concrete proposal';
  sentences.push(`${stance} (${up + down === 0 ? 'no votes yet' : votesOf(up, down)}).`);
  return sentences.join(' ');
}

function understandingOfMany(facts: {
  n: number;
  members: number;
  title: string;
  themes: ReadonlyArray<{ label: string; members: readonly number[] }>;
  proposing: number;
  structural: number;
  praising: number;
  up: number;
  down: number;
  /** A disagreement follows in its own sentences: the votes are not read as agreement. */
  split: boolean;
}): string {
  const { n, title, themes, proposing, structural, praising, up, down, split } = facts;
  const sentences = [`${plural(n, 'comment')} from ${plural(facts.members, 'member')} on ${title}.`];
  if (themes.length > 0) {
    const top = themes.slice(0, 3).map((theme) => `${lowerFirst(theme.label)} (${plural(theme.members.length, 'comment')})`);
    sentences.push(`The discussion centres on ${listOf(top)}.`);
  } else {
    sentences.push('The comments raise separate points; no theme is shared yet.');
  }
  const changeShare = proposing / n;
  const lean =
    praising / n >= 0.5 && changeShare < 0.4
      ? 'supportive of the current design'
      : changeShare > 0.5 || (changeShare === 0.5 && praising === 0)
        ? 'critical, with most comments asking for changes'
        : praising > 0 && proposing > 0
          ? 'mixed, with praise alongside requests for changes'
          : 'neutral, mostly observations and questions';
  const votes =
    up + down === 0
      ? 'nobody has voted on the comments yet'
      : split
        ? `the votes pull in different directions on the contested point (${votesOf(up, down)})`
        : up / (up + down) >= 0.75
        ? `members mostly agree with the points raised (${votesOf(up, down)})`
        : up / (up + down) <= 0.4
          ? `many points are voted down (${votesOf(up, down)})`
          : `votes on the points are split (${votesOf(up, down)})`;
  sentences.push(`The tone is ${lean}, and ${votes}.`);
  const kinds = `${structural} structural, ${proposing - structural} content`;
  sentences.push(
    proposing === 0
      ? 'None of the comments proposes a concrete change.'
      : proposing === n
        ? `${n === 2 ? 'Both' : 'All'} comments propose changes (${kinds}).`
        : `${proposing} of the ${n} comments ${proposing === 1 ? 'proposes' : 'propose'} changes (${kinds}).`,
  );
  return sentences.join(' ');
}
