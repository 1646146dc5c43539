import { addressedWords, ANSWERS_THE_LAST } from './answers.js';
import { isVagueAlone, type PhraseLabels, type TextAnalysis } from './analysis.js';
import { DEGREE_WORDS, FUNCTION_WORDS as F, wordsOf } from './rules.js';
import { mostSharedRun, namesIn, WORD, wordCount, writtenAsName } from './runs.js';
import { compareText, lowerFirst } from './text.js';

/**
 * The themes of one component's discussion, by what the comments are about rather than by one word
 * they happen to share. Each comment is a vector of its content words and key phrases, weighted by
 * how rare they are in the discussion (tf-idf, title words left out); comments are merged into
 * clusters while their average similarity stays above a threshold (average linkage), so a cluster
 * is held together by several words at once and 'maintenance window' does not join 'damping
 * window'; a word two comments use only as the head of different compounds ('error budget',
 * 'storage budget') links them far less than a compound they share. A cluster is named by the longest run of words several of its comments write ('flap
 * damping window'), else by its most shared key phrase.
 */

/** What is clustered: a comment, or a suggestion with the votes behind it. */
export interface ThemeItem {
  content: string;
  upVotes: number;
  downVotes: number;
  /** Its author's name, when it has one: names never make a theme's label. */
  memberName: string;
  /** When it was written, when known: a reply by name answers the author's latest comment before it. */
  createdAt?: number;
}

export interface Theme {
  label: string;
  /** Indexes into the comments given, ascending. */
  members: number[];
}

export interface ThemeOptions {
  maxThemes: number;
  minSize: number;
  /**
   * Groups of comments (indexes) known to be about one question, such as the two sides of a
   * disagreement and its middle way: each starts as one cluster, which others may still join.
   * Opposing comments share fewer words than agreeing ones, yet their question is one theme.
   */
  together?: readonly (readonly number[])[];
}

/** Two comments whose average similarity is under this are about different things. */
const MERGE_THRESHOLD = 0.2;
/** The most comments of one component clustered: the most voted, the newest among equals. */
const MAX_COMMENTS = 150;
/** The fewest weighted terms a text needs to join a cluster. */
const MIN_TERMS = 2;
/**
 * A term's weight is log(IDF_OFFSET + m / df) for m comments, df of them using it: a word many
 * comments of the discussion write ('alert', 'incident', 'model' in a review of an alerting
 * pipeline) is its common ground, not a topic within it. Under 1, such a word weighs less beside a
 * rarer one (in twenty comments, a word half of them write weighs 0.39 of one two of them write;
 * 0.46 with 1). In a discussion of one or two comments, what they share is all that links them,
 * and the offset is 1.
 */
const IDF_OFFSET = 0.5;
/** A key phrase of several words says more than one of its words. */
const PHRASE_WEIGHT = 1.5;

/**
 * A comment that answers a teammate by name ('+1 Lukas', 'Agree with Priyanka') is about the same
 * question as that teammate's latest comment before it: in a flat list of comments, naming the
 * person answered is how a reply is written, and the reply often shares few words with what it
 * answers ('2 per 24h is fine, after that it goes to a human'). Like the sides of a disagreement,
 * the two start as one question; others may still join them.
 */
const REPLY_SIMILARITY = 1;

/**
 * A comment as similar as this to another one is on the thread. A comment that opens by answering
 * (answers.ts) and names nobody is linked to the comment just before it, as a reply by name is, only
 * when that one is on the thread: an aside no rule caught must not be pulled into a theme by a reply.
 */
const ON_THE_THREAD = 0.1;

/**
 * Two comments that share one weighted term only (an 'hour', a 'draft') are linked at this share of
 * their similarity: as for a text with one term (MIN_TERMS), one word is too little to say two
 * comments are about the same thing. With other comments that share more, they may still meet.
 */
const ONE_TERM_LINK = 0.6;

/** Two themes merged at an average similarity under this may be shown apart when there is room. */
const SPLIT_BELOW = 0.3;

/** A cluster in the merge tree: its members (indexes into the clustered texts) and the two parts it was merged from. */
interface Node {
  members: number[];
  /** The average similarity at which its parts were merged. */
  similarity: number;
  /** Merged because its comments ask one question (ThemeOptions.together): never shown apart. */
  together: boolean;
  parts?: [Node, Node];
}

