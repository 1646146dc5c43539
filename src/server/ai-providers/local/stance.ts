import type { CommentForAnalysis } from '../provider.js';
import type { Analyzer, PhraseLabels, TextAnalysis } from './analysis.js';
import { STANCE } from './rules.js';
import { actionSentencesOf, indexesByComponent, overlap } from './analysis.js';
import { addressingOf, withoutAddress, type Addressing } from './addressing.js';
import { offTopic } from './relevance.js';
import { namesIn, sharedRun, wordCount } from './runs.js';
import { asRequest, compareText, lowerFirst, truncate } from './text.js';

/**
 * Where the members of one component pull apart. Two comments about one question stand against
 * each other when the same voters vote them opposite ways, when the author of one votes the other
 * down, when one says it disagrees with the other ('I disagree with Ana', 'No, …', '… instead'),
 * when they propose different values of one quantity (3 minutes against 10), or when one adds what
 * the other removes. Votes alone never pair
 * two comments about different questions, and the words a third of a large component's comments
 * write name the discussion, not a question in it. Sides grow from the strongest pair:
 * a comment joins the side it backs in words ('+1 to 3 minutes', 'Agree with Lukas') or the side
 * opposite the one it stands against. A disagreement is settled when a comment on the same question
 * proposes a middle way that members of both sides vote up.
 */

export interface Disagreement {
  /** The contested question, named by a phrase both sides use. */
  topic: string;
  /** Indexes into the comments given, oldest first. */
  sideA: number[];
  sideB: number[];
  /** What each side holds, in a few words. */
  positions: [string, string];
  /** Comments proposing a middle way. */
  compromise: number[];
  /** A middle way has support from both sides, and no side says it keeps its view. */
  resolved: boolean;
  /** A side, or someone answering one of its members, says they keep their view ('I still think…'). */
  holdsOut: boolean;
}

export interface StanceInput {
  comment: CommentForAnalysis;
  analysis: TextAnalysis;
}

const MAX_DISAGREEMENTS = 2;
/** The opposition a pair needs to seed a disagreement: a stated disagreement, or voters crossing both ways. */
const SEED_OPPOSITION = 2;
/** What it takes to join a side. */
const JOIN_PULL = 2;
const POSITION_MAX_CHARS = 90;
/** How many comments back an unnamed reply may answer (comments are oldest first). */
const REPLY_LOOKBACK = 60;
/** The most comments of one component read for disagreements (mostVoted). */
const MAX_COMMENTS = 150;
/** A word or phrase in more than this share of a component's comments (and more than the minimum) is component-wide. */
const COMPONENT_WIDE_SHARE = 0.3;
const COMPONENT_WIDE_MIN = 8;

const DISAGREES = STANCE.pushesBack.pattern;
const AGREES = STANCE.backs.pattern;
const COMPROMISE = STANCE.middleWay.pattern;

/** A quantity with a unit a value can be proposed in; time units compare in seconds. */
const QUANTITY =
  /\b(\d+(?:\.\d+)?)\s*-?\s*(ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|%|percent|retries|attempts|times|replicas|nodes|steps|alerts|pages|tickets)\b/gi;
const SECONDS = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400, w: 604_800, mo: 2_592_000 } as const;

export interface Quantity {
  dimension: string;
  value: number;
  /** As written, for the summary: '3 minutes'. */
  text: string;
}

function unitOf(raw: string): { dimension: string; factor: number } {
  const unit = raw.toLowerCase();
  if (unit === 'ms' || unit.startsWith('millisecond')) return { dimension: 'time', factor: SECONDS.ms };
  if (unit === 's' || unit.startsWith('sec')) return { dimension: 'time', factor: SECONDS.s };
  if (unit.startsWith('min')) return { dimension: 'time', factor: SECONDS.m };
  if (unit.startsWith('h')) return { dimension: 'time', factor: SECONDS.h };
  if (unit.startsWith('day')) return { dimension: 'time', factor: SECONDS.d };
  if (unit.startsWith('week')) return { dimension: 'time', factor: SECONDS.w };
  if (unit.startsWith('month')) return { dimension: 'time', factor: SECONDS.mo };
  if (unit === '%' || unit === 'percent') return { dimension: 'percent', factor: 1 };
  return { dimension: unit.replace(/s$/, ''), factor: 1 };
}

