import { beforeAll, describe, expect, it } from 'vitest';
import { loadReader } from '../local/wink.js';
import { CHATTER_MODEL, STEERING_MODEL } from '../local/word-models.js';
import { share } from './score.js';
import { loadDevelopmentSets } from './sets.js';
import type { LabelledSet } from './labelled-set.js';
import { leaveOneSetOut, trainWordModels, wordModelsWithout } from './word-model-training.js';

/** The word models are what the labelled sets teach, and they find their kind in a review they have not seen. */

let stem: (word: string) => string;
beforeAll(async () => {
  const reader = await loadReader();
  stem = (word) => reader.stem(word);
});
const sets = loadDevelopmentSets();

describe('the word models', () => {
  it('are the ones the labelled sets train (run `npm run train:models` after changing a set)', () => {
    expect(trainWordModels(sets, stem)).toEqual({ chatter: CHATTER_MODEL, steering: STEERING_MODEL });
  });

  it('are trained without a set by leaving out the set of its name, which no other set has', () => {
    expect(new Set(sets.map((set) => set.name)).size).toBe(sets.length);
    const [left, ...others] = sets;
    if (left === undefined) throw new Error('no labelled set');
    expect(wordModelsWithout(structuredClone(left), sets, stem)).toEqual(trainWordModels(others, stem));
  });

  it('find most off-topic comments, and most written to the tool, of a set they were not trained on, and next to nothing else', () => {
    const { chatter, steering } = leaveOneSetOut(sets, stem);
    expect(share(chatter.found)).toBeGreaterThanOrEqual(0.85);
    expect(chatter.wronglyFound.hit).toBeLessThanOrEqual(2);
    expect(share(steering.found)).toBeGreaterThanOrEqual(0.8);
    expect(steering.wronglyFound.hit).toBeLessThanOrEqual(2);
  });

  it('read a word seen once, in a point on the thread, as no evidence of chatter', () => {
    // Many more points than asides, as in a review: smoothing must not favour the small side.
    const texts = [
      'Photos from the wedding are up.',
      'Cake in the kitchen for my birthday.',
      'Restart the ODIM converter with systemctl when it hangs.',
      ...Array.from({ length: 40 }, (_, i) => `Escalate incident ${i} to the secondary after five minutes.`),
    ];
    const component = {
      id: 'paging',
      title: 'Paging',
      description: 'Who is paged, and when.',
      comments: texts.map((text, i) => ({ key: `c${i}`, author: 'Ana', kind: 'comment' as const, text, up: [], down: [] })),
      themes: [],
      actions: [],
      conflicts: [],
      offTopic: ['c0', 'c1'],
      injection: [],
    };
    const set: LabelledSet = { name: 'tiny', description: 'A tiny set.', members: ['Ana', 'Ben'], components: [component] };
    const { chatter } = trainWordModels([set], stem);
    expect(chatter.weights[stem('systemctl')]).toBeLessThanOrEqual(0);
    expect(chatter.weights[stem('wedding')]).toBeGreaterThan(0);
  });
});
