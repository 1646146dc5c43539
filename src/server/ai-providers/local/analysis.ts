import type { CommentForAnalysis } from '../provider.js';
import { FUNCTION_WORDS, OPENING_FILLER, REQUEST_FORMS, TIME_WORDS, wordsOf } from './rules.js';
import { cleanText, compareText, isInjection } from './text.js';
import type { Reader, ReadToken } from './wink.js';
import type { WordModels, WordReading } from './word-model.js';
import wordModels from './word-models.json' with { type: 'json' };

/**
 * What the local analyzer reads from one text: its sentences, the key phrases of each (noun chunks,
 * lemmatised), whether a sentence asks for a change (imperative or modal), and which way a change
 * goes for the phrase it acts on (add/keep/increase X is 'up', remove/drop/reduce X is 'down').
 */

export type Direction = 'up' | 'down';
export type ActionStrength = 'strong' | 'weak';

export interface AnalysedSentence {
  index: number;
  /** Cleaned text, as written. */
  text: string;
  /** Key phrases (lemmas, lowercase, 1-3 words), in order of first appearance, no repeats. */
  phrases: string[];
  action: ActionStrength | null;
  question: boolean;
  sentiment: number;
  /** For the phrase a change verb acts on: which way the change goes. */
  directions: Map<string, Direction>;
  /** Content lemmas, to tell near-duplicate sentences apart. */
  lemmas: Set<string>;
  /**
   * Those lemmas by their stem, without the title's words: what themes compare, so that a lemma's
   * other forms ('escalate', 'escalation'; 'runbooks', which the lemmatiser does not know) are one
   * word. Lemma → its stem.
   */
  stems: Map<string, string>;
  /** Says one of the words of the component's title. */
  mentionsTitle: boolean;
  words: number;
}

export interface TextAnalysis {
  /** Without the sentences that address the AI or carry script. */
  sentences: AnalysedSentence[];
  /** Every key phrase of the text, in order of first appearance. */
  phrases: string[];
  /** Mean sentence sentiment, -1..1. */
  sentiment: number;
  /** How many sentences were set aside as prompt injection or script. */
  injections: number;
}

/** Never part of a key phrase: filler and words that say nothing about the architecture. */
const BREAK_WORDS = new Set([
  ...wordsOf(FUNCTION_WORDS.indefinitePersons, FUNCTION_WORDS.indefiniteThings, FUNCTION_WORDS.interjections, TIME_WORDS.relativeDays),
  ...[
    'thing', 'things', 'stuff', 'way', 'lot', 'lots', 'idea', 'point', 'comment', 'component', 'box', 'bit', 'kind', 'sort',
    'example', 'question', 'people', 'person', 'others', 'other', 'member', 'reviewer', 'opinion', 'thought', 'note', 'sense',
    'fact', 'reason', 'work', 'job', 'etc', 'moment', 'matter', 'regard', 'respect', 'agree', 'disagree', 'plus', 'minus',
    'e.g.', 'i.e.', 'vs',
  ],
]);

/** Adjectives that judge rather than name: 'great work', 'better view', 'separate lookup'. */
const EVALUATIVE = new Set([
  ...wordsOf(FUNCTION_WORDS.quantityWords, FUNCTION_WORDS.focusAdverbs, FUNCTION_WORDS.connectiveAdverbs, FUNCTION_WORDS.ordinals),
  ...[
    'good', 'great', 'nice', 'bad', 'excellent', 'awesome', 'amazing', 'cool', 'well', 'worse', 'clear', 'various', 'certain',
    'same', 'whole', 'entire', 'real', 'simple', 'easy', 'hard', 'important', 'useful', 'helpful', 'current', 'general',
    'proper', 'right', 'wrong', 'big', 'small', 'long', 'short', 'quick', 'fast', 'slow', 'new', 'old', 'additional', 'extra',
    'separate', 'own', 'possible', 'potential', 'necessary', 'optional', 'obvious', 'readable', 'visible', 'silent', 'silently',
    'far', 'actual', 'specific', 'nicer', 'fine', 'perfect', 'solid', 'confusing', 'unclear', 'weird', 'strange', 'tricky',
    'difficult', 'risky', 'safe', 'unsafe', 'different', 'cheap', 'cheaper', 'expensive',
  ],
]);