export function quantitiesIn(text: string): Quantity[] {
  return [...text.matchAll(QUANTITY)].map((match) => {
    const { dimension, factor } = unitOf(match[2] ?? '');
    const number = Number(match[1]);
    return { dimension, value: number * factor, text: `${match[1] ?? ''} ${(match[2] ?? '').toLowerCase()}`.replace(/ %$/, '%') };
  });
}

/** Phrasings that put a value forward as one's position: '+1 to 3 minutes', '10 minutes is the number'. */
const BACKED_VALUE = /(?:\+1 (?:to|for)|agree (?:with|on)|go with|stick with|keep it at|vote for|i'?d (?:say|pick|go with))\s+(?:the\s+)?(\d+(?:\.\d+)?\s*-?\s*[a-z%]+)|(\d+(?:\.\d+)?\s*-?\s*[a-z%]+)\s+is (?:the (?:right )?(?:number|value|answer)|right|enough|plenty)\b/i;

/** The value a comment proposes: one in a sentence that asks for a change, else one it backs in words. */
function proposedQuantity(input: StanceInput): Quantity | undefined {
  for (const { sentence } of actionSentencesOf(input.comment, input.analysis)) {
    const found = quantitiesIn(sentence.text);
    const last = found[found.length - 1];
    if (last !== undefined) return last;
  }
  for (const sentence of input.analysis.sentences) {
    const backed = BACKED_VALUE.exec(sentence.text);
    const phrase = backed?.[1] ?? backed?.[2];
    if (phrase !== undefined) {
      const [quantity] = quantitiesIn(phrase);
      if (quantity !== undefined) return quantity;
    }
  }
  return undefined;
}

interface Read {
  input: StanceInput;
  lemmas: Set<string>;
  phrases: Set<string>;
  /** What it is about: its word stems and key phrases less the title's and the component-wide ones (withoutComponentWide). */
  subject: Set<string>;
  subjectPhrases: Set<string>;
  up: ReadonlySet<number>;
  down: ReadonlySet<number>;
  /** Its author's member id, when known. */
  author: number | undefined;
  quantity: Quantity | undefined;
  disagrees: boolean;
  agrees: boolean;
  compromise: boolean;
  /** Lowercased first names of other commenters its first sentence names ('I disagree with Mateo', '+1 Rahul'). */
  mentions: Set<string>;
  firstName: string;
  /** The earlier comment its 'I agree' or 'I disagree' answers, when it says one. */
  answers: number | undefined;
  /** The figures it quotes ('0.85', '40'), to tell which comment a reply answers. */
  figures: Set<string>;
}

/**
 * Whether a comment backs or rejects an earlier one. Its opening decides when it says either ('+1
 * Tomasz. I would rather…' backs Tomasz); else the whole text.
 */
function stanceOf(analysis: TextAnalysis, text: string): { agrees: boolean; disagrees: boolean } {
  const opening = analysis.sentences[0]?.text ?? '';
  const opensAgreeing = AGREES.test(opening);
  const opensDisagreeing = DISAGREES.test(opening);
  if (opensAgreeing !== opensDisagreeing) return { agrees: opensAgreeing, disagrees: opensDisagreeing };
  return { agrees: AGREES.test(text), disagrees: DISAGREES.test(text) };
}

const firstNameOf = (name: string) => name.trim().split(/\s+/)[0]?.toLowerCase() ?? '';

function readAll(inputs: readonly StanceInput[]): Read[] {
  const firstNames = new Set(inputs.map((input) => firstNameOf(input.comment.memberName)).filter((name) => name.length >= 2));
  const reads: Read[] = inputs.map((input) => {
    const text = input.comment.content;
    const opening = input.analysis.sentences[0]?.text ?? '';
    const words = new Set(opening.toLowerCase().match(/\p{L}+/gu) ?? []);
    const own = firstNameOf(input.comment.memberName);
    return {
      input,
      lemmas: new Set(input.analysis.sentences.flatMap((sentence) => [...sentence.lemmas])),
      phrases: new Set(input.analysis.phrases),
      subject: new Set(input.analysis.sentences.flatMap((sentence) => [...sentence.stems.values()])),
      subjectPhrases: new Set(input.analysis.phrases),
      // The author stands with their own comment: one who votes down the comment answering theirs crosses as a voter would.
      up: new Set([...(input.comment.upVoterIds ?? []), ...(input.comment.memberId === undefined ? [] : [input.comment.memberId])]),
      down: new Set(input.comment.downVoterIds ?? []),
      author: input.comment.memberId,
      quantity: proposedQuantity(input),
      ...stanceOf(input.analysis, text),
      compromise: COMPROMISE.test(text),
      mentions: new Set([...firstNames].filter((name) => name !== own && words.has(name))),
      firstName: own,
      answers: undefined,
      figures: new Set(text.match(/\d+(?:[.,:]\d+)?/g) ?? []),
    };
  });
  withoutComponentWide(reads);
  reads.forEach((read, k) => {
    if (!read.agrees && !read.disagrees) return;
    const answered = answeredBy(reads, k);
    const earlier = answered === undefined ? undefined : reads[answered];
    // A reply touches what it answers; 'instead' or 'no,' in a comment about something else answers nothing.
    if (earlier !== undefined && (read.mentions.size > 0 || touches(read, earlier))) read.answers = answered;
  });
  return reads;
}

/**
 * The one comment a reply answers: the latest earlier comment of a member it names, else the
 * earlier comment it shares most with (and something with).
 */
function answeredBy(reads: readonly Read[], k: number): number | undefined {
  const reply = reads[k];
  if (reply === undefined) return undefined;
  const named = reply.mentions.size > 0;
  let best: number | undefined;
  let bestScore = 0;
  // Naming nobody, a reply answers one of the comments just before it.
  const from = named ? 0 : Math.max(0, k - REPLY_LOOKBACK);
  for (let i = from; i < reads.length; i += 1) {
    const earlier = reads[i];
    if (earlier === undefined || i === k || earlier.input.comment.createdAt > reply.input.comment.createdAt) continue;
    if (named && !reply.mentions.has(earlier.firstName)) continue;
    const share = overlap(reply.lemmas, earlier.lemmas) + shared(reply.phrases, earlier.phrases) * 0.2 + shared(reply.figures, earlier.figures) * 0.3;
    // A named member's latest comment on the subject; naming nobody, the closest in subject and
    // figures, the nearer the better.
    const score = named ? 1 + (share > 0 ? 1 : 0) + i / reads.length : share >= 0.15 ? share + (0.1 * i) / reads.length : 0;
    if (score > bestScore || (score === bestScore && score > 0)) {
      best = i;
      bestScore = score;
    }
  }
  return best;
}

/**
 * A word or phrase that a good share of the component's comments write ('agent', 'model' in a
 * discussion of AI features) names the whole discussion, not one question in it: two comments
 * that share only such words are about different things. Small components have none: there a
 * subject shared by most comments is the question itself.
 */
function withoutComponentWide(reads: readonly Read[]): void {
  const limit = Math.max(COMPONENT_WIDE_MIN, COMPONENT_WIDE_SHARE * reads.length);
  for (const key of ['subject', 'subjectPhrases'] as const) {
    const counts = new Map<string, number>();
    for (const read of reads) for (const item of read[key]) counts.set(item, (counts.get(item) ?? 0) + 1);
    for (const read of reads) for (const item of [...read[key]]) if ((counts.get(item) ?? 0) > limit) read[key].delete(item);
  }
}

function shared<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): number {
  let count = 0;
  for (const item of a) if (b.has(item)) count += 1;
  return count;
}