type Vector = ReadonlyMap<string, number>;
const EMPTY: Vector = new Map<string, number>();
const NO_USAGE: Usage = { heads: new Map() };

function norm(vector: Vector): number {
  let sum = 0;
  for (const value of vector.values()) sum += value * value;
  return Math.sqrt(sum);
}

/**
 * A word two comments use only as the head of different compounds ('error budget', 'storage
 * budget'; 'retention policy', 'escalation policy') links them at this share of its weight: the
 * head is the generic part of a compound, and the modifier says which one is meant.
 */
const OTHER_COMPOUND_LINK = 0.2;

/** How a comment uses its words, beyond their weights: what tells a shared word from a shared topic. */
interface Usage {
  /** Stems the comment uses only as the head of compounds, with the words (stemmed) that modify them there. */
  heads: ReadonlyMap<string, ReadonlySet<string>>;
}

/** The share of a shared term's weight that links comments a and b. */
function linkOf(term: string, a: Usage, b: Usage): number {
  const modifiersA = a.heads.get(term);
  const modifiersB = b.heads.get(term);
  if (modifiersA !== undefined && modifiersB !== undefined && ![...modifiersA].some((modifier) => modifiersB.has(modifier))) return OTHER_COMPOUND_LINK;
  return 1;
}

/**
 * The cosine of two vectors, each shared term counted at its link (linkOf); at ONE_TERM_LINK of
 * it when they share one term only.
 */
