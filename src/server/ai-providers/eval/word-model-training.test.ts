import { beforeAll, describe, expect, it } from 'vitest';
import { loadReader } from '../local/wink.js';
import shipped from '../local/word-models.json' with { type: 'json' };
import { share } from './score.js';
import { loadDevelopmentSets } from './sets.js';
import type { LabelledSet } from './labelled-set.js';
import { leaveOneSetOut, trainWordModels, wordModelsJson, wordModelsWithout } from './word-model-training.js';

/** The word models are what the labelled sets teach, and they find their kind in a review they have not seen. */

let stem: (word: string) => string;
beforeAll(async () => {
  const reader = await loadReader();
  stem = (word) => reader.stem(word);
});
const sets = loadDevelopmentSets();

describe('the word models', () => {
  it('are the ones the labelled sets train, as word-models.json holds them (run `npm run train:models` after changing a set)', () => {
    const models = trainWordModels(sets, stem);
    expect(models).toEqual(shipped);
    expect(JSON.parse(wordModelsJson(models))).toEqual(models);
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
    // Trains both models once per set: a few seconds alone, more beside other test files.
  }, 60_000);

  it('read a word seen once, in a point on the thread, as no evidence of chatter', () => {
    // Many more points than asides, as in a review: smoothing must not favour the small side.
    const texts = (i: number) => [
      { text: 'Photos from the wedding are up.', aside: true },
      { text: 'Cake in the kitchen for my birthday.', aside: true },
      { text: `Restart the converter ${'ABC'[i]} with systemctl when it hangs.` },
      ...Array.from({ length: 40 }, (_, n) => ({ text: `Escalate incident ${n} to the secondary after five minutes.` })),
    ];
    const { chatter } = trainWordModels([0, 1, 2].map((i) => tinySet(`tiny-${i}`, ['Ana Lopes', 'Ben Okoro'], 'Paging', texts(i))), stem);
    expect(chatter.weights[stem('systemctl')]).toBeLessThanOrEqual(0);
    expect(chatter.weights[stem('wedding')]).toBeGreaterThan(0);
  });

  it('weigh no word more than 3 either way, though the sets would weigh some more', () => {
    const weights = [...Object.values(shipped.chatter.weights), ...Object.values(shipped.steering.weights)];
    expect(Math.max(...weights.map(Math.abs))).toBe(3);
  });

  it('learn no word fewer than three sets use', () => {
    const texts = (i: number) => [
      { text: 'Anyone up for the quiz night? Bring snacks.', aside: true },
      { text: i === 0 ? 'Lost my umbrella at the quiz, blue with ducks.' : 'Who took my mug?', aside: true },
      ...Array.from({ length: 30 }, (_, n) => ({ text: `Route alarm ${n} to the network queue before paging anyone.` })),
    ];
    const sets = [0, 1, 2].map((i) => tinySet(`tiny-${i}`, ['Ana Lopes', 'Ben Okoro'], 'Paging', texts(i)));
    const { chatter } = trainWordModels(sets, stem);
    expect(chatter.weights[stem('quiz')]).toBeGreaterThan(0);
    expect(chatter.weights[stem('umbrella')]).toBeUndefined();
    expect(chatter.weights[stem('ducks')]).toBeUndefined();
    expect(trainWordModels(sets.slice(0, 2), stem).chatter.weights[stem('quiz')]).toBeUndefined();
  });

  it('learn no person’s name: a set’s members, any part of their names, nor another set’s member named by first name', () => {
    // Every set's asides name people; 'drinks' stands beside each name, as evidence to learn.
    const sets = [
      tinySet('tiny-0', ['Oksana Lund', 'Bram Visser'], 'Paging', [
        { text: 'Drinks for Oksana Lund and Tove on Friday.', aside: true },
        { text: 'Kofi says drinks are on him.', aside: true },
      ]),
      tinySet('tiny-1', ['Tove Lund', 'Kofi Mensah-Adu'], 'Paging', [
        { text: 'Drinks for Lund and Oksana on Friday.', aside: true },
        { text: 'Mensah and Adu bring the drinks.', aside: true },
      ]),
      tinySet('tiny-2', ['Ines Lund', 'Raj Patel'], 'Paging', [
        { text: 'Drinks with Lund and Bram on Friday.', aside: true },
        { text: 'Oksana and Kofi: drinks?', aside: true },
      ]),
    ].map((set) => withPoints(set));
    const { chatter, steering } = trainWordModels(sets, stem);
    expect(chatter.weights[stem('drinks')]).toBeGreaterThan(0);
    for (const name of ['oksana', 'tove', 'kofi', 'bram', 'lund', 'mensah', 'adu', 'mensah-adu']) {
      expect(chatter.weights[stem(name)], name).toBeUndefined();
      expect(steering.weights[stem(name)], name).toBeUndefined();
    }
  });

  it('learn none of the review’s own subject words, nor any word of a title trained on', () => {
    const subject = 'the architecture diagram, the component, the AI assistant, its model, the summary, the review';
    const texts = [
      { text: `Cake in the kitchen, and ${subject}.`, aside: true },
      { text: `Anyone for the quiz? Never mind ${subject}.`, aside: true },
      { text: 'Your notes on the gateway throttling were helpful, my thanks.', aside: true },
      ...Array.from({ length: 30 }, (_, n) => ({ text: `Route alarm ${n} through the gateway throttling queue.` })),
    ];
    const sets = [0, 1, 2].map((i) => tinySet(`tiny-${i}`, ['Ana Lopes', 'Ben Okoro'], 'Gateway Throttling', texts));
    const { chatter, steering } = trainWordModels(sets, stem);
    expect(chatter.weights[stem('cake')]).toBeGreaterThan(0);
    for (const word of ['architecture', 'diagram', 'component', 'ai', 'assistant', 'model', 'summary', 'review', 'gateway', 'throttling']) {
      expect(chatter.weights[stem(word)], word).toBeUndefined();
      expect(steering.weights[stem(word)], word).toBeUndefined();
    }
  });
});

/** A set of one component: its comments by turns of its members, the asides labelled off-topic. */
function tinySet(name: string, members: string[], title: string, texts: ReadonlyArray<{ text: string; aside?: boolean }>): LabelledSet {
  const comments = texts.map(({ text }, i) => ({ key: `c${i}`, author: members[i % members.length] ?? '', kind: 'comment' as const, text, up: [], down: [] }));
  const component = {
    id: 'only',
    title,
    description: 'The only component.',
    comments,
    themes: [],
    actions: [],
    conflicts: [],
    offTopic: texts.flatMap(({ aside }, i) => (aside === true ? [`c${i}`] : [])),
    injection: [],
  };
  return { name, description: 'A tiny set.', members, components: [component] };
}

/** The set with points enough beside its asides for a model to weigh them. */
function withPoints(set: LabelledSet): LabelledSet {
  const [component] = set.components;
  if (component === undefined) return set;
  const points = Array.from({ length: 20 }, (_, n) => ({
    key: `p${n}`,
    author: set.members[0] ?? '',
    kind: 'comment' as const,
    text: `Escalate alarm ${n} to the secondary after five minutes.`,
    up: [],
    down: [],
  }));
  return { ...set, components: [{ ...component, comments: [...component.comments, ...points] }] };
}