/** About the same thing: a phrase in common, or a good share of their words, beyond the component-wide ones. */
function related(a: Read, b: Read): boolean {
  return shared(a.subjectPhrases, b.subjectPhrases) > 0 || (shared(a.subject, b.subject) >= 1 && overlap(a.subject, b.subject) >= 0.2);
}

/** Touches the same subject: a phrase or two words in common, beyond the component-wide ones. */
function touches(a: Read, b: Read): boolean {
  return shared(a.subjectPhrases, b.subjectPhrases) > 0 || shared(a.subject, b.subject) >= 2;
}

/** Anything of one subject in common: a word or phrase beyond the component-wide ones, or a value of one measure. */
function touchesAtAll(a: Read, b: Read): boolean {
  return shared(a.subjectPhrases, b.subjectPhrases) > 0 || shared(a.subject, b.subject) > 0 || (a.quantity !== undefined && a.quantity.dimension === b.quantity?.dimension);
}

function sameQuantity(a: Read, b: Read): boolean | undefined {
  if (a.quantity === undefined || b.quantity === undefined || a.quantity.dimension !== b.quantity.dimension) return undefined;
  return a.quantity.value === b.quantity.value;
}

function oppositeDirections(a: Read, b: Read): boolean {
  for (const sentence of a.input.analysis.sentences) {
    for (const [phrase, direction] of sentence.directions) {
      for (const other of b.input.analysis.sentences) {
        const opposite = other.directions.get(phrase);
        if (opposite !== undefined && opposite !== direction) return true;
      }
    }
  }
  return false;
}