/** Fine inside a longer phrase, too vague on their own. */
const WEAK_SINGLE = new Set([
  ...wordsOf(...Object.values(TIME_WORDS)),
  ...[
    'step', 'process', 'system', 'option',
    'level', 'issue', 'problem', 'change', 'data', 'flow', 'layer', 'detail', 'user', 'case', 'place', 'area', 'number',
    'result', 'stage', 'part', 'side', 'version', 'approach', 'solution', 'design', 'architecture', 'diagram', 'page',
    'screen', 'section', 'text', 'list', 'view', 'information', 'info', 'use', 'need', 'value', 'set', 'end', 'start',
    'top', 'bottom', 'name', 'team', 'tool', 'feature', 'function', 'service', 'agent', 'model', 'status', 'state', 'task',
    'output', 'input', 'script', 'instruction', 'click', 'link', 'image', 'button', 'field', 'answer', 'score',
    // Every comment of an incident-management review says these.
    'incident', 'ticket', 'event', 'alert', 'request', 'priority', 'automation', 'triage', 'queue',
    // ...and of a review of an AI platform: themes named 'AI', 'Plan' or 'Role' tell a reader nothing.
    'ai', 'plan', 'review', 'role', 'rule', 'type', 'account', 'summary', 'loop', 'graph',
  ],
]);

/** A word that names no theme on its own ('need', 'time', 'great'): fine inside a longer label only. */
export function isVagueAlone(word: string): boolean {
  return WEAK_SINGLE.has(word) || EVALUATIVE.has(word) || BREAK_WORDS.has(word);
}

/** Pronouns a tagger may take for a noun when written with their verb ("I'm", "we're", "that's"). */
const OTHER_CONTRACTING = ['it', 'that', 'there'];
const CONTRACTING = new Set([...FUNCTION_WORDS.subjectPronouns.words, ...OTHER_CONTRACTING]);

