import { chatterIn } from '../local/chatter.js';
import { TIME_WORDS } from '../local/rules.js';
import { steersTheOutput } from '../local/steering.js';
import { firstNameWords, modelWords, nameWords, subjectWords, titleWords, type WordModel, type WordModels } from '../local/word-model.js';
import type { LabelledSet } from './labelled-set.js';
import type { Ratio } from './score.js';

/**
 * The word models (local/word-model.ts) learnt from labelled review sets: Bernoulli naive Bayes over
 * the words of one kind of comment against the others. What a model may not learn: people's names,
 * the review's own subject, and words too few reviews use (see `unlearnt` and MIN_SETS); and no
 * word weighs more than MAX_WEIGHT.
 */

type LabelledComponent = LabelledSet['components'][number];

/** Which side of the model a comment is on: the kind it learns, the rest, or neither (left out). */
type Side = 'kind' | 'rest' | undefined;

/** Chatter against the rest; comments to the tool are another model's. */
const chatterSide = (component: LabelledComponent, key: string): Side =>
  component.injection.includes(key) ? undefined : component.offTopic.includes(key) ? 'kind' : 'rest';

/** Comments to the tool against the rest; chatter is another model's. */
const steeringSide = (component: LabelledComponent, key: string): Side =>
  component.offTopic.includes(key) ? undefined : component.injection.includes(key) ? 'kind' : 'rest';

/**
 * Words no model may learn from the sets it is trained on: people's names (a teammate who happened
 * to write one review's asides makes no comment naming her an aside), the review's subject
 * (word-model.ts), with the words of every component title trained on, and the days of the week.
 * Half the asides name a day (the match on Sunday, cake on Friday), but so do real points about
 * schedules (maintenance on Sunday nights, a postmortem on Monday): a day says when, not what
 * about, and a point set aside is the worse mistake. Leaving each set out, without them 186 of
 * 199 asides are found and no other comment; with them 188, and one real point set aside.
 */
interface Unlearnt {
  /** The subject, the titles' words, and every set's members' first names: how any review names a teammate. */
  everywhere: ReadonlySet<string>;
  /** Per set (by name), its own members' names, every part of them, surnames too. */
  bySet: ReadonlyMap<string, ReadonlySet<string>>;
}

function unlearnt(sets: readonly LabelledSet[], stem: (word: string) => string): Unlearnt {
  const everywhere = new Set([...subjectWords(stem), ...TIME_WORDS.weekdays.words.flatMap((day) => [...modelWords(day, stem)])]);
  const bySet = new Map<string, ReadonlySet<string>>();
  for (const set of sets) {
    for (const member of set.members) for (const word of firstNameWords(member, stem)) everywhere.add(word);
    for (const component of set.components) for (const word of titleWords(component.title, stem)) everywhere.add(word);
    bySet.set(set.name, new Set(set.members.flatMap((member) => [...nameWords(member, stem)])));
  }
  return { everywhere, bySet };
}

/**
 * A word is learnt only when comments of at least this many sets use it: a word of one review
 * ('HITEC', a town, a project's name) says more about that review than about asides, and such
 * words made the biggest weights. Counted in total, not on the side the word is evidence for:
 * asides are few (177 against 2,297 other comments over 43 sets), so almost no aside's word reached
 * three sets' asides while nearly every word of the points reached three sets' points; the
 * everyday words of a long aside then all weighed against it (leaving each set out, at most 2 other
 * comments set aside: 165 of 177 asides found, against 169 counted in total). What one review's asides alone say of a word is tempered by
 * the smoothing (CHATTER_PRIOR_WEIGHT) and the cap.
 */
const MIN_SETS = 3;

/**
 * No word weighs more than this either way: a comment is read by several of its words, not carried
 * by one. Measured by leaving each set out, at each cap's best thresholds: at most 2 other comments
 * set aside, 168, 169, 167 and 166 of 177 asides found with caps of 2, 3, 4 and none; comments
 * written to the tool, 87 of 100 with a cap of 2, 89 with 3, and with 4 or none one real comment
 * read as written to the tool at every threshold that finds 89.
 */
const MAX_WEIGHT = 3;

/**
 * `priorWeight`: how many comments' worth of the word's rate over all comments each side starts
 * from; without it, add-one smoothing.
 */
