/**
 * Trains the chatter model (src/server/ai-providers/local/chatter.ts) on every labelled review set,
 * the held-out ones included, writes it to chatter-model.ts, and prints how it does on a set it has
 * not seen: each set scored by a model trained on all the others.
 *
 *   npm run train:chatter
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chatterModelSource, leaveOneSetOut, trainChatter } from '../src/server/ai-providers/eval/chatter-training.js';
import { HOLDOUT_DIR, loadLabelledSets, SETS_DIR } from '../src/server/ai-providers/eval/sets.js';
import { loadReader } from '../src/server/ai-providers/local/wink.js';

const reader = await loadReader();
const stem = (word: string) => reader.stem(word);
const sets = [...loadLabelledSets(SETS_DIR), ...loadLabelledSets(HOLDOUT_DIR)];
const model = trainChatter(sets, stem);
const target = fileURLToPath(new URL('../src/server/ai-providers/local/chatter-model.ts', import.meta.url));
writeFileSync(target, chatterModelSource(model));
const check = leaveOneSetOut(sets, stem);
const share = ({ hit, of }: { hit: number; of: number }) => `${hit}/${of} (${((100 * hit) / Math.max(1, of)).toFixed(1)}%)`;
process.stdout.write(
  [
    `Trained on ${sets.length} sets: ${Object.keys(model.weights).length} words, written to ${target}.`,
    'Each set left out in turn, scored by a model trained on the others:',
    `  off-topic comments set aside   ${share(check.offTopicFound)}`,
    `  other comments set aside       ${share(check.othersSetAside)}${check.wrong.length === 0 ? '' : `: ${check.wrong.join(', ')}`}`,
    '',
  ].join('\n'),
);