function isPronounContraction(word: string): boolean {
  const apostrophe = word.search(/['’]/);
  return apostrophe > 0 && CONTRACTING.has(word.slice(0, apostrophe));
}

const CHUNK_POS = new Set(['ADJ', 'NOUN', 'PROPN']);
const HEAD_POS = new Set(['NOUN', 'PROPN']);

/** Base-form verbs that open statements of opinion, not requests ('Agree with Ben', 'Love the flow'). */
const NOT_IMPERATIVE = new Set([
  'agree', 'disagree', 'love', 'like', 'think', 'hope', 'wonder', 'feel', 'believe', 'know', 'guess', 'thank', 'see',
  'seem', 'look', 'sound', 'appreciate', 'enjoy', 'hate', 'mean', 'be', 'have', 'do', 'get', 'go', 'say', 'ignore',
  'disregard', 'forget', 'understand', 'doubt', 'prefer', 'worry', 'wish', 'come', 'happen', 'read', 'output', 'print',
]);

/** Words skipped when looking for a sentence's first verb. */
const OPENERS = wordsOf(FUNCTION_WORDS.connectiveAdverbs, FUNCTION_WORDS.focusAdverbs, FUNCTION_WORDS.coordinators, FUNCTION_WORDS.interjections, FUNCTION_WORDS.ordinals);

const UP_WORDS = new Set([
  'add', 'keep', 'increase', 'extend', 'lengthen', 'raise', 'expand', 'enlarge', 'introduce', 'retain', 'enable', 'include',
  'strengthen', 'maintain', 'preserve', 'show', 'display', 'expose', 'more', 'double', 'restore', 'reintroduce',
]);
const DOWN_WORDS = new Set([
  'remove', 'drop', 'reduce', 'decrease', 'shorten', 'lower', 'delete', 'eliminate', 'disable', 'exclude', 'cut', 'hide',
  'skip', 'abolish', 'retire', 'deprecate', 'scrap', 'ditch', 'less', 'fewer', 'halve', 'bypass', 'kill',
]);
/** Comparative words that give a direction wherever they stand; the verbs only where a verb can stand. */
const DIRECTION_ANY_POS = new Set(['more', 'less', 'fewer']);
/** Marks that end a clause where a new one, perhaps a request, may start. */
const CLAUSE_MARKS = [';', ':', '-', '–', '—'];
/**
 * Verbs an imperative sentence starts with, even where the tagger calls a sentence-initial verb a
 * noun: the change verbs above, the light verbs, and these.
 */
const IMPERATIVE_VERBS = new Set([
  ...[...UP_WORDS, ...DOWN_WORDS].filter((word) => !DIRECTION_ANY_POS.has(word)),
  ...FUNCTION_WORDS.lightVerbs.words,
  ...[
    'split', 'clarify', 'merge', 'move', 'rename', 'replace', 'define', 'specify', 'change', 'update', 'combine', 'separate',
    'document', 'highlight', 'log', 'limit', 'allow', 'let', 'avoid', 'ensure', 'provide', 'label', 'link', 'mark', 'group',
    'route', 'escalate', 'notify', 'cap', 'configure', 'automate', 'require', 'restrict', 'track', 'record', 'explain',
    'describe', 'list', 'surface', 'integrate', 'connect', 'reorder', 'restructure', 'redesign', 'modify', 'improve', 'enhance',
    'simplify', 'consolidate', 'standardise', 'standardize', 'validate', 'verify', 'check', 'test', 'monitor', 'measure',
    'store', 'send', 'trigger', 'block', 'pause', 'stop', 'give', 'attach', 'annotate', 'prioritise', 'prioritize', 'rank',
    'sort', 'filter', 'collapse', 'adjust', 'tune', 'align', 'map', 'assign', 'reassign', 'delegate', 'consider', 'try',
    'rethink', 'revisit', 'reconsider', 'bring', 'turn', 'write', 'draw', 'insert', 'append', 'delay', 'postpone', 'apply',
    'capture', 'feed', 'emit', 'parse', 'pin', 'publish', 'tag', 'page', 'alert', 'hand', 'fail', 'open', 'close', 'wait',
    'hold', 'refuse', 'reject', 'treat', 'count', 'fold', 'suppress', 'correlate', 'retry', 'archive',
  ],
]);
/** What a change verb follows where it stands as a verb ('we should drop', 'and drop', 'not drop'). */
const MODAL_BEFORE = new Set([...wordsOf(FUNCTION_WORDS.modals, FUNCTION_WORDS.negations, FUNCTION_WORDS.coordinators), ...CLAUSE_MARKS, 'to', 'please', 'we']);

const STRONG_MODAL =
  /\b(?:should|shouldn'?t|must|mustn'?t|needs? to|needs? (?!(?:no|some|any|every)thing\b)\w+ing|needs? (?:its|their) own|can never be|has to|have to|ought to|shall|we (?:also |really |still )?need\b|(?:it is|it's) (?:essential|necessary|important|crucial) to|(?:i|we) (?:would |'d )?(?:strongly )?(?:suggest|propose|recommend|request)|(?:my|our) (?:suggestion|proposal|recommendation)|let'?s|let us)\b/;
const QUESTION_PROPOSAL =
  /(?:^|[:;]\s+)(?:(?:so|and|but|also|then)\s+)?(?:could|can|should|shall|would|will|might)\s+(?!(?:anyone|anybody|somebody|someone) (?:explain|tell|confirm|remind|share|say)\b)\S+\s+\S+|\bwhy not\b|\bhow about\b|\bwhat about\b|\bwouldn'?t it be\b|\bshouldn'?t (?:we|it|the|this|there)\b/;

export interface PhraseLabels {
  /** A readable label of a phrase: its most used surface form, capitalised acronyms kept. */
  label(phrase: string): string;
}

/** A text's analysis and the surface forms its phrases were noted with, in order. */
interface CachedAnalysis {
  analysis: TextAnalysis;
  notes: Array<[phrase: string, surface: string]>;
}

/**
 * Analyses of texts kept across analysis runs, least recently used out first. Every new comment
 * makes its component's summary again from all its comments, and reading a text is most of the
 * cost: with this, the texts read before cost a lookup. An analysis depends only on its text and
 * the component title's words, and callers never change one, so a cached one is shared as is.
 */
export class AnalysisCache {
  private readonly entries = new Map<string, CachedAnalysis>();
  /** The length of every key kept: an analysis grows with its text, so count alone bounds no memory. */
  private chars = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxChars: number = Number.POSITIVE_INFINITY,
  ) {}

  get(key: string): CachedAnalysis | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: CachedAnalysis): void {
    if (!this.entries.has(key)) this.chars += key.length;
    this.entries.set(key, entry);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.chars <= this.maxChars) break;
      this.entries.delete(oldest);
      this.chars -= oldest.length;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Reads texts for one analysis run; collects how each phrase was written for its label. */
export class Analyzer implements PhraseLabels {
  private readonly surfaces = new Map<string, Map<string, number>>();
  private readonly titleCache = new Map<string, Set<string>>();
  /** The surface forms noted while one text is analysed, for the cache. */
  private notes: Array<[string, string]> | undefined;

  /**
   * The word models with the reader's Porter2 stemmer, one function, so that what is read through it
   * can be cached by it (word-model.ts).
   */
  readonly words: WordReading;

  /** `models`: the word models to read chatter and steering with; those trained on every labelled set unless given. */
  constructor(
    private readonly reader: Reader,
    private readonly cache?: AnalysisCache,
    models: WordModels = wordModels,
  ) {
    this.words = { stem: reader.stem, ...models };
  }

  /** The lemmas and words of a component title: phrases made only of them say nothing new. */
  titleWords(title: string): Set<string> {
    let words = this.titleCache.get(title);
    if (words === undefined) {
      words = new Set();
      for (const token of this.reader.read(cleanText(title)).tokens) {
        if (token.type !== 'word' || token.stop) continue;
        words.add(token.lemma);
        words.add(token.normal);
      }
      this.titleCache.set(title, words);
    }
    return words;
  }

  label(phrase: string): string {
    const forms = this.surfaces.get(phrase);
    let best = phrase;
    let bestCount = 0;
    if (forms !== undefined) {
      for (const [form, count] of forms) {
        if (count > bestCount || (count === bestCount && compareText(form, best) < 0)) {
          best = form;
          bestCount = count;
        }
      }
    }
    return best.charAt(0).toUpperCase() + best.slice(1);
  }

  analyse(raw: string, titleWords: ReadonlySet<string>): TextAnalysis {
    if (this.cache === undefined) return this.analyseText(raw, titleWords);
    const key = `${[...titleWords].join(' ')}\u0000${raw}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      for (const [phrase, surface] of cached.notes) this.count(phrase, surface);
      return cached.analysis;
    }
    const notes: Array<[string, string]> = [];
    this.notes = notes;
    try {
      const analysis = this.analyseText(raw, titleWords);
      this.cache.set(key, { analysis, notes });
      return analysis;
    } finally {
      this.notes = undefined;
    }
  }

  private analyseText(raw: string, titleWords: ReadonlySet<string>): TextAnalysis {
    const text = cleanText(raw);
    if (text === '') return { sentences: [], phrases: [], sentiment: 0, injections: 0 };
    const read = this.reader.read(text);
    const sentences: AnalysedSentence[] = [];
    const phrases = new Set<string>();
    let injections = 0;
    let sentimentSum = 0;
    for (const sentence of read.sentences) {
      const sentenceText = sentence.text.replace(/\s+/g, ' ').trim();
      if (sentenceText === '') continue;
      if (isInjection(sentenceText)) {
        injections += 1;
        continue;
      }
      const analysed = this.analyseSentence(read.tokens, sentence.start, sentence.end, sentenceText, titleWords);
      analysed.index = sentences.length;
      analysed.sentiment = sentence.sentiment;
      sentimentSum += sentence.sentiment;
      sentences.push(analysed);
      for (const phrase of analysed.phrases) phrases.add(phrase);
    }
    return { sentences, phrases: [...phrases], sentiment: sentences.length === 0 ? 0 : sentimentSum / sentences.length, injections };
  }

  private analyseSentence(tokens: readonly ReadToken[], start: number, end: number, text: string, titleWords: ReadonlySet<string>): AnalysedSentence {
    const phrases: string[] = [];
    const seen = new Set<string>();
    const directions = new Map<string, Direction>();
    const lemmas = new Set<string>();
    const stems = new Map<string, string>();
    let mentionsTitle = false;
    let words = 0;

    let first = -1;
    for (let i = start; i <= end; i += 1) {
      const token = tokens[i];
      if (token === undefined || token.type !== 'word') continue;
      if (OPENERS.has(token.normal) || token.pos === 'INTJ') continue;
      first = i;
      break;
    }
    const firstToken = first >= 0 ? tokens[first] : undefined;
    const imperativeFirst = first >= 0 && isImperativeAt(tokens, first, end);

    let run: number[] = [];
    let pending: Direction | null = null;
    const flush = (): void => {
      let last = run.length - 1;
      while (last >= 0 && !HEAD_POS.has(tokens[run[last] ?? -1]?.pos ?? '')) last -= 1;
      const chunk = run.slice(Math.max(0, last - 2), last + 1).flatMap((i) => {
        const token = tokens[i];
        return token === undefined ? [] : [token];
      });
      run = [];
      if (chunk.length === 0) return;
      for (let a = 0; a < chunk.length; a += 1) {
        for (let b = a; b < chunk.length; b += 1) {
          const head = chunk[b];
          if (head === undefined || !HEAD_POS.has(head.pos)) continue;
          const part = chunk.slice(a, b + 1);
          if (part.every((token) => titleWords.has(token.lemma) || titleWords.has(token.normal))) continue;
          // A lone word only as the chunk's head: 'approval' of 'approval gate timeout' is no topic of its own.
          if (part.length === 1 && (WEAK_SINGLE.has(head.lemma) || b !== chunk.length - 1)) continue;
          const phrase = part.map((token) => token.lemma).join(' ');
          this.note(phrase, part);
          if (pending !== null) directions.set(phrase, pending);
          if (!seen.has(phrase)) {
            seen.add(phrase);
            phrases.push(phrase);
          }
        }
      }
      pending = null;
    };

    for (let i = start; i <= end; i += 1) {
      const token = tokens[i];
      if (token === undefined) continue;
      if (token.type === 'word') {
        words += 1;
        if (!token.stop && token.lemma.length >= 3) {
          lemmas.add(token.lemma);
          const stem = titleWords.has(token.lemma) || !/\p{L}/u.test(token.lemma) ? undefined : this.reader.stem(token.lemma);
          if (stem !== undefined && !titleWords.has(stem)) stems.set(token.lemma, stem);
        }
        if (titleWords.has(token.lemma) || titleWords.has(token.normal)) mentionsTitle = true;
      }
      const direction = this.directionOf(tokens, i, first);
      if (direction !== null) {
        flush();
        pending = direction;
        continue;
      }
      const eligible =
        token.type === 'word' &&
        !(i === first && imperativeFirst) &&
        CHUNK_POS.has(token.pos) &&
        !token.stop &&
        token.lemma.length >= 2 &&
        /\p{L}/u.test(token.lemma) &&
        !BREAK_WORDS.has(token.lemma) &&
        !BREAK_WORDS.has(token.normal) &&
        !EVALUATIVE.has(token.lemma) &&
        !EVALUATIVE.has(token.normal) &&
        // "I'm", "we're": a pronoun the tagger took for a noun.
        !isPronounContraction(token.normal) &&
        // A word read with its full stop as an abbreviation ('6 minutes in. Customer updates'): the
        // sentence ends there, and no phrase runs across it.
        !token.normal.endsWith('.');
      if (eligible) run.push(i);
      else flush();
    }
    flush();

    const question = /\?["')\]]?$/.test(text);
    return {
      index: 0,
      text,
      phrases,
      action: actionOf(text, question, firstToken !== undefined && imperativeFirst) ?? (question ? null : clauseImperative(tokens, first + 1, end, OPENING_FILLER.replyOpeners.pattern.test(text))),
      question,
      sentiment: 0,
      directions,
      lemmas,
      stems,
      mentionsTitle,
      words,
    };
  }

  private directionOf(tokens: readonly ReadToken[], i: number, first: number): Direction | null {
    const token = tokens[i];
    if (token === undefined || token.type !== 'word') return null;
    const up = UP_WORDS.has(token.lemma);
    if (!up && !DOWN_WORDS.has(token.lemma)) return null;
    const previous = tokens[i - 1];
    const verbPosition =
      DIRECTION_ANY_POS.has(token.lemma) || token.pos === 'VERB' || i === first || (previous !== undefined && MODAL_BEFORE.has(previous.normal));
    if (!verbPosition) return null;
    const negated = token.negated || (previous !== undefined && (previous.normal === 'not' || previous.normal === "n't" || previous.normal === 'never'));
    return up !== negated ? 'up' : 'down';
  }

  private note(phrase: string, tokens: readonly ReadToken[]): void {
    const surface = tokens.map((token) => (isAcronym(token.value) ? token.value : token.normal)).join(' ');
    this.notes?.push([phrase, surface]);
    this.count(phrase, surface);
  }

  private count(phrase: string, surface: string): void {
    let forms = this.surfaces.get(phrase);
    if (forms === undefined) {
      forms = new Map();
      this.surfaces.set(phrase, forms);
    }
    forms.set(surface, (forms.get(surface) ?? 0) + 1);
  }
}

function isAcronym(value: string): boolean {
  return /[A-Z]/.test(value.slice(1)) && /^[\p{L}\p{N}&-]+$/u.test(value);
}

function actionOf(text: string, question: boolean, imperative: boolean): ActionStrength | null {
  const lower = text.toLowerCase().replace(/[’‘]/g, "'");
  const words = lower.match(/[\p{L}\p{N}']+/gu)?.length ?? 0;
  if (words < 3) return null;
  if (question) return QUESTION_PROPOSAL.test(lower) ? 'weak' : null;
  if (STRONG_MODAL.test(lower) || imperative) return 'strong';
  if (REQUEST_FORMS.askedSoftly.pattern.test(lower)) return 'weak';
  return null;
}

/**
 * Whether the word at `i` opens an imperative: a base-form verb that is not an opinion ('Agree',
 * 'Love'), or a known request verb the tagger took for a noun ('Split the step') unless a verb
 * follows it closely ('Group alerts are noisy', 'Log retention is short').
 */
function isImperativeAt(tokens: readonly ReadToken[], i: number, end: number): boolean {
  const token = tokens[i];
  if (token === undefined || token.type !== 'word') return false;
  if (NOT_IMPERATIVE.has(token.lemma) || NOT_IMPERATIVE.has(token.normal)) return false;
  if (token.pos === 'VERB' && token.normal === token.lemma) return true;
  if (!IMPERATIVE_VERBS.has(token.normal)) return false;
  for (let j = i + 1; j <= Math.min(end, i + 3); j += 1) {
    const next = tokens[j];
    if (next === undefined || next.pos === 'DET' || next.pos === 'ADP' || next.pos === 'PRON' || next.pos === 'PUNCT') break;
    if (next.pos === 'AUX' || next.pos === 'VERB') return false;
  }
  return true;
}

/**
 * A request after a clause break: '..., but limit them to three', '...; add a fallback', '+1 Rahul,
 * and put the diff in the request', 'we're on v2, pls pin it'; after the condition of a sentence
 * that opens with one ('When a window suppresses an event, capture its id'); and after the comma of
 * a reply's opening ('Agree with Rahul, keep the raw payload').
 */
const CLAUSE_BREAKS = new Set([...CLAUSE_MARKS, 'but', 'then', 'so', ...wordsOf(FUNCTION_WORDS.interjections)]);
/** What opens a condition before the main clause: a subordinator, or 'for' ('For P1s, page the lead'). */
const CONDITIONS = wordsOf(FUNCTION_WORDS.subordinators).add('for');

function clauseImperative(tokens: readonly ReadToken[], from: number, end: number, opensAsReply: boolean): ActionStrength | null {
  const conditional = opensAsReply || CONDITIONS.has(tokens[Math.max(from - 1, 0)]?.normal ?? '');
  for (let i = Math.max(from, 1); i <= end; i += 1) {
    const token = tokens[i];
    const previous = tokens[i - 1];
    if (token === undefined || previous === undefined) continue;
    const afterComma = previous.normal === ',' && conditional;
    const afterCommaAnd = previous.normal === 'and' && tokens[i - 2]?.normal === ',';
    if (!CLAUSE_BREAKS.has(previous.normal) && !afterComma && !afterCommaAnd) continue;
    if (IMPERATIVE_VERBS.has(token.normal) && token.normal === token.lemma && isImperativeAt(tokens, i, end)) {
      const after = tokens[i + 1];
      if (after !== undefined && after.type === 'word') return 'strong';
    }
  }
  return null;
}

/** Share of the smaller set's content words the two sentences have in common. */
export function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const word of small) if (large.has(word)) shared += 1;
  return shared / small.size;
}

/** A comment's sentences that ask for a change; a proposal's first statement when none is phrased as one. */
export function actionSentencesOf(comment: CommentForAnalysis, analysis: TextAnalysis): Array<{ sentence: AnalysedSentence; strength: ActionStrength }> {
  const actions = analysis.sentences.flatMap((sentence) => (sentence.action === null ? [] : [{ sentence, strength: sentence.action }]));
  if (actions.length === 0 && comment.kind === 'proposal') {
    const statement = analysis.sentences.find((sentence) => !sentence.question && sentence.words >= 4);
    if (statement !== undefined) return [{ sentence: statement, strength: 'weak' }];
  }
  return actions;
}

/** Indexes of the comments of each component, in the order given. */
export function indexesByComponent(comments: readonly CommentForAnalysis[]): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  comments.forEach((comment, i) => {
    const list = groups.get(comment.componentId);
    if (list === undefined) groups.set(comment.componentId, [i]);
    else list.push(i);
  });
  return groups;
}

/** Sorted by id, each id once: the analysis never depends on the order it is given. */
export function uniqueById<T extends { id: number }>(items: readonly T[]): T[] {
  const seen = new Set<number>();
  return [...items]
    .sort((a, b) => a.id - b.id)
    .filter((item) => {
      if (seen.has(item.id)) return false;
      seen.add(item.id);
      return true;
    });
}