function train(
  sets: readonly LabelledSet[],
  stem: (word: string) => string,
  sideOf: (component: LabelledComponent, key: string) => Side,
  priorWeight?: number,
): WordModel {
  const { everywhere, bySet } = unlearnt(sets, stem);
  const counts = new Map<string, { kind: number; rest: number; sets: Set<string> }>();
  let kind = 0;
  let rest = 0;
  for (const set of sets) {
    const names = bySet.get(set.name) ?? new Set<string>();
    for (const component of set.components) {
      for (const comment of component.comments) {
        const side = sideOf(component, comment.key);
        if (side === undefined) continue;
        if (side === 'kind') kind += 1;
        else rest += 1;
        for (const word of modelWords(comment.text, stem)) {
          if (everywhere.has(word) || names.has(word)) continue;
          const count = counts.get(word) ?? { kind: 0, rest: 0, sets: new Set<string>() };
          count[side] += 1;
          count.sets.add(set.name);
          counts.set(word, count);
        }
      }
    }
  }
  const weights: Record<string, number> = {};
  for (const word of [...counts.keys()].sort()) {
    const count = counts.get(word);
    if (count === undefined) continue;
    const background = (count.kind + count.rest) / (kind + rest);
    const p = priorWeight === undefined ? (count.kind + 1) / (kind + 2) : (count.kind + priorWeight * background) / (kind + priorWeight);
    const q = priorWeight === undefined ? (count.rest + 1) / (rest + 2) : (count.rest + priorWeight * background) / (rest + priorWeight);
    const weight = Math.log(p / q) - Math.log((1 - p) / (1 - q));
    if (count.sets.size < MIN_SETS) continue;
    weights[word] = round3(Math.max(-MAX_WEIGHT, Math.min(MAX_WEIGHT, weight)));
  }
  return { bias: round3(Math.log((kind + 1) / (rest + 1))), weights };
}

/**
 * The chatter model draws each side's rate of a word towards its rate over all comments, by this
 * many comments' worth. Add-one smoothing made a word seen once, in a real point, evidence for the
 * small side (one in 88 against one in 1,360): every rare technical word read a little as chatter.
 * The draw also says how little a word's absence from the few asides tells: at 50, every word no
 * aside used weighed about -1.5, and a long aside in everyday words summed many of them. Measured
 * by leaving each set out (43 sets, names, subject and rare words unlearnt, cap 3): 50, 100, 150,
 * 200, 300 and 400 found at best 165, 166, 166, 169, 167 and 164 of 177 asides with at most 2 other
 * comments set aside.
 * The steering model keeps add-one smoothing: comments written to the tool are made of words rare
 * in a review ('unanimous', 'headline'), and the output's name gates it.
 */
const CHATTER_PRIOR_WEIGHT = 200;
/** Three decimals; a tiny negative weight rounds to 0, not -0, which JSON could not keep. */
const round3 = (value: number) => Math.round(value * 1000) / 1000 + 0;

export function trainWordModels(sets: readonly LabelledSet[], stem: (word: string) => string): WordModels {
  return { chatter: train(sets, stem, chatterSide, CHATTER_PRIOR_WEIGHT), steering: train(sets, stem, steeringSide) };
}

/** The models trained on every set but `set` (by name): the analyzer meeting that review for the first time. */
export function wordModelsWithout(set: LabelledSet, sets: readonly LabelledSet[], stem: (word: string) => string): WordModels {
  return trainWordModels(
    sets.filter((other) => other.name !== set.name),
    stem,
  );
}

export interface ModelCheck {
  /** Comments of the kind in the set left out that the model trained on the others finds. */
  found: Ratio;
  /** Other comments (of neither kind) it finds all the same. */
  wronglyFound: Ratio;
  /** Those comments, as `set/key`. */
  wrong: string[];
}

/**
 * Each set read by models trained on all the others: how the models do on a review they have not
 * seen. Chatter is looked for as the analyzer does, in each component's discussion.
 */
export function leaveOneSetOut(sets: readonly LabelledSet[], stem: (word: string) => string): { chatter: ModelCheck; steering: ModelCheck } {
  const chatter: ModelCheck = { found: { hit: 0, of: 0 }, wronglyFound: { hit: 0, of: 0 }, wrong: [] };
  const steering: ModelCheck = { found: { hit: 0, of: 0 }, wronglyFound: { hit: 0, of: 0 }, wrong: [] };
  const tally = (check: ModelCheck, side: Side, found: boolean, name: string) => {
    if (side === undefined) return;
    const ratio = side === 'kind' ? check.found : check.wronglyFound;
    ratio.of += 1;
    if (!found) return;
    ratio.hit += 1;
    if (side === 'rest') check.wrong.push(name);
  };
  for (const left of sets) {
    const words = { stem, ...wordModelsWithout(left, sets, stem) };
    for (const component of left.components) {
      const chatterFound = chatterIn(
        component.title,
        component.comments.map((comment) => ({ content: comment.text, memberName: comment.author })),
        words,
        component.description,
      );
      component.comments.forEach((comment, i) => {
        const name = `${left.name}/${comment.key}`;
        tally(chatter, chatterSide(component, comment.key), chatterFound.has(i), name);
        tally(steering, steeringSide(component, comment.key), steersTheOutput(comment.text, words), name);
      });
    }
  }
  return { chatter, steering };
}

/**
 * The models as the JSON file the analyzer loads (local/word-models.json): sorted by word, rounded,
 * one word a line, so that the same sets always write the same file and a change reads as a diff.
 */
export function wordModelsJson(models: WordModels): string {
  return `${JSON.stringify(models, null, 2)}\n`;
}