function similarityOf(a: Vector, b: Vector, normA: number, normB: number, link: (term: string) => number): number {
  if (normA === 0 || normB === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  let shared = 0;
  for (const [term, value] of small) {
    const other = large.get(term);
    if (other === undefined) continue;
    dot += value * other * link(term);
    shared += 1;
  }
  return (dot / (normA * normB)) * (shared < 2 ? ONE_TERM_LINK : 1);
}

/**
 * The stems a text uses only as the head of key phrases of several words, each with the words
 * (stemmed) that modify it there. A word the text also writes without one of those modifiers just
 * before it ('the budget', 'the same ratio') is used on its own.
 */
function usageOf(analysis: TextAnalysis): Usage {
  const heads = new Map<string, Set<string>>();
  const alone = new Set<string>();
  for (const sentence of analysis.sentences) {
    // Each head's modifiers here: stem → lemma.
    const modifiers = new Map<string, Map<string, string>>();
    for (const phrase of sentence.phrases) {
      const words = phrase.split(' ');
      const head = sentence.stems.get(words[words.length - 1] ?? '');
      if (words.length < 2 || head === undefined) continue;
      const map = modifiers.get(head) ?? new Map<string, string>();
      for (const word of words.slice(0, -1)) map.set(sentence.stems.get(word) ?? word, word);
      modifiers.set(head, map);
    }
    const written = sentence.text.toLowerCase().match(WORD) ?? [];
    for (const [lemma, stem] of sentence.stems) {
      const before = modifiers.get(stem);
      const root = rootOf(lemma, stem);
      const bare =
        before === undefined ||
        written.some((word, i) => word.startsWith(root) && ![...before].some(([modifier, form]) => (written[i - 1] ?? '').startsWith(rootOf(form, modifier))));
      if (bare) alone.add(stem);
      else {
        const set = heads.get(stem) ?? new Set<string>();
        for (const modifier of before.keys()) set.add(modifier);
        heads.set(stem, set);
      }
    }
  }
  for (const stem of alone) heads.delete(stem);
  return { heads };
}

/** What every written form of a word starts with: its lemma and stem in common ('polic' of 'policy', 'polici'). */
function rootOf(lemma: string, stem: string): string {
  let length = 0;
  while (length < lemma.length && lemma[length] === stem[length]) length += 1;
  return length >= 3 ? lemma.slice(0, length) : lemma;
}

/**
 * Each comment's terms: content words (stemmed) and multi-word key phrases, without the title's
 * words. Nor the authors' names: two comments that name the same teammate ('so it isn't always
 * Kwame getting rung', 'if Kwame still organises the 10k') need not be about one thing.
 */
function termsOf(analysis: TextAnalysis, names: ReadonlySet<string>): Map<string, number> {
  const terms = new Map<string, number>();
  for (const sentence of analysis.sentences) {
    for (const [lemma, stem] of sentence.stems) if (!names.has(lemma)) terms.set(stem, (terms.get(stem) ?? 0) + 1);
  }
  for (const phrase of analysis.phrases) if (phrase.includes(' ')) terms.set(`"${phrase}"`, (terms.get(`"${phrase}"`) ?? 0) + PHRASE_WEIGHT);
  return terms;
}

function mostVoted(comments: readonly ThemeItem[]): number[] {
  const all = comments.map((_comment, i) => i);
  if (comments.length <= MAX_COMMENTS) return all;
  const votes = (i: number) => (comments[i]?.upVotes ?? 0) + (comments[i]?.downVotes ?? 0);
  return all
    .sort((a, b) => votes(b) - votes(a) || b - a)
    .slice(0, MAX_COMMENTS)
    .sort((a, b) => a - b);
}

export function themesOf(
  labels: PhraseLabels,
  comments: readonly ThemeItem[],
  analyses: readonly TextAnalysis[],
  titleWords: ReadonlySet<string>,
  options: ThemeOptions,
): Theme[] {
  const kept = mostVoted(comments);
  const names = namesIn(comments.map((comment) => comment.memberName));
  const terms = kept.map((i) => {
    const analysis = analyses[i];
    return analysis === undefined ? new Map<string, number>() : termsOf(analysis, names);
  });
  const documents = new Map<string, number>();
  for (const list of terms) for (const term of list.keys()) documents.set(term, (documents.get(term) ?? 0) + 1);
  const m = kept.length;
  // A term only one comment uses links nothing; one in most comments says nothing about any. In a
  // discussion of one or two comments every term counts.
  const vectors: Vector[] = terms.map((list) => {
    const vector = new Map<string, number>();
    for (const [term, count] of list) {
      const df = documents.get(term) ?? 1;
      if ((m >= 3 && df < 2) || (m >= 6 && df > m * 0.5)) continue;
      vector.set(term, count * Math.log((m >= 3 ? IDF_OFFSET : 1) + m / df));
    }
    return vector;
  });
  const norms = vectors.map(norm);
  const usages = kept.map((i) => {
    const analysis = analyses[i];
    return analysis === undefined ? { heads: new Map<string, Set<string>>() } : usageOf(analysis);
  });
  // One shared word is too little to tell what a text is about: such a text stays alone.
  const weak = vectors.map((vector) => vector.size < MIN_TERMS);

  // Average linkage over a similarity matrix; clusters merge while their best pair stays above the threshold.
  const similarity = new Float64Array(m * m);
  for (let a = 0; a < m; a += 1) {
    for (let b = a + 1; b < m; b += 1) {
      const value = weak[a] === true || weak[b] === true ? 0 : similarityOf(vectors[a] ?? EMPTY, vectors[b] ?? EMPTY, norms[a] ?? 0, norms[b] ?? 0, (term) => linkOf(term, usages[a] ?? NO_USAGE, usages[b] ?? NO_USAGE));
      similarity[a * m + b] = value;
      similarity[b * m + a] = value;
    }
  }
  // The name or the opening is the evidence here, not the words: a short reply is linked even when it is 'weak'.
  const onTheThread = (k: number, apart: number) => {
    for (let j = 0; j < m; j += 1) if (j !== k && j !== apart && (similarity[k * m + j] ?? 0) >= ON_THE_THREAD) return true;
    return false;
  };
  for (const [a, b] of replies(comments, kept, onTheThread)) {
    const value = Math.max(similarity[a * m + b] ?? 0, REPLY_SIMILARITY);
    similarity[a * m + b] = value;
    similarity[b * m + a] = value;
  }
  // Each cluster is a node of the merge tree: where it was joined, and how similar its parts were.
  const clusters: Array<Node | undefined> = kept.map((_i, k) => ({ members: [k], similarity: 1, together: false }));
  /** Merges cluster b into a; Lance–Williams for average linkage gives the merged cluster's similarity to every other one. */
  const merge = (a: number, b: number, joined: number, together: boolean) => {
    const left = clusters[a];
    const right = clusters[b];
    if (left === undefined || right === undefined) return;
    for (let k = 0; k < m; k += 1) {
      if (k === a || k === b || clusters[k] === undefined) continue;
      const value = ((similarity[a * m + k] ?? 0) * left.members.length + (similarity[b * m + k] ?? 0) * right.members.length) / (left.members.length + right.members.length);
      similarity[a * m + k] = value;
      similarity[k * m + a] = value;
    }
    clusters[a] = { members: [...left.members, ...right.members], similarity: joined, together, parts: [left, right] };
    clusters[b] = undefined;
  };
  const position = new Map(kept.map((i, k) => [i, k]));
  const clusterOf = (k: number) => clusters.findIndex((cluster) => cluster?.members.includes(k) === true);
  for (const group of options.together ?? []) {
    const [first, ...rest] = group.flatMap((i) => {
      const k = position.get(i);
      return k === undefined ? [] : [k];
    });
    if (first === undefined) continue;
    for (const k of rest) {
      const a = clusterOf(first);
      const b = clusterOf(k);
      if (a >= 0 && b >= 0 && a !== b) merge(Math.min(a, b), Math.max(a, b), 1, true);
    }
  }
  for (;;) {
    let bestA = -1;
    let bestB = -1;
    let best = MERGE_THRESHOLD;
    for (let a = 0; a < m; a += 1) {
      if (clusters[a] === undefined) continue;
      for (let b = a + 1; b < m; b += 1) {
        if (clusters[b] === undefined) continue;
        const value = similarity[a * m + b] ?? 0;
        if (value > best) {
          best = value;
          bestA = a;
          bestB = b;
        }
      }
    }
    if (bestA < 0) break;
    merge(bestA, bestB, best, false);
  }

  // A comment with no words left (markup only) is no theme of its own.
  const shown = (node: Node) => node.members.length >= options.minSize && node.members.some((k) => (terms[k]?.size ?? 0) > 0);
  const roots = clusters.filter((node) => node !== undefined);
  // Room for more themes: the loosest merges of two groups of comments are undone, loosest first, while there is room.
  for (;;) {
    if (roots.filter(shown).length >= options.maxThemes) break;
    const loosest = roots
      .filter((node) => !node.together && node.similarity < SPLIT_BELOW && node.parts !== undefined && node.parts.every((part) => part.members.length >= 2 && shown(part)))
      .sort((a, b) => a.similarity - b.similarity)[0];
    if (loosest?.parts === undefined) break;
    roots.splice(roots.indexOf(loosest), 1, ...loosest.parts);
  }

  const support = (members: readonly number[]) => members.reduce((sum, i) => sum + Math.max(0, (comments[i]?.upVotes ?? 0) - (comments[i]?.downVotes ?? 0)) / 2, 0);
  // Weighed by the members who raised it and the votes behind it: one member's thirty comments are
  // one voice, and never outrank a point several teammates made or voted for.
  const authors = (members: readonly number[]) => new Set(members.map((i) => comments[i]?.memberName.trim().toLowerCase() ?? '')).size;
  const weight = (members: readonly number[]) => authors(members) + support(members);
  return roots
    .filter(shown)
    .map((node) => node.members.map((k) => kept[k] ?? 0).sort((a, b) => a - b))
    .sort((a, b) => weight(b) - weight(a) || b.length - a.length || (a[0] ?? 0) - (b[0] ?? 0))
    .slice(0, options.maxThemes)
    .map((members) => ({ label: unquoted(labelOf(labels, members, comments, analyses, weightsOf(members, kept, vectors), names, titleWords)), members }));
}

/**
 * Pairs (positions in `kept`) of a reply and what it answers: a comment that names another author
 * by first name, as written (a full name starts with it), and that author's latest comment before
 * it; else a comment that opens by answering the comment just before it, when `onTheThread` says
 * that one is (the reply left out). Only comments with a time and an author take part; a name of
 * two letters or fewer is too likely a word.
 */
function replies(comments: readonly ThemeItem[], kept: readonly number[], onTheThread: (k: number, apart: number) => boolean): Array<[number, number]> {
  const dated = kept.flatMap((i, k) => {
    const item = comments[i];
    return item?.createdAt === undefined || item.memberName === '' ? [] : [{ k, at: item.createdAt, author: item.memberName, content: item.content }];
  });
  // Oldest first: each author's latest comment so far is the one a later reply answers.
  dated.sort((a, b) => a.at - b.at || a.k - b.k);
  const latestBy = new Map<string, { k: number; at: number }>();
  const pairs: Array<[number, number]> = [];
  let last: { k: number; at: number } | undefined;
  for (const { k, at, author, content } of dated) {
    const words = addressedWords(content);
    const named = pairs.length;
    for (const [name, latest] of latestBy) {
      const first = name.split(/\s+/)[0] ?? '';
      if (name !== author && latest.at < at && first.length > 2 && words.has(first)) pairs.push([k, latest.k]);
    }
    if (pairs.length === named && last !== undefined && last.at < at && ANSWERS_THE_LAST.test(content) && onTheThread(last.k, k)) pairs.push([k, last.k]);
    latestBy.set(author, { k, at });
    last = { k, at };
  }
  return pairs;
}

/** The cluster's terms with their summed weights, and in how many of its comments each is. */
function weightsOf(members: readonly number[], kept: readonly number[], vectors: readonly Vector[]): Map<string, { weight: number; count: number }> {
  const position = new Map(kept.map((i, k) => [i, k]));
  const sums = new Map<string, { weight: number; count: number }>();
  for (const i of members) {
    for (const [term, weight] of vectors[position.get(i) ?? -1] ?? []) {
      const sum = sums.get(term) ?? { weight: 0, count: 0 };
      sums.set(term, { weight: sum.weight + weight, count: sum.count + 1 });
    }
  }
  return sums;
}

/**
 * The most specific name the cluster's comments give it: a run of words a third of them write; a
 * key phrase of several words two of them use; a run two of them write; the key phrase of several
 * words around its weightiest word (the rarest in the discussion that several of them use, not the
 * most common), the most used and longest; only then that word alone.
 */
function labelOf(
  labels: PhraseLabels,
  members: readonly number[],
  comments: readonly ThemeItem[],
  analyses: readonly TextAnalysis[],
  weights: ReadonlyMap<string, { weight: number; count: number }>,
  names: ReadonlySet<string>,
  titleWords: ReadonlySet<string>,
): string {
  const texts = members.map((i) => comments[i]?.content ?? '');
  // Without the key phrases the tagger made of a verb ('the intake form answers nothing').
  const misread = new Set(members.flatMap((i) => (analyses[i]?.phrases ?? []).filter((phrase) => readAsVerb(phrase, comments[i]?.content ?? ''))));
  if (misread.size > 0) {
    const readable = [...analyses];
    for (const i of members) {
      const analysis = analyses[i];
      if (analysis !== undefined) readable[i] = { ...analysis, phrases: analysis.phrases.filter((phrase) => !misread.has(phrase)) };
    }
    analyses = readable;
    weights = new Map([...weights].filter(([term]) => !(term.startsWith('"') && misread.has(term.slice(1, -1)))));
  }
  const keyPhrases = members.flatMap((i) => analyses[i]?.phrases ?? []).map((phrase) => phrase.split(' '));
  // The component's title is no theme of its own discussion; a run names one only as a noun phrase.
  const says = (run: string) => !run.split(' ').every((word) => titleWords.has(word)) && nounPhrase(run, keyPhrases);
  const run = mostSharedRun(texts, names, Math.max(2, Math.ceil(texts.length / 3)), says);
  if (run !== undefined) return capitalised(run);
  // Words are compared by their stem, and named by the lemma the cluster's comments write most.
  const written = new Map<string, Map<string, number>>();
  const stemOf = new Map<string, string>();
  for (const i of members) {
    for (const sentence of analyses[i]?.sentences ?? []) {
      for (const [lemma, stem] of sentence.stems) {
        stemOf.set(lemma, stem);
        const counts = written.get(stem) ?? new Map<string, number>();
        counts.set(lemma, (counts.get(lemma) ?? 0) + 1);
        written.set(stem, counts);
      }
    }
  }
  const lemmaOf = (stem: string) =>
    [...(written.get(stem) ?? [])].sort(([a, x], [b, y]) => y - x || compareText(a, b))[0]?.[0] ?? stem;
  const ranked = [...weights.entries()]
    .map(([term, weight]) => [term.startsWith('"') ? term : lemmaOf(term), weight] as const)
    .sort(([a, x], [b, y]) => y.weight - x.weight || compareText(a, b));
  const phrases = ranked.filter(([term]) => term.startsWith('"'));
  const shared = phrases.find(([phrase, { count }]) => count >= 2 && namesTopic(phrase.slice(1, -1)));
  if (shared !== undefined) return labels.label(shared[0].slice(1, -1));
  const pairRun = mostSharedRun(texts, names, 2, says);
  if (pairRun !== undefined) return capitalised(pairRun);
  // The weightiest word its comments use as a topic, the head of a key phrase (a noun, not 'let',
  // 'actually' or 'different'), named by the key phrase around it most of them use; a word that
  // says nothing alone ('need', 'time') only inside one.
  const phrasesOf = members.flatMap((i) => analyses[i]?.phrases ?? []);
  const topicWords = new Set(phrasesOf.map((phrase) => phrase.slice(phrase.lastIndexOf(' ') + 1)));
  const words = ranked.filter(([term]) => !term.startsWith('"') && topicWords.has(term));
  const [word] = words.find(([term]) => !isVagueAlone(term)) ?? words[0] ?? [];
  if (word !== undefined) {
    const around = new Map<string, number>();
    for (const phrase of phrasesOf) if (phrase.includes(' ') && phrase.split(' ').includes(word) && namesTopic(phrase)) around.set(phrase, (around.get(phrase) ?? 0) + 1);
    const [phrase] = mostUsed(around);
    if (phrase !== undefined) return labels.label(phrase);
  }
  // One word names a theme only when its comments write it as a name ('NetBox', 'CMDB', 'Sev1').
  // Else a cluster whose comments share no phrase, most often a reply by name and the point it
  // answers ('+1 Nadia, it makes the severity mapping auditable'), is named by the key phrase of
  // several words that weighs most in it ('Severity mapping'), not by the word they share ('Map').
  if (word !== undefined && phrasesOf.includes(word) && writtenAsName(word, texts)) return labels.label(word);
  const weightiest = weightiestPhrase(members, comments, analyses, weights, stemOf, names, says);
  if (weightiest !== undefined) return labels.label(weightiest);
  // Else the word, or the key phrase its comments use most (the longest among equals, rather than
  // 'Need'), in the words around it in the most voted comment that writes it: 'Runbook for the
  // failover', not 'Runbook'.
  const counts = new Map<string, number>();
  for (const phrase of phrasesOf) if (!isVagueAlone(phrase)) counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
  const [phrase] = word !== undefined && !isVagueAlone(word) && phrasesOf.includes(word) ? [word] : mostUsed(counts);
  if (phrase === undefined) return 'Other points';
  if (phrase.includes(' ') || writtenAsName(phrase, texts)) return labels.label(phrase);
  const net = (i: number) => (comments[i]?.upVotes ?? 0) - (comments[i]?.downVotes ?? 0);
  for (const i of [...members].sort((a, b) => net(b) - net(a) || a - b)) {
    const around = phraseAround(phrase, comments[i]?.content ?? '', analyses[i]?.phrases ?? [], names);
    if (around !== undefined) return capitalised(around);
  }
  return labels.label(phrase);
}

/**
 * Words that open the object of a verb: a word written with the -s of a verb straight before one
 * is a verb the tagger may have read as a noun ('the model flags every alert', 'the form answers
 * nothing'), where a plural noun is rarely followed by one.
 */
const RELATIVE = wordsOf(F.relativeWords);
/** A determiner that can open a relative clause instead ('the alerts that fire') is left out. */
const OBJECT_OPENERS = new Set(
  [...wordsOf(F.determiners, F.objectPronouns, F.indefinitePersons, F.indefiniteThings, F.questionWords)].filter((word) => !RELATIVE.has(word)),
);

/** Whether a text writes a key phrase's last word with an -s straight before the object of a verb. */
function readAsVerb(phrase: string, text: string): boolean {
  const head = phrase.slice(phrase.lastIndexOf(' ') + 1);
  const written = text.toLowerCase().match(WORD) ?? [];
  return written.some((word, i) => word !== head && /s$/u.test(word) && formOf(word, head) && OBJECT_OPENERS.has(written[i + 1] ?? ''));
}

/** Adjectives of degree: with one noun they name a level ('high confidence', 'low priority'), not what is discussed. */
const DEGREE = wordsOf(DEGREE_WORDS.adjectives);

/** Words that join a noun to the phrase that says which one it is ('runbook for the failover'). */
const JOINING = wordsOf(F.prepositions);
/** What may stand between a joining word and the noun it joins ('runbook for the failover'). */
const ARTICLES = wordsOf(F.determiners);

/** Whether a key phrase (lemmas) names a topic: not a degree and one noun ('high confidence'). */
function namesTopic(phrase: string): boolean {
  const words = phrase.split(' ');
  return !(words.length === 2 && DEGREE.has(words[0] ?? ''));
}

/** Whether a word as written is a form of a lemma ('notices' of 'notice', 'policies' of 'policy'). */
function formOf(word: string, lemma: string): boolean {
  if (word === lemma) return true;
  if (word.startsWith(lemma)) return /^(?:s|es|['’]s)$/u.test(word.slice(lemma.length));
  return lemma.endsWith('y') && word === `${lemma.slice(0, -1)}ies`;
}

/**
 * Whether a run of words (lowercase) reads as a noun phrase of the texts it comes from: it ends as
 * one of their key phrases (lemmas, split) ends, and starts with no past or adverb form that starts
 * none ('reviewed for a year'), so that a run cut at a verb ('the bridge opens'), inside a phrase
 * ('budget in the first') or at an adverb ('ended up', 'mostly still') or a degree and one noun
 * ('high confidence') is not taken for a topic; nor one with a verb before its object ('gate stops
 * every deploy'). The tagger reads some words of a compound as verbs ('flap damping window', 'global
 * kill switch'), so the run need not be a key phrase itself, and may end in a word that follows one.
 */
function nounPhrase(run: string, phrases: ReadonlyArray<readonly string[]>): boolean {
  const words = run.split(' ');
  const first = words[0] ?? '';
  const last = words[words.length - 1] ?? '';
  if (words.length === 2 && DEGREE.has(first)) return false;
  if (/(?:ed|ly)$/u.test(first) && !phrases.some((phrase) => formOf(first, phrase[0] ?? ''))) return false;
  if (words.some((word, i) => /s$/u.test(word) && OBJECT_OPENERS.has(words[i + 1] ?? ''))) return false;
  if (phrases.some((phrase) => formOf(last, phrase[phrase.length - 1] ?? ''))) return true;
  // A noun read as a verb after a key phrase ('fleet restart switch'), but no verb form ('team mutes').
  const before = words[words.length - 2] ?? '';
  return !/(?:s|ed|ing|ly)$/u.test(last) && phrases.some((phrase) => phrase.some((lemma) => formOf(before, lemma)));
}

/**
 * A word in the words around it in one text: the longest key phrase of the text (lemmas) that holds
 * it, as written; else the word and the phrase a joining word ties to it ('runbook for the
 * failover'), as written. None when the text has neither, or names a member there.
 */
function phraseAround(word: string, text: string, phrases: readonly string[], names: ReadonlySet<string>): string | undefined {
  const written = [...text.matchAll(WORD)].map((found) => ({ value: found[0], lower: found[0].toLowerCase(), at: found.index }));
  const surface = (from: number, to: number) => {
    const start = written[from];
    const end = written[to];
    return start === undefined || end === undefined ? '' : text.slice(start.at, end.at + end.value.length);
  };
  // A degree and one noun ('high confidence') only when nothing names the topic better.
  const holding = phrases
    .filter((phrase) => phrase.includes(' ') && phrase.split(' ').some((lemma) => formOf(lemma, word)))
    .sort((a, b) => Number(namesTopic(b)) - Number(namesTopic(a)) || wordCount(b) - wordCount(a));
  for (const phrase of holding) {
    const lemmas = phrase.split(' ');
    for (let i = 0; i + lemmas.length <= written.length; i += 1) {
      if (lemmas.every((lemma, k) => formOf(written[i + k]?.lower ?? '', lemma))) return surface(i, i + lemmas.length - 1);
    }
  }
  const heads = new Set(phrases.map((phrase) => phrase.slice(phrase.lastIndexOf(' ') + 1)));
  for (let i = 0; i < written.length; i += 1) {
    if (!formOf(written[i]?.lower ?? '', word) || !JOINING.has(written[i + 1]?.lower ?? '')) continue;
    let j = i + 2;
    if (ARTICLES.has(written[j]?.lower ?? '')) j += 1;
    // Up to the head of a key phrase, at most three words on.
    for (let k = j; k < Math.min(j + 3, written.length); k += 1) {
      const lower = written[k]?.lower ?? '';
      if (names.has(lower) || /[.,;:!?]/u.test(text.slice((written[k - 1]?.at ?? 0) + (written[k - 1]?.value.length ?? 0), written[k]?.at))) break;
      if ([...heads].some((head) => formOf(lower, head))) return surface(i, k);
    }
  }
  // Else what its clause says of it, when that is short: 'bridge opens too late on weekends'.
  for (let i = 0; i < written.length; i += 1) {
    if (!formOf(written[i]?.lower ?? '', word)) continue;
    let end = i;
    while (end + 1 < written.length && end - i < CLAUSE_WORDS - 1 && !/[.,;:!?()]/u.test(text.slice((written[end]?.at ?? 0) + (written[end]?.value.length ?? 0), written[end + 1]?.at))) end += 1;
    const clauseEnds = end + 1 >= written.length || /[.,;:!?()]/u.test(text.slice((written[end]?.at ?? 0) + (written[end]?.value.length ?? 0), written[end + 1]?.at));
    if (clauseEnds && end > i && !written.slice(i, end + 1).some((found) => names.has(found.lower))) return surface(i, end);
  }
  return undefined;
}

/** The most words of a clause that name a theme. */
const CLAUSE_WORDS = 6;

/**
 * The key phrase of several words whose words (by `stemOf`, lemma to stem) weigh most in the
 * cluster (the sum of their weights there; none when no word of it does), the most used among
 * equals, then the first its most voted comments write. None with a member's name or only the
 * title's words.
 */
function weightiestPhrase(
  members: readonly number[],
  comments: readonly ThemeItem[],
  analyses: readonly TextAnalysis[],
  weights: ReadonlyMap<string, { weight: number; count: number }>,
  stemOf: ReadonlyMap<string, string>,
  names: ReadonlySet<string>,
  says: (phrase: string) => boolean,
): string | undefined {
  const net = (i: number) => (comments[i]?.upVotes ?? 0) - (comments[i]?.downVotes ?? 0);
  // In the order the most voted comments write them.
  const uses = new Map<string, number>();
  for (const i of [...members].sort((a, b) => net(b) - net(a) || a - b)) {
    for (const phrase of new Set(analyses[i]?.phrases ?? [])) uses.set(phrase, (uses.get(phrase) ?? 0) + 1);
  }
  // A phrase two comments use is a term of its own, and weighs as one.
  const weightOf = (phrase: string) =>
    phrase.split(' ').reduce((sum, word) => sum + (weights.get(stemOf.get(word) ?? word)?.weight ?? 0), weights.get(`"${phrase}"`)?.weight ?? 0);
  const [best] = [...uses.entries()]
    .map(([phrase, used], order) => ({ phrase, used, order, weight: weightOf(phrase) }))
    .filter(({ phrase, weight }) => weight > 0 && phrase.includes(' ') && says(phrase) && !phrase.split(' ').some((word) => names.has(word)))
    .sort((a, b) => b.weight - a.weight || b.used - a.used || a.order - b.order);
  return best?.phrase;
}

/** The phrase used most, the longest among equals, then the first alphabetically. */
function mostUsed(counts: ReadonlyMap<string, number>): [string, number] | [] {
  return [...counts.entries()].sort(([a, x], [b, y]) => y - x || wordCount(b) - wordCount(a) || compareText(a, b))[0] ?? [];
}

/** Without the quote marks a word was written in ('Network' assignment group' → 'Network assignment group'). */
function unquoted(label: string): string {
  return label.replace(/(^|\s)['‘’"“”]+|['‘’"“”]+(?=\s|$)/gu, '$1');
}

function capitalised(text: string): string {
  return lowerFirst(text) === text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}
