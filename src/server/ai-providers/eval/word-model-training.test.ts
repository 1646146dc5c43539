import { beforeAll, describe, expect, it } from 'vitest';
import { loadReader } from '../local/wink.js';
import { CHATTER_MODEL, STEERING_MODEL } from '../local/word-models.js';
import { share } from './score.js';
import { HOLDOUT_DIR, loadLabelledSets, SETS_DIR } from './sets.js';
import { leaveOneSetOut, trainWordModels } from './word-model-training.js';

/** The word models are what the labelled sets teach, and they find their kind in a review they have not seen. */

let stem: (word: string) => string;
beforeAll(async () => {
  const reader = await loadReader();
  stem = (word) => reader.stem(word);
});
const sets = [...loadLabelledSets(SETS_DIR), ...loadLabelledSets(HOLDOUT_DIR)];

describe('the word models', () => {
  it('are the ones the labelled sets train (run `npm run train:models` after changing a set)', () => {
    expect(trainWordModels(sets, stem)).toEqual({ chatter: CHATTER_MODEL, steering: STEERING_MODEL });
  });

  it('find most off-topic comments, and most written to the tool, of a set they were not trained on, and next to nothing else', () => {
    const { chatter, steering } = leaveOneSetOut(sets, stem);
    expect(share(chatter.found)).toBeGreaterThanOrEqual(0.65);
    expect(chatter.wronglyFound.hit).toBeLessThanOrEqual(2);
    expect(share(steering.found)).toBeGreaterThanOrEqual(0.75);
    expect(steering.wronglyFound.hit).toBeLessThanOrEqual(2);
  });
});