/** Voted clearly both ways: at least two each, and the smaller side at least 40% of the larger. */
/**
 * Dissent that no disagreement's sides account for: a comment that pushes back in words, or two or
 * more comments members voted down. The analyzer may not find who stands against whom, yet the
 * team is not of one mind.
 */
export function unpairedDissent(comments: ReadonlyArray<{ content: string; downVotes: number }>, analyses: readonly TextAnalysis[]): boolean {
  if (comments.filter((comment) => comment.downVotes > 0).length >= 2) return true;
  return analyses.some((analysis, i) => stanceOf(analysis, comments[i]?.content ?? '').disagrees);
}

export const splitVote = (up: number, down: number): boolean => up >= 2 && down >= 2 && Math.min(up, down) / Math.max(up, down) >= 0.4;

/** Who voted something up and down, by member id. */
export interface Voters {
  up: ReadonlySet<number>;
  down: ReadonlySet<number>;
}

/**
 * Voters who vote the two comments opposite ways. It counts fully when it happens both ways (who
 * backs one rejects the other, and the reverse): members who up-vote a popular comment and
 * down-vote a weak one are not a split.
 */
export function crossingVotes(a: Voters, b: Voters): number {
  const one = shared(a.up, b.down);
  const other = shared(a.down, b.up);
  return 2 * Math.min(one, other) + 0.5 * Math.abs(one - other);
}

/**
 * The author of one comment votes the other down: a member who has stated a position and votes
 * against a comment on the same subject stands against it, as plainly as one who writes 'I
 * disagree' (a voter's down-vote says less: it may judge the wording or the idea's cost). It
 * seeds a disagreement, enough alone (SEED_OPPOSITION), unless the comment backs the other in
 * words or offers a middle way; it carries nobody else into a side.
 */
const AUTHOR_REJECTS = 2;

function rejectedByAuthor(reads: readonly Read[], i: number, j: number): boolean {
  const a = reads[i];
  const b = reads[j];
  if (a === undefined || b === undefined) return false;
  const votedDown = (a.author !== undefined && b.down.has(a.author)) || (b.author !== undefined && a.down.has(b.author));
  const backsInWords = (a.agrees && !a.disagrees && a.answers === j) || (b.agrees && !b.disagrees && b.answers === i);
  // About the same thing (a phrase or a good share of words), or one answering the other: a single shared word is too little.
  const linked = related(a, b) || a.answers === j || b.answers === i;
  return votedDown && !backsInWords && !a.compromise && !b.compromise && linked;
}

/**
 * How strongly two comments stand against each other, and how strongly they take the same side.
 * Backing is said in words (one backs the other, '+1', 'Agree with Lukas', or proposes the same
 * value); shared voters alone do not say it, since popular comments share voters whatever they are
 * about.
 */
