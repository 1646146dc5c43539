import { chatterIn } from '../local/chatter.js';
import { steersTheOutput } from '../local/steering.js';
import { modelWords, type WordModel, type WordModels } from '../local/word-model.js';
import type { LabelledSet } from './labelled-set.js';
import type { Ratio } from './score.js';

/**
 * The word models (local/word-model.ts) learnt from labelled review sets: Bernoulli naive Bayes over
 * the words of one kind of comment against the others. Every word is kept: one that a single
 * off-topic comment used ('wedding', 'flowers') is the evidence the next one will bring.
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
 * `priorWeight`: how many comments' worth of the word's rate over all comments each side starts
 * from; without it, add-one smoothing.
 */
function train(sets: readonly LabelledSet[], stem: (word: string) => string, sideOf: (component: LabelledComponent, key: string) => Side, priorWeight?: number): WordModel {
  const counts = new Map<string, { kind: number; rest: number }>();
  let kind = 0;
  let rest = 0;
  for (const set of sets) {
    for (const component of set.components) {
      for (const comment of component.comments) {
        const side = sideOf(component, comment.key);
        if (side === undefined) continue;
        if (side === 'kind') kind += 1;
        else rest += 1;
        for (const word of modelWords(comment.text, stem)) {
          const count = counts.get(word) ?? { kind: 0, rest: 0 };
          count[side] += 1;
          counts.set(word, count);
        }
      }
    }
  }
  const weights: Record<string, number> = {};
  for (const word of [...counts.keys()].sort()) {
    const count = counts.get(word) ?? { kind: 0, rest: 0 };
    const background = (count.kind + count.rest) / (kind + rest);
    const p = priorWeight === undefined ? (count.kind + 1) / (kind + 2) : (count.kind + priorWeight * background) / (kind + priorWeight);
    const q = priorWeight === undefined ? (count.rest + 1) / (rest + 2) : (count.rest + priorWeight * background) / (rest + priorWeight);
    weights[word] = round3(Math.log(p / q) - Math.log((1 - p) / (1 - q)));
  }
  return { bias: round3(Math.log((kind + 1) / (rest + 1))), weights };
}

/**
 * The chatter model draws each side's rate of a word towards its rate over all comments, by this
 * many comments' worth. Add-one smoothing made a word seen once, in a real point, evidence for the
 * small side (one in 88 against one in 1,360): every rare technical word read a little as chatter.
 * Measured by leaving each set out: 10, 30, 50 and 100 all beat it; 50 finds the most asides with
 * no other comment set aside. The steering model keeps add-one smoothing, measured the same way:
 * comments written to the tool are made of words rare in a review ('summariser', 'unanimous'), the
 * output's name gates it, and it found more of them (37 of 46 against 35 over 25 sets, none wrongly).
 */
const CHATTER_PRIOR_WEIGHT = 50;
const round3 = (value: number) => Math.round(value * 1000) / 1000;

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

/** The models as the TypeScript module the analyzer imports, one word a line, sorted. */
export function wordModelsSource(models: WordModels): string {
  const model = (name: string, { bias, weights }: WordModel) => [
    `export const ${name}: WordModel = {`,
    `  bias: ${bias},`,
    '  weights: {',
    ...Object.entries(weights).map(([word, weight]) => `    ${JSON.stringify(word)}: ${weight},`),
    '  },',
    '};',
  ];
  return [
    '// Written by `npm run train:models` from the labelled review sets (src/server/ai-providers/eval); do not edit.',
    "import type { WordModel } from './word-model.js';",
    '',
    '/** Off-topic comments against the rest (chatter.ts). */',
    ...model('CHATTER_MODEL', models.chatter),
    '',
    '/** Comments written to the summarising tool against the rest (steering.ts). */',
    ...model('STEERING_MODEL', models.steering),
    '',
  ].join('\n');
}
