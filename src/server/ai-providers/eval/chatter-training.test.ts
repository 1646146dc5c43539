import { beforeAll, describe, expect, it } from 'vitest';
import { CHATTER_MODEL } from '../local/chatter-model.js';
import { loadReader } from '../local/wink.js';
import { leaveOneSetOut, trainChatter } from './chatter-training.js';
import { share } from './score.js';
import { HOLDOUT_DIR, loadLabelledSets, SETS_DIR } from './sets.js';

/** The chatter model is what the labelled sets teach, and it finds chatter in a review it has not seen. */

let stem: (word: string) => string;
beforeAll(async () => {
  const reader = await loadReader();
  stem = (word) => reader.stem(word);
});
const sets = [...loadLabelledSets(SETS_DIR), ...loadLabelledSets(HOLDOUT_DIR)];

describe('the chatter model', () => {
  it('is the one the labelled sets train (run `npm run train:chatter` after changing a set)', () => {
    expect(trainChatter(sets, stem)).toEqual(CHATTER_MODEL);
  });

  it('finds most off-topic comments of a set it was not trained on, and next to nothing else', () => {
    const check = leaveOneSetOut(sets, stem);
    expect(share(check.offTopicFound)).toBeGreaterThanOrEqual(0.75);
    expect(check.othersSetAside.hit).toBeLessThanOrEqual(2);
  });
});