function scorePair(reads: readonly Read[], i: number, j: number): { against: number; backs: number } {
  const a = reads[i];
  const b = reads[j];
  if (a === undefined || b === undefined) return { against: 0, backs: 0 };
  const crossing = crossingVotes(a, b);
  const alike = shared(a.up, b.up) + shared(a.down, b.down);
  const isRelated = related(a, b);
  const values = isRelated ? sameQuantity(a, b) : undefined;
  // Votes strengthen a pair that words link: the same subject, one answering the other, or, when
  // several members cross, a word or a measure in common. On comments about different questions
  // they are two separate judgements, however many cross.
  const linked = isRelated || a.answers === j || b.answers === i || (crossing >= 3 && touchesAtAll(a, b));
  let against = linked ? crossing - 0.5 * alike : 0;
  if ((a.disagrees && a.answers === j) || (b.disagrees && b.answers === i)) against += 2;
  if (values === false) against += 2;
  if (isRelated && oppositeDirections(a, b)) against += 1.5;
  let backs = -crossing;
  if ((a.agrees && !a.disagrees && a.answers === j) || (b.agrees && !b.disagrees && b.answers === i)) backs += 2;
  if (values === true) backs += 2;
  return { against, backs };
}

/**
 * The pairs worth scoring, without looking at every pair of a large component: those a voter votes
 * opposite ways (often enough to count), a reply and the comment it answers, two values of one
 * measure, and opposite changes to one phrase. Any other pair scores nothing.
 */
function candidatePairs(reads: readonly Read[]): Set<number> {
  const n = reads.length;
  const key = (a: number, b: number) => (a < b ? a * n + b : b * n + a);
  const pairs = new Set<number>();
  const push = <K, V>(map: Map<K, V[]>, at: K, value: V) => {
    const list = map.get(at);
    if (list === undefined) map.set(at, [value]);
    else list.push(value);
  };
  // Votes: how many voters vote a up and b down, per ordered pair.
  const upBy = new Map<number, number[]>();
  const downBy = new Map<number, number[]>();
  reads.forEach((read, i) => {
    for (const voter of read.up) push(upBy, voter, i);
    for (const voter of read.down) push(downBy, voter, i);
  });
  const directed = new Map<number, number>();
  for (const [voter, ups] of upBy) {
    for (const a of ups) for (const b of downBy.get(voter) ?? []) directed.set(a * n + b, (directed.get(a * n + b) ?? 0) + 1);
  }
  for (const [ordered, count] of directed) {
    const a = Math.floor(ordered / n);
    const b = ordered % n;
    const back = directed.get(b * n + a) ?? 0;
    // Less than this scores under a join by votes alone (crossingVotes).
    if ((count >= 1 && back >= 1) || Math.abs(count - back) >= 4) pairs.add(key(a, b));
  }
  reads.forEach((read, i) => {
    if (read.answers !== undefined) pairs.add(key(i, read.answers));
  });
  // An author voting down another comment (AUTHOR_REJECTS).
  const byAuthor = new Map<number, number[]>();
  reads.forEach((read, i) => {
    if (read.author !== undefined) push(byAuthor, read.author, i);
  });
  reads.forEach((read, b) => {
    for (const voter of read.down) for (const a of byAuthor.get(voter) ?? []) if (a !== b) pairs.add(key(a, b));
  });
  const byDimension = new Map<string, number[]>();
  reads.forEach((read, i) => {
    if (read.quantity !== undefined) push(byDimension, read.quantity.dimension, i);
  });
  for (const group of byDimension.values()) for (const a of group) for (const b of group) if (a < b) pairs.add(key(a, b));
  const byPhrase = new Map<string, Array<{ i: number; direction: string }>>();
  reads.forEach((read, i) => {
    for (const sentence of read.input.analysis.sentences) {
      for (const [phrase, direction] of sentence.directions) push(byPhrase, phrase, { i, direction });
    }
  });
  for (const group of byPhrase.values()) {
    for (const x of group) for (const y of group) if (x.i < y.i && x.direction !== y.direction) pairs.add(key(x.i, y.i));
  }
  return pairs;
}

