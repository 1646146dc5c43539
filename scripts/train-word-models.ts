/**
 * Trains the word models (src/server/ai-providers/local/word-model.ts: chatter, and comments written
 * to the summarising tool) on every development set, writes them to
 * src/server/ai-providers/local/word-models.json (which the analyzer loads, and the server build
 * copies beside it), and prints how they do on a set they have not seen: each set read by models
 * trained on all the others.
 *
 *   npm run train:models
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { leaveOneSetOut, trainWordModels, wordModelsJson, type ModelCheck } from '../src/server/ai-providers/eval/word-model-training.js';
import { loadDevelopmentSets } from '../src/server/ai-providers/eval/sets.js';
import { loadReader } from '../src/server/ai-providers/local/wink.js';

const reader = await loadReader();
const stem = (word: string) => reader.stem(word);
const sets = loadDevelopmentSets();
const models = trainWordModels(sets, stem);
const target = fileURLToPath(new URL('../src/server/ai-providers/local/word-models.json', import.meta.url));
writeFileSync(target, wordModelsJson(models));
const checks = leaveOneSetOut(sets, stem);
const share = ({ hit, of }: { hit: number; of: number }) => `${hit}/${of} (${((100 * hit) / Math.max(1, of)).toFixed(1)}%)`;
const lines = (what: string, check: ModelCheck) => [
  `  ${what.padEnd(34)} ${share(check.found)}`,
  `  ${'other comments found'.padEnd(34)} ${share(check.wronglyFound)}${check.wrong.length === 0 ? '' : `: ${check.wrong.join(', ')}`}`,
];
process.stdout.write(
  [
    `Trained on ${sets.length} sets (chatter ${Object.keys(models.chatter.weights).length} words, steering ${Object.keys(models.steering.weights).length}), written to ${target}.`,
    'Each set left out in turn, read by models trained on the others:',
    ...lines('off-topic comments set aside', checks.chatter),
    ...lines('comments to the tool set aside', checks.steering),
    '',
  ].join('\n'),
);
