import { chatterIn, chatterWords, type ChatterModel } from '../local/chatter.js';
import type { LabelledSet } from './labelled-set.js';
import type { Ratio } from './score.js';

/**
 * The chatter model (local/chatter.ts) learnt from labelled review sets: a Bernoulli naive Bayes
 * over the words of their off-topic comments against the rest (comments addressed to the tool left
 * out: another gate reads those), with Laplace smoothing. Every word is kept: one that a single
 * off-topic comment used ('wedding', 'flowers') is the evidence the next one will bring.
 */
export function trainChatter(sets: readonly LabelledSet[], stem: (word: string) => string): ChatterModel {
  const counts = new Map<string, { off: number; on: number }>();
  let off = 0;
  let on = 0;
  for (const set of sets) {
    for (const component of set.components) {
      for (const comment of component.comments) {
        if (component.injection.includes(comment.key)) continue;
        const isOff = component.offTopic.includes(comment.key);
        if (isOff) off += 1;
        else on += 1;
        for (const word of chatterWords(comment.text, stem)) {
          const count = counts.get(word) ?? { off: 0, on: 0 };
          if (isOff) count.off += 1;
          else count.on += 1;
          counts.set(word, count);
        }
      }
    }
  }
  const weights: Record<string, number> = {};
  for (const word of [...counts.keys()].sort()) {
    const count = counts.get(word) ?? { off: 0, on: 0 };
    const p = (count.off + 1) / (off + 2);
    const q = (count.on + 1) / (on + 2);
    weights[word] = round3(Math.log(p / q) - Math.log((1 - p) / (1 - q)));
  }
  return { bias: round3(Math.log((off + 1) / (on + 1))), weights };
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

export interface ChatterCheck {
  /** Off-topic comments of the set left out that the model trained on the others finds. */
  offTopicFound: Ratio;
  /** Other comments (not addressed to the tool) it sets aside all the same. */
  othersSetAside: Ratio;
  /** The comments set aside wrongly, as `set/key`. */
  wrong: string[];
}

/** Each set scored by a model trained on all the others: how the model does on a review it has not seen. */
export function leaveOneSetOut(sets: readonly LabelledSet[], stem: (word: string) => string): ChatterCheck {
  const check: ChatterCheck = { offTopicFound: { hit: 0, of: 0 }, othersSetAside: { hit: 0, of: 0 }, wrong: [] };
  sets.forEach((left, index) => {
    const model = trainChatter(
      sets.filter((_set, i) => i !== index),
      stem,
    );
    for (const component of left.components) {
      const found = chatterIn(
        component.title,
        component.comments.map((comment) => comment.text),
        stem,
        model,
      );
      component.comments.forEach((comment, i) => {
        if (component.injection.includes(comment.key)) return;
        if (component.offTopic.includes(comment.key)) {
          check.offTopicFound.of += 1;
          if (found.has(i)) check.offTopicFound.hit += 1;
        } else {
          check.othersSetAside.of += 1;
          if (found.has(i)) {
            check.othersSetAside.hit += 1;
            check.wrong.push(`${left.name}/${comment.key}`);
          }
        }
      });
    }
  });
  return check;
}

/** The model as the TypeScript module the analyzer imports, one word a line, sorted. */
export function chatterModelSource(model: ChatterModel): string {
  const words = Object.entries(model.weights).map(([word, weight]) => `    ${JSON.stringify(word)}: ${weight},`);
  return [
    '// Written by `npm run train:chatter` from the labelled review sets (src/server/ai-providers/eval); do not edit.',
    "import type { ChatterModel } from './chatter.js';",
    '',
    'export const CHATTER_MODEL: ChatterModel = {',
    `  bias: ${model.bias},`,
    '  weights: {',
    ...words,
    '  },',
    '};',
    '',
  ].join('\n');
}