/**
 * On a large component, the disagreements a lead must hear of are among the comments members vote
 * on: the most voted are read (the newest first among equals), in their order, which keeps the
 * pairs to score bounded whatever the component's size.
 */
function mostVoted(inputs: readonly StanceInput[]): number[] {
  const all = inputs.map((_input, i) => i);
  if (inputs.length <= MAX_COMMENTS) return all;
  const votes = (i: number) => (inputs[i]?.comment.upVotes ?? 0) + (inputs[i]?.comment.downVotes ?? 0);
  return all
    .sort((a, b) => votes(b) - votes(a) || b - a)
    .slice(0, MAX_COMMENTS)
    .sort((a, b) => a - b);
}

export function findDisagreements(labels: PhraseLabels, inputs: readonly StanceInput[]): Disagreement[] {
  // Read oldest first whatever order they come in: a reply answers what came before it.
  const when = (i: number) => inputs[i]?.comment.createdAt ?? 0;
  const kept = mostVoted(inputs).sort((a, b) => when(a) - when(b) || (inputs[a]?.comment.id ?? 0) - (inputs[b]?.comment.id ?? 0));
  const found = disagreementsAmong(
    labels,
    kept.flatMap((i) => (inputs[i] === undefined ? [] : [inputs[i]])),
  );
  const original = (i: number) => kept[i] ?? i;
  return found.map((disagreement) => ({
    ...disagreement,
    sideA: disagreement.sideA.map(original),
    sideB: disagreement.sideB.map(original),
    compromise: disagreement.compromise.map(original),
  }));
}

/**
 * The disagreements of each component among comments of several, the comments about something else
 * (relevance.ts) left out; sides and compromises index `comments`.
 */
export function disagreementsByComponent(
  analyzer: Analyzer,
  comments: readonly CommentForAnalysis[],
  analyses: readonly TextAnalysis[],
): { disagreements: Array<Disagreement & { componentId: string }>; aside: Set<number> } {
  const byComponent = indexesByComponent(comments);
  const aside = offTopic(comments, analyzer.words);
  const disagreements: Array<Disagreement & { componentId: string }> = [];
  for (const [componentId, all] of byComponent) {
    const indexes = all.filter((i) => !aside.has(i));
    const inputs = indexes.flatMap((i) => {
      const comment = comments[i];
      const analysis = analyses[i];
      return comment === undefined || analysis === undefined ? [] : [{ comment, analysis }];
    });
    const original = (k: number) => indexes[k] ?? -1;
    for (const disagreement of findDisagreements(analyzer, inputs)) {
      disagreements.push({
        ...disagreement,
        componentId,
        sideA: disagreement.sideA.map(original),
        sideB: disagreement.sideB.map(original),
        compromise: disagreement.compromise.map(original),
      });
    }
  }
  return { disagreements, aside };
}

function disagreementsAmong(labels: PhraseLabels, inputs: readonly StanceInput[]): Disagreement[] {
  const reads = readAll(inputs);
  const n = reads.length;
  const scores = new Map<number, { against: number; backs: number }>();
  const pairs: Array<{ a: number; b: number; score: number }> = [];
  for (const pair of candidatePairs(reads)) {
    const a = Math.floor(pair / n);
    const b = pair % n;
    const { against, backs } = scorePair(reads, a, b);
    scores.set(pair, { against, backs });
    // An author's vote seeds a disagreement; it does not carry others into its sides.
    const seed = against + (rejectedByAuthor(reads, a, b) ? AUTHOR_REJECTS : 0);
    if (seed >= SEED_OPPOSITION && seed > backs) pairs.push({ a, b, score: seed });
  }
  pairs.sort((x, y) => y.score - x.score || x.a - y.a || x.b - y.b);

  // Each comment's scored pairs, so joining a side looks at its own pairs only.
  const scored = new Map<number, Array<{ other: number; against: number; backs: number }>>();
  for (const [pair, { against, backs }] of scores) {
    const a = Math.floor(pair / n);
    const b = pair % n;
    for (const [from, other] of [[a, b], [b, a]] as const) {
      const list = scored.get(from);
      if (list === undefined) scored.set(from, [{ other, against, backs }]);
      else list.push({ other, against, backs });
    }
  }
  const used = new Set<number>();
  const found: Disagreement[] = [];
  const addressing = addressingOf(reads.map((read) => read.input.comment.memberName));
  for (const seed of pairs) {
    if (found.length >= MAX_DISAGREEMENTS) break;
    if (used.has(seed.a) || used.has(seed.b)) continue;
    const sideA = new Set([seed.a]);
    const sideB = new Set([seed.b]);
    // Two passes: a comment that agrees with one that has just joined joins too.
    for (let pass = 0; pass < 2; pass += 1) {
      for (const [k, links] of scored) {
        if (used.has(k) || sideA.has(k) || sideB.has(k)) continue;
        // A comment joins the side it backs, or the side opposite the one it stands against.
        let againstA = 0;
        let againstB = 0;
        let backsA = 0;
        let backsB = 0;
        for (const { other, against, backs } of links) {
          if (sideA.has(other)) {
            againstA = Math.max(againstA, against);
            backsA = Math.max(backsA, backs);
          } else if (sideB.has(other)) {
            againstB = Math.max(againstB, against);
            backsB = Math.max(backsB, backs);
          }
        }
        const toA = Math.max(backsA, againstB) - againstA;
        const toB = Math.max(backsB, againstA) - againstB;
        if (toA >= JOIN_PULL && toA >= toB + 1) sideA.add(k);
        else if (toB >= JOIN_PULL && toB >= toA + 1) sideB.add(k);
      }
    }
    const a = [...sideA].sort((x, y) => x - y);
    const b = [...sideB].sort((x, y) => x - y);
    const [first, second] = (a[0] ?? 0) <= (b[0] ?? 0) ? [a, b] : [b, a];
    for (const i of [...first, ...second]) used.add(i);
    const compromise = compromisesOf(reads, first, second, used);
    const campA = campOf(reads, first);
    const campB = campOf(reads, second);
    // A middle way both camps back settles it, unless a member of a side, or someone answering
    // one by name, says they keep their view.
    const sideNames = new Set([...first, ...second].map((i) => reads[i]?.firstName ?? '').filter((name) => name !== ''));
    const holdsOut = reads.some(
      (read) => (sideNames.has(read.firstName) || [...read.mentions].some((name) => sideNames.has(name))) && STANCE.holdsOut.pattern.test(read.input.comment.content),
    );
    const resolved =
      !holdsOut &&
      compromise.some((i) => {
        const read = reads[i];
        return read !== undefined && read.down.size <= 1 && shared(read.up, campA) > 0 && shared(read.up, campB) > 0;
      });
    found.push({
      topic: topicOf(labels, reads, first, second),
      sideA: first,
      sideB: second,
      positions: positionsOf(reads, first, second, addressing),
      compromise,
      resolved,
      holdsOut,
    });
  }
  return found;
}

/**
 * Comments on the same question, after it was raised, that offer a middle way: in words ('how about',
 * 'middle ground', 'per service') or with a value between the two sides'.
 */
function compromisesOf(reads: readonly Read[], sideA: readonly number[], sideB: readonly number[], used: ReadonlySet<number>): number[] {
  const valuesOf = (side: readonly number[]) =>
    side.flatMap((i) => {
      const quantity = reads[i]?.quantity;
      return quantity === undefined ? [] : [quantity];
    });
  const a = valuesOf(sideA);
  const b = valuesOf(sideB);
  const raised = Math.max(...[...sideA, ...sideB].slice(0, 2).map((i) => reads[i]?.input.comment.createdAt ?? 0));
  return reads.flatMap((read, k) => {
    if (used.has(k) || read.input.comment.createdAt < raised) return [];
    const onA = sideA.some((i) => reads[i] !== undefined && touches(read, reads[i]));
    const onB = sideB.some((i) => reads[i] !== undefined && touches(read, reads[i]));
    if (!onA || !onB) return [];
    const q = read.quantity;
    const between =
      q !== undefined &&
      a.some((x) => b.some((y) => x.dimension === q.dimension && y.dimension === q.dimension && Math.min(x.value, y.value) < q.value && q.value < Math.max(x.value, y.value)));
    return read.compromise || between ? [k] : [];
  });
}

/** The members behind a side: everyone who voted its comments up. */
function campOf(reads: readonly Read[], side: readonly number[]): Set<number> {
  return new Set(side.flatMap((i) => [...(reads[i]?.up ?? [])]));
}

/** The contested question: the run of words both sides write (sharedRun), else the most specific key phrase both use, else the one most of their comments use. */
function topicOf(labels: PhraseLabels, reads: readonly Read[], sideA: readonly number[], sideB: readonly number[]): string {
  const names = namesIn(reads.map((read) => read.input.comment.memberName));
  const textsOf = (side: readonly number[]) => side.map((i) => reads[i]?.input.comment.content ?? '');
  const run = sharedRun(textsOf(sideA), textsOf(sideB), names);
  if (run !== undefined) return run;

  const phrasesIn = (side: readonly number[]) => {
    const counts = new Map<string, number>();
    for (const i of side) for (const phrase of reads[i]?.phrases ?? []) counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
    return counts;
  };
  const pa = phrasesIn(sideA);
  const pb = phrasesIn(sideB);
  const total = (phrase: string) => (pa.get(phrase) ?? 0) + (pb.get(phrase) ?? 0);
  const rank = (candidates: string[]) => candidates.sort((x, y) => wordCount(y) - wordCount(x) || total(y) - total(x) || compareText(x, y))[0];
  const all = [...new Set([...pa.keys(), ...pb.keys()])];
  const pick = rank([...pa.keys()].filter((phrase) => pb.has(phrase) && wordCount(phrase) > 1)) ?? rank(all.filter((phrase) => total(phrase) >= 2));
  if (pick === undefined) return 'the approach';
  // One word alone ('table', 'age') names no question a lead would write down: the phrase of the
  // sides around it does ('rules table'), the one most of their comments use, else the shortest.
  const around =
    wordCount(pick) > 1
      ? undefined
      : all
          .filter((phrase) => wordCount(phrase) > 1 && phrase.split(' ').includes(pick))
          .sort((x, y) => total(y) - total(x) || wordCount(x) - wordCount(y) || compareText(x, y))[0];
  return lowerFirst(labels.label(around ?? pick));
}

/** One value every comment of the side that names one agrees on. */
function valueOf(reads: readonly Read[], side: readonly number[]): Quantity | undefined {
  const values = side.flatMap((i) => {
    const quantity = reads[i]?.quantity;
    return quantity === undefined ? [] : [quantity];
  });
  const [value] = values;
  return value !== undefined && values.every((other) => other.dimension === value.dimension && other.value === value.value) ? value : undefined;
}

/** What each side holds: the two values when they differ in one measure ('3 minutes', '10 minutes'), else each side's own words. */
function positionsOf(reads: readonly Read[], sideA: readonly number[], sideB: readonly number[], addressing: Addressing): [string, string] {
  const a = valueOf(reads, sideA);
  const b = valueOf(reads, sideB);
  if (a !== undefined && b !== undefined && a.dimension === b.dimension && a.value !== b.value) return [a.text, b.text];
  return [wordsOf(reads, sideA, addressing), wordsOf(reads, sideB, addressing)];
}

/** A side's first request, else its first statement, quoted, without the greeting or teammate it opens with. */
function wordsOf(reads: readonly Read[], side: readonly number[], addressing: Addressing): string {
  for (const i of side) {
    const read = reads[i];
    if (read === undefined) continue;
    const [action] = actionSentencesOf(read.input.comment, read.input.analysis);
    const sentence = action?.sentence.text ?? read.input.analysis.sentences.find((candidate) => candidate.words >= 4)?.text;
    if (sentence !== undefined) return `“${truncate(asRequest(withoutAddress(sentence, addressing)).replace(/[.]$/, ''), POSITION_MAX_CHARS)}”`;
  }
  return 'the other view';
}
